#pragma once
// The main window: the navigator dock (filterable tree of what is open, back/forward history),
// the views as tabs, File/Go/View/Help menus, recent files, drag and drop.

#include <QMainWindow>
#include <QStringList>

#include "app/document_loader.hpp"
#include "models/links.hpp"

#include <utility>
#include <vector>

class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QToolButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTreeView;

namespace wavescope::gui {

class CommandModel;
class FlashView;
class NavigatorModel;
class QuickOpen;
class SearchModel;
class Selection;
class Workspace;
struct Focus;
struct Target;
struct Link;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit MainWindow(QWidget *parent = nullptr);
  ~MainWindow() override;

  // Opens a file or capture folder in the background; failures are collected in errors().
  void open_path(const QString &path);
  // Options for the opens that follow (e.g. --target from the command line).
  void set_open_options(const OpenOptions &options) { open_options_ = options; }
  // Opens the demo data embedded in the app.
  void open_demo();
  // Runs the event loop until every pending open (and rewrite graph layout) has finished.
  void wait_until_idle();

  // The names --view accepts, in tab order.
  QStringList view_names() const;
  // Makes the named view current; false if there is no such view.
  bool show_view(const QString &name);
  // The name of the view shown.
  QString current_view() const;
  // Selects the first navigator item (depth first) whose text starts with `name`, as a click
  // would (e.g. "View Source" after a kernel's linearize/render); false if there is none.
  bool select_item(const QString &name);
  // Errors reported by opens since start (also shown in a dialog in interactive use).
  const QStringList &errors() const { return errors_; }
  // When false (screenshot mode), errors are collected without dialogs.
  void set_interactive(bool interactive) { interactive_ = interactive; }

  // The command palette (Ctrl+Shift+P): every action of the menus, by menu path.
  void open_command_palette();
  // The finder (Ctrl+K): every kernel, track, span, run, buffer, PC and rewrite pass open.
  void open_finder();
  // The links of the current selection (shown under the views; Ctrl+J chooses one).
  const std::vector<Link> &links() const { return links_; }
  void open_links();
  // Goes where a search hit or link leads: focus, profile item, PC, then the view.
  void go_to(const Target &target);
  QuickOpen &quick_open() { return *quick_open_; }
  CommandModel &commands() { return *commands_; }
  SearchModel &search() { return *search_; }

  // The flash recovery panel; `--device SPEC [--sim-root DIR]` select and probe a board there.
  FlashView &flash() { return *flash_; }
  void open_flash_device(const QString &spec, const QString &sim_root = {});

  Workspace &workspace() { return *workspace_; }
  Selection &selection() { return *selection_; }
  NavigatorModel &navigator() { return *navigator_model_; }

protected:
  void dragEnterEvent(QDragEnterEvent *event) override;
  void dropEvent(QDropEvent *event) override;

private:
  void build_menus();
  // File ▸ Export Reports as JSON: the focused document's reports as wavectl prints them.
  void export_focused_reports();
  void add_view(const QString &name, const QString &title, QWidget *widget);
  void on_document_added(int index);
  void on_focus_changed(const Focus &focus);
  void on_progress(const QString &path, const QString &stage, quint64 done, quint64 total);
  void report_error(const QString &path, const QString &message);
  void show_progress(bool visible);
  void remember_recent(const QString &path);
  void rebuild_recent_menu();

  Workspace *workspace_;
  Selection *selection_;
  NavigatorModel *navigator_model_;
  QSortFilterProxyModel *navigator_filter_;
  QTreeView *navigator_view_;
  QLineEdit *navigator_search_;
  QTabWidget *tabs_;
  FlashView *flash_ = nullptr;
  QMenu *recent_menu_ = nullptr;
  QProgressBar *progress_ = nullptr;
  QToolButton *cancel_open_ = nullptr;  // beside progress_: stops the pending opens
  bool focus_next_document_ = true;
  std::vector<std::pair<QString, QWidget *>> views_;
  QStringList errors_;
  bool interactive_ = true;
  OpenOptions open_options_;
  void update_links(bool from_focus);
  QLabel *link_bar_ = nullptr;
  std::vector<Link> links_;
  SearchModel *link_model_ = nullptr;
  QuickOpen *quick_open_ = nullptr;
  CommandModel *commands_ = nullptr;
  SearchModel *search_ = nullptr;
  bool search_stale_ = true;
  enum class Chooser { None, Palette, Finder, Links };
  Chooser chooser_ = Chooser::None;
};

}  // namespace wavescope::gui
