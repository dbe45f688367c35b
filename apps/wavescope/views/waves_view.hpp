#pragma once
// The waves view: the wave timeline of one shader engine of the focused kernel (an SE chooser,
// the color legend, the timeline, and an inspector for the selected bar, wave or measured
// range). Focusing a kernel shows its most informative SE; focusing an SE or a wave in the
// navigator shows that one (a wave is outlined and zoomed to). Selecting a bar selects its
// instruction everywhere; an instruction selected elsewhere is marked and its first occurrence
// selected here.

#include <QWidget>

#include "app/selection.hpp"

class QComboBox;
class QLabel;
class QTextBrowser;

namespace wavescope::gui {

class CaptureDocument;
class TimelineLegend;
class WaveTimelineModel;
class WaveTimelineWidget;
class Workspace;
struct TimelineEventRef;

class WavesView : public QWidget {
  Q_OBJECT
public:
  WavesView(Workspace &workspace, Selection &selection, QWidget *parent = nullptr);

  WaveTimelineWidget &timeline() { return *timeline_; }
  WaveTimelineModel &model() { return *model_; }
  QString inspector_text() const;

private:
  void on_focus(const Focus &focus);
  void on_pc_selected(quint64 pc);
  void on_event_selected(const TimelineEventRef &ref);
  void show_engine(const CaptureDocument *document, int kernel, int engine);
  void update_inspector();
  QString summary_html() const;
  QString event_html(const TimelineEventRef &ref) const;
  QString measure_html() const;

  Workspace &workspace_;
  Selection &selection_;
  WaveTimelineModel *model_;
  WaveTimelineWidget *timeline_;
  TimelineLegend *legend_;
  QLabel *title_;
  QComboBox *engines_;
  QTextBrowser *inspector_;
  const CaptureDocument *document_ = nullptr;
  int document_index_ = -1, kernel_ = -1, engine_ = -1;
  bool linking_ = false;  // a PC selection is being passed on
};

}  // namespace wavescope::gui
