#pragma once
// The details of the graph node clicked in the rewrite view, as property/value rows: op, dtype,
// arg, value interval, the expression it computes, its sources and consumers, what this step did
// to it, and its id in the trace's node table.

#include <QAbstractTableModel>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "models/rewrite_graph.hpp"

namespace wavescope::gui {

class RewriteNodeModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { PropertyColumn, ValueColumn, ColumnCount };

  using QAbstractTableModel::QAbstractTableModel;

  struct NodeFacts {
    compiler::UOp node;
    RewriteNodeMark mark = RewriteNodeMark::Unchanged;
    int consumers = 0;                      // in the record's graph
    std::optional<std::uint64_t> trace_id;  // in the trace's node table
  };
  // Shows a node (a null node clears the table).
  void set_node(const NodeFacts &facts);
  // The value of a property row by name ("op", "interval", ...), or an empty string.
  QString value(const QString &property) const;

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  std::vector<std::pair<QString, QString>> rows_;
};

// What a mark means, in words ("created by this step", ...).
QString mark_description(RewriteNodeMark mark);

}  // namespace wavescope::gui
