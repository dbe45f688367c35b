#pragma once
// The records of one pass as a table: row 0 the input graph, row k step k with its rule, where the
// rule is written and the time it took. The rewrite view's step list (tinygrad VIZ shows numbered
// chips; a table names each rule).

#include <QAbstractTableModel>

namespace wavescope::compiler::rewrite {
struct TraceRewrite;
}

namespace wavescope::gui {

class RewriteStepsModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { IndexColumn, RuleColumn, LocationColumn, TimeColumn, ColumnCount };

  using QAbstractTableModel::QAbstractTableModel;

  // Shows the records of `pass` (nullptr: none). The pass must outlive the model's use of it.
  void set_pass(const compiler::rewrite::TraceRewrite *pass);
  const compiler::rewrite::TraceRewrite *pass() const { return pass_; }

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

private:
  const compiler::rewrite::TraceRewrite *pass_ = nullptr;
};

}  // namespace wavescope::gui
