#pragma once
// The counters view: the PMC table of the focused kernel (counter -> instance rows, derived
// metrics) above the shader-clock chart of its SEs.

#include <QWidget>

#include "app/selection.hpp"

class QComboBox;
class QLabel;
class QSortFilterProxyModel;
class QTreeView;

namespace wavescope::gui {

class CaptureDocument;
class ClockChart;
class CountersModel;
class Workspace;

class CountersView : public QWidget {
  Q_OBJECT
public:
  CountersView(Workspace &workspace, Selection &selection, QWidget *parent = nullptr);
  CountersModel &model() { return *model_; }
  ClockChart &chart() { return *chart_; }

private:
  void on_focus(const Focus &focus);
  void show_sample(int index);

  Workspace &workspace_;
  Selection &selection_;
  CountersModel *model_;
  QSortFilterProxyModel *proxy_;
  QTreeView *tree_;
  ClockChart *chart_;
  QLabel *title_;
  QLabel *notes_;
  QComboBox *samples_;
  const CaptureDocument *document_ = nullptr;
  int kernel_ = -1;
  int highlight_ = -1;  // the SE drawn bold in the chart
};

}  // namespace wavescope::gui
