#pragma once
// The main window: the navigator dock, the views as tabs, File/View/Help menus, recent files,
// drag and drop. Documents load outside the GUI thread.

#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <map>
#include <memory>
#include <vector>

class QTabWidget;
class QTreeView;
class QMenu;

namespace wavescope::gui {

struct CodeObjectDocument;
class NavigatorModel;
class Selection;
class IsaView;
class CfgView;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit MainWindow(QWidget *parent = nullptr);
  ~MainWindow() override;

  // Opens a file or capture folder in the background; errors are reported via open_failed.
  void open_path(const QString &path);
  // Opens the demo data embedded in the app.
  void open_demo();
  // Runs the event loop until every pending open has finished.
  void wait_until_idle();

  // The names --view accepts, in tab order.
  QStringList view_names() const;
  // Makes the named view current; false if there is no such view.
  bool show_view(const QString &name);
  // Errors reported by opens since start (also shown to the user in interactive use).
  const QStringList &errors() const { return errors_; }
  // When false (screenshot mode), errors are collected without dialogs.
  void set_interactive(bool interactive) { interactive_ = interactive; }

  NavigatorModel &navigator() { return *navigator_model_; }

signals:
  void document_opened(const QString &path);
  void open_failed(const QString &path, const QString &message);

protected:
  void dragEnterEvent(QDragEnterEvent *event) override;
  void dropEvent(QDropEvent *event) override;

private:
  void build_menus();
  void add_view(const QString &name, const QString &title, QWidget *widget);
  void add_code_object(std::shared_ptr<CodeObjectDocument> document);
  void show_navigator_item(const QModelIndex &index);
  void report_error(const QString &path, const QString &message);
  void remember_recent(const QString &path);
  void rebuild_recent_menu();

  Selection *selection_;
  NavigatorModel *navigator_model_;
  QTreeView *navigator_view_;
  QTabWidget *tabs_;
  QMenu *recent_menu_ = nullptr;
  IsaView *isa_view_;
  CfgView *cfg_view_;
  std::vector<std::pair<QString, QWidget *>> views_;
  std::vector<std::shared_ptr<CodeObjectDocument>> code_objects_;
  QStringList errors_;
  int pending_ = 0;
  bool interactive_ = true;
};

}  // namespace wavescope::gui
