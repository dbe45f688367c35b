#pragma once
// The `memory` view: the memory graph of the focused profile (every device's stacked buffer
// lifetimes with a byte axis and the peak), the list of buffers, and an inspector for the selected
// buffer: dtype, length, size, lifetime and the kernel runs that read or wrote it. A run is a link:
// it selects the run's kernel span in the timeline (or, when the device recorded no span, the
// moment it ran).

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTextBrowser;
class QTreeView;
class QUrl;

namespace wavescope::gui {

class MemoryGraphWidget;
class MemoryModel;
class Selection;
class Workspace;
struct Focus;
struct ProfileItem;

class MemoryView : public QWidget {
  Q_OBJECT
public:
  MemoryView(Workspace &workspace, Selection &selection, QWidget *parent = nullptr);

  MemoryGraphWidget &graph() { return *graph_; }
  MemoryModel &model() { return *model_; }
  int document() const { return document_; }
  QString inspector_text() const;
  // Follows the inspector's n-th user link of the selected buffer (what a click does).
  void open_user(int user);

private:
  void show_document(int index);
  void on_focus(const Focus &focus);
  void on_profile_item(const ProfileItem &item);
  void on_buffer_selected(int track, int buffer);
  void on_link(const QUrl &url);
  void inspect_buffer(int track, int buffer);
  void inspect_profile();

  Workspace &workspace_;
  Selection &selection_;
  MemoryModel *model_;
  QSortFilterProxyModel *sorted_;
  MemoryGraphWidget *graph_;
  QLabel *header_;
  QTextBrowser *inspector_;
  QTreeView *buffers_;
  int document_ = -1;
};

}  // namespace wavescope::gui
