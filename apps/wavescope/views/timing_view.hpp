#pragma once
// The timing view: the instruction-timing table of the focused scope (kernel, SE or wave),
// sortable by any column, filterable by instruction text, with a latency bar and a cost bar per
// row. Selecting a row selects the instruction everywhere; an instruction selected elsewhere is
// selected here.

#include <QWidget>

#include "app/selection.hpp"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace wavescope::gui {

class InstructionTimingModel;
class Workspace;

class TimingView : public QWidget {
  Q_OBJECT
public:
  TimingView(Workspace &workspace, Selection &selection, QWidget *parent = nullptr);
  InstructionTimingModel &model() { return *model_; }
  QSortFilterProxyModel &proxy() { return *proxy_; }
  QTableView &table() { return *table_; }
  void set_filter(const QString &text);

private:
  void on_focus(const Focus &focus);
  void on_pc_selected(quint64 pc);

  Workspace &workspace_;
  Selection &selection_;
  InstructionTimingModel *model_;
  QSortFilterProxyModel *proxy_;
  QTableView *table_;
  QLabel *title_;
  QLabel *totals_;
  QLineEdit *filter_;
};

}  // namespace wavescope::gui
