#pragma once
// The instruction-timing table (RGP / ROCprof Compute Viewer style, which VIZ lacks): one row per
// PC hit by the trace, over a scope (a kernel on every SE, one SE, or one wave) - address,
// instruction, hits, mean/min/max issue gap and its range bar (min..mean..max), mean stall and
// latency as RGP splits them with a bar (latency, its stall part apart), execution-unit cycles,
// barrier wait and cost (the PC's share of all issue-gap cycles; sqtt.md §11).
// Sort through a QSortFilterProxyModel on SortRole.

#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "wavescope/trace/timeline/pc_stats.hpp"

namespace wavescope::gui {

class CaptureDocument;
struct Focus;
struct KernelCode;

// The statistics of one scope, as libtrace computes them.
struct TimingTable {
  QString scope;  // e.g. "r_32_32_16_2 · all 6 SEs"
  std::vector<trace::timeline::PcStat> rows;
  std::int64_t total_gap = 0;
  std::uint64_t total_hits = 0;
  std::int64_t total_exec = 0;
  std::int64_t total_barrier = 0;
  std::size_t waves = 0;  // mapped waves the rows come from
};

// The table for a navigator focus: kernel -> all its SEs, SE -> that SE, wave -> that wave's
// instruction stream (empty when the wave was not traced).
TimingTable timing_table_for(const CaptureDocument &document, const Focus &focus);

class InstructionTimingModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column {
    AddressColumn,
    InstructionColumn,
    HitsColumn,
    MeanGapColumn,
    MinGapColumn,
    MaxGapColumn,
    GapRangeColumn,
    StallColumn,    // mean stall per timed hit
    LatencyColumn,  // mean latency (stall + execution) per timed hit
    StallLatencyBarColumn,
    ExecColumn,
    BarrierColumn,
    CostColumn,
    ColumnCount
  };
  enum Role {
    SortRole = Qt::UserRole + 1,  // a number for numeric columns
    AddressRole,                  // quint64
    CategoryRole,                 // int compiler::isa::InstCategory (Other when unknown)
    CostShareRole,                // double: share of the scope's issue-gap cycles, in [0, 1]
    RelativeCostRole,             // double: cost relative to the costliest row, in [0, 1]
    GapRangeRole,                 // QVariantList {min, mean, max} scaled to [0, 1] (log)
    // QVariantList {stall, latency} means over the largest mean latency of the table, in
    // [0, 1]; none for a PC without timed hits (CDNA, wave ends).
    StallLatencyRole,
  };

  explicit InstructionTimingModel(QObject *parent = nullptr);
  // `code` (may be null, must outlive the model's use) colors instructions by category.
  void set_table(TimingTable table, const KernelCode *code = nullptr);
  const TimingTable &table() const { return table_; }

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  // The row of a PC, -1 if it was not hit in this scope.
  int row_of_pc(quint64 pc) const;

private:
  TimingTable table_;
  const KernelCode *code_ = nullptr;
  std::unordered_map<std::uint64_t, int> row_of_pc_;
  std::unordered_map<std::uint64_t, int> category_of_pc_;
  std::int64_t max_gap_total_ = 0;
  std::int64_t max_gap_ = 0;
  double max_latency_mean_ = 0;
};

}  // namespace wavescope::gui
