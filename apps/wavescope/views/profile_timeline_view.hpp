#pragma once
// The `timeline` view: the profile timeline of the focused document (a profile, or a capture
// read from a tinygrad profile), with an inspector for the selected span (its fields, rates and,
// for host spans, the Python stack; for kernel runs, the buffers they used, each a link to the
// memory view) or the selected range (its duration and the spans in it). A span or moment selected
// elsewhere (a buffer's user in the memory view) is selected here.
// Ctrl+P finds a track by name.

#include <QWidget>

#include <cstdint>

class QLabel;
class QLineEdit;
class QTextBrowser;
class QUrl;

namespace wavescope::gui {

class ProfileTimelineWidget;
class ProfileTrackModel;
class Selection;
class Workspace;
struct Focus;
struct ProfileItem;

class ProfileTimelineView : public QWidget {
  Q_OBJECT
public:
  ProfileTimelineView(Workspace &workspace, Selection &selection, QWidget *parent = nullptr);

  ProfileTimelineWidget &timeline() { return *timeline_; }
  ProfileTrackModel &tracks() { return *tracks_; }
  // The document shown, -1 when none.
  int document() const { return document_; }
  // The inspector's text (tests).
  QString inspector_text() const;
  // Opens the track finder (Ctrl+P).
  void find_track();

private:
  void show_document(int index);
  void on_focus(const Focus &focus);
  void on_profile_item(const ProfileItem &item);
  void on_link(const QUrl &url);
  void publish_span(int track, int span);
  void inspect_span(int track, int span);
  void inspect_range(double t0, double t1);
  void inspect_profile();
  void inspect_moment(qint64 time);
  QString buffers_html(std::uint64_t run) const;

  Workspace &workspace_;
  Selection &selection_;
  ProfileTrackModel *tracks_;
  ProfileTimelineWidget *timeline_;
  QLabel *header_;
  QTextBrowser *inspector_;
  QLineEdit *finder_;
  int document_ = -1;
};

}  // namespace wavescope::gui
