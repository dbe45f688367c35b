#pragma once
// The PMC table of one dispatch (viz.md §2.10.1, done as a tree): a "Derived metrics" row first,
// whose children are the metrics libtrace derives (VALU utilization, L2 hit rate, ...); then one
// row per counter with its sum, max and how many instances were active, expanding into one row
// per (XCC, instance, SE, SA) with a column per WGP. Sort through a proxy on SortRole.

#include <QAbstractItemModel>

#include <optional>

#include "wavescope/trace/pmc/pmc_sample.hpp"

namespace wavescope::gui {

class CountersModel : public QAbstractItemModel {
  Q_OBJECT
public:
  enum Column { NameColumn, SumColumn, MaxColumn, ActiveColumn, FirstWgpColumn };
  enum Role {
    SortRole = Qt::UserRole + 1,  // numbers for numeric cells
    KindRole,                     // int RowKind
  };
  enum class RowKind { Counter, Instance, MetricGroup, Metric };

  explicit CountersModel(QObject *parent = nullptr);
  // Shows one dispatch's counters (nullopt clears).
  void set_counters(std::optional<trace::pmc::DispatchCounters> counters);
  const std::optional<trace::pmc::DispatchCounters> &counters() const { return counters_; }
  // Columns for per-WGP values: the widest geometry's WGP count.
  int wgp_columns() const { return wgp_columns_; }

  QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
  QModelIndex parent(const QModelIndex &child) const override;
  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  RowKind kind(const QModelIndex &index) const;

private:
  int counter_count() const;
  int metric_count() const;
  int metric_rows() const;  // 1 when there is a metrics group row (top row 0), else 0
  const trace::pmc::CounterSample &counter_at(int top_row) const;
  std::optional<trace::pmc::DispatchCounters> counters_;
  int wgp_columns_ = 1;
};

}  // namespace wavescope::gui
