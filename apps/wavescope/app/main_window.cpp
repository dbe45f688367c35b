#include "app/main_window.hpp"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "app/flash_controller.hpp"
#include "app/report_export.hpp"
#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "models/navigator_model.hpp"
#include "models/search_model.hpp"
#include "views/cfg_view.hpp"
#include "views/counters_view.hpp"
#include "views/flash_view.hpp"
#include "views/isa_view.hpp"
#include "views/memory_view.hpp"
#include "views/profile_timeline_view.hpp"
#include "views/quick_open.hpp"
#include "views/rewrite_view.hpp"
#include "views/timing_view.hpp"
#include "views/waves_view.hpp"
#include "wavescope/base/version.hpp"
#include "wavescope/compiler/isa/gpu_target.hpp"

// The demo and icons are compiled into wavescope_gui, a static library: register them explicitly.
static void init_wavescope_resources() { Q_INIT_RESOURCE(wavescope); }

namespace wavescope::gui {
namespace {
constexpr int kMaxRecent = 10;

// Copies a file embedded in the binary to `name` (a relative path) in this run's temporary
// folder (the libraries read files); returns its path, or an empty string when the build lacks it.
QString unpack_demo_file(const QString &resource, const QString &name) {
  static QTemporaryDir unpacked;
  const QString target = unpacked.path() + QStringLiteral("/") + name;
  if (QFileInfo::exists(target)) return target;
  if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(resource, target)) return {};
  return target;
}

// Unpacks an embedded folder; returns its path, or an empty string when the build lacks it.
QString unpack_demo_folder(const QString &name) {
  const QString source = QStringLiteral(":/demo/") + name;
  const QStringList files = QDir(source).entryList(QDir::Files);
  if (files.isEmpty()) return {};
  for (const QString &file : files)
    if (unpack_demo_file(source + QStringLiteral("/") + file, name + QStringLiteral("/") + file)
            .isEmpty())
      return {};
  return QFileInfo(unpack_demo_file(source + QStringLiteral("/") + files.front(),
                                    name + QStringLiteral("/") + files.front()))
      .path();
}
}  // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), workspace_(new Workspace(this)), selection_(new Selection(this)),
      navigator_model_(new NavigatorModel(this)),
      navigator_filter_(new QSortFilterProxyModel(this)), navigator_view_(new QTreeView(this)),
      navigator_search_(new QLineEdit(this)), tabs_(new QTabWidget(this)) {
  init_wavescope_resources();
  setWindowTitle(tr("wavescope"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/wavescope.svg")));
  setAcceptDrops(true);
  resize(1600, 1000);

  tabs_->setDocumentMode(true);
  link_bar_ = new QLabel(this);
  link_bar_->setTextFormat(Qt::RichText);
  link_bar_->setContentsMargins(8, 2, 8, 2);
  link_bar_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
  link_bar_->hide();
  auto *central = new QWidget(this);
  auto *central_layout = new QVBoxLayout(central);
  central_layout->setContentsMargins(0, 0, 0, 0);
  central_layout->setSpacing(0);
  central_layout->addWidget(tabs_, 1);
  central_layout->addWidget(link_bar_);
  setCentralWidget(central);
  connect(link_bar_, &QLabel::linkActivated, this, [this](const QString &link) {
    const int i = link.mid(5).toInt();
    if (link.startsWith(QStringLiteral("link:")) && i >= 0 && i < static_cast<int>(links_.size()))
      go_to(links_[static_cast<std::size_t>(i)].target);
  });
  add_view(QStringLiteral("waves"), tr("Waves"), new WavesView(*workspace_, *selection_, this));
  add_view(QStringLiteral("timing"), tr("Timing"), new TimingView(*workspace_, *selection_, this));
  add_view(QStringLiteral("isa"), tr("ISA"), new IsaView(*workspace_, *selection_, this));
  add_view(QStringLiteral("cfg"), tr("CFG"), new CfgView(*workspace_, *selection_, this));
  add_view(QStringLiteral("counters"), tr("Counters"),
           new CountersView(*workspace_, *selection_, this));
  add_view(QStringLiteral("rewrite"), tr("Rewrites"),
           new RewriteView(*workspace_, *selection_, this));
  add_view(QStringLiteral("timeline"), tr("Timeline"),
           new ProfileTimelineView(*workspace_, *selection_, this));
  add_view(QStringLiteral("memory"), tr("Memory"), new MemoryView(*workspace_, *selection_, this));
  flash_ = new FlashView(this);
  add_view(QStringLiteral("flash"), tr("Flash"), flash_);
  connect(selection_, &Selection::reveal_requested, this,
          [this](const QString &view) { show_view(view); });

  // Navigator: a filterable tree; selecting an item moves the focus.
  navigator_filter_->setSourceModel(navigator_model_);
  navigator_filter_->setRecursiveFilteringEnabled(true);
  navigator_filter_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  navigator_view_->setModel(navigator_filter_);
  navigator_view_->setHeaderHidden(true);
  navigator_view_->setUniformRowHeights(true);
  navigator_search_->setPlaceholderText(tr("Filter"));
  navigator_search_->setClearButtonEnabled(true);
  connect(navigator_search_, &QLineEdit::textChanged, navigator_filter_,
          &QSortFilterProxyModel::setFilterFixedString);
  connect(navigator_view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex &current) {
            if (current.isValid())
              selection_->set_focus(current.data(NavigatorModel::FocusRole).value<Focus>());
          });
  auto *navigator = new QWidget(this);
  auto *navigator_layout = new QVBoxLayout(navigator);
  navigator_layout->setContentsMargins(2, 2, 2, 2);
  navigator_layout->addWidget(navigator_search_);
  navigator_layout->addWidget(navigator_view_);
  auto *navigator_dock = new QDockWidget(tr("Navigator"), this);
  navigator_dock->setObjectName(QStringLiteral("navigator"));
  navigator_dock->setWidget(navigator);
  addDockWidget(Qt::LeftDockWidgetArea, navigator_dock);
  resizeDocks({navigator_dock}, {300}, Qt::Horizontal);

  connect(workspace_, &Workspace::document_added, this, &MainWindow::on_document_added);
  connect(workspace_, &Workspace::open_failed, this, &MainWindow::report_error);
  connect(workspace_, &Workspace::open_cancelled, this, [this](const QString &path) {
    show_progress(workspace_->busy());
    statusBar()->showMessage(tr("Stopped opening %1").arg(path), 5000);
  });
  connect(workspace_, &Workspace::progress, this, &MainWindow::on_progress);
  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(220);
  progress_->setMaximumHeight(14);
  progress_->setTextVisible(false);
  progress_->hide();
  statusBar()->addPermanentWidget(progress_);
  cancel_open_ = new QToolButton(this);
  cancel_open_->setText(tr("Cancel"));
  cancel_open_->setToolTip(tr("Stop opening the files still loading"));
  cancel_open_->setAutoRaise(true);
  cancel_open_->hide();
  connect(cancel_open_, &QToolButton::clicked, workspace_, &Workspace::cancel_pending);
  statusBar()->addPermanentWidget(cancel_open_);
  connect(selection_, &Selection::focus_changed, this, &MainWindow::on_focus_changed);

  link_model_ = new SearchModel(this);
  connect(selection_, &Selection::profile_item_selected, this, [this] { update_links(false); });
  commands_ = new CommandModel(this);
  search_ = new SearchModel(this);
  quick_open_ = new QuickOpen(this);
  connect(quick_open_, &QuickOpen::chosen, this, [this](int row) {
    if (chooser_ == Chooser::Palette && row >= 0 && row < commands_->rowCount())
      commands_->command(row).run();
    else if (chooser_ == Chooser::Finder && row >= 0 && row < search_->rowCount())
      go_to(search_->entry(row).target);
    else if (chooser_ == Chooser::Links && row >= 0 && row < link_model_->rowCount())
      go_to(link_model_->entry(row).target);
    chooser_ = Chooser::None;
  });
  connect(workspace_, &Workspace::document_added, this, [this] { search_stale_ = true; });

  build_menus();
  statusBar()->showMessage(
      tr("Open a code object, capture folder, tinygrad profile.pkl or rewrites.pkl, rewrite "
         "trace or symbolic case file (Ctrl+O)"));
}

MainWindow::~MainWindow() {
  // A rewrite graph laid out on a worker reads its document: the workspace, the first child, is
  // deleted before the views (and their loaders, which would wait too late), so wait here.
  for (const auto &[name, widget] : views_)
    if (auto *rewrite = qobject_cast<RewriteView *>(widget)) rewrite->join_layout();
}

void MainWindow::add_view(const QString &name, const QString &title, QWidget *widget) {
  widget->setObjectName(name);
  tabs_->addTab(widget, title);
  views_.emplace_back(name, widget);
}

void MainWindow::export_focused_reports() {
  const Document *document = workspace_->document(selection_->focus().document);
  if (!document) {
    statusBar()->showMessage(tr("Nothing to export: open and select a file first"), 5000);
    return;
  }
  const QString folder = QFileDialog::getExistingDirectory(this, tr("Export reports to"));
  if (folder.isEmpty()) return;
  try {
    const auto written = export_reports(*document, folder, open_options_.target);
    statusBar()->showMessage(
        written.empty() ? tr("%1 has no JSON report").arg(document->title)
                        : tr("Wrote %n report(s) to %1", nullptr, int(written.size())).arg(folder),
        5000);
  } catch (const Error &e) {
    report_error(document->path, QString::fromStdString(e.what()));
  }
}

void MainWindow::build_menus() {
  QMenu *file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open File…"), QKeySequence::Open, this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open"), {},
                                     tr("Code objects, profiles, traces and symbolic cases (*.elf "
                                        "*.hsaco *.co *.pkl *.pkl.* *.rgp *.json *.jsonl);;All "
                                        "files (*)"));
    if (!path.isEmpty()) open_path(path);
  });
  file->addAction(tr("Open &Folder…"), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open capture folder"));
    if (!path.isEmpty()) open_path(path);
  });
  file->addAction(tr("Open &Demo"), this, [this] { open_demo(); });
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  rebuild_recent_menu();
  file->addSeparator();
  file->addAction(tr("&Export Reports as JSON…"), QKeySequence(tr("Ctrl+Shift+E")), this,
                  [this] { export_focused_reports(); });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

  QMenu *go = menuBar()->addMenu(tr("&Go"));
  go->addAction(tr("&Back"), QKeySequence::Back, selection_, &Selection::back);
  go->addAction(tr("&Forward"), QKeySequence::Forward, selection_, &Selection::forward);
  go->addAction(tr("&Filter Navigator"), QKeySequence(tr("Ctrl+L")), this, [this] {
    navigator_search_->setFocus();
    navigator_search_->selectAll();
  });
  go->addSeparator();
  go->addAction(tr("Find &Anything…"), QKeySequence(tr("Ctrl+K")), this, &MainWindow::open_finder);
  go->addAction(tr("&Command Palette…"), QKeySequence(tr("Ctrl+Shift+P")), this,
                &MainWindow::open_command_palette);
  go->addAction(tr("Follow &Link…"), QKeySequence(tr("Ctrl+J")), this, &MainWindow::open_links);

  QMenu *view = menuBar()->addMenu(tr("&View"));
  for (std::size_t i = 0; i < views_.size(); ++i) {
    const QString name = views_[i].first;
    view->addAction(tabs_->tabText(static_cast<int>(i)),
                    QKeySequence(QStringLiteral("Alt+%1").arg(i + 1)), this,
                    [this, name] { show_view(name); });
  }

  QMenu *help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About wavescope"), this, [this] {
    QMessageBox::about(this, tr("About wavescope"),
                       tr("<h3>wavescope %1</h3><p>Bring-up, debug and profiling of AMD GPUs.</p>"
                          "<p>Qt %2 (built with %3)<br>LLVM %4</p>")
                           .arg(QString::fromUtf8(kVersion), QString::fromUtf8(qVersion()),
                                QStringLiteral(QT_VERSION_STR),
                                QString::fromStdString(compiler::isa::llvm_version())));
  });
}

void MainWindow::open_command_palette() {
  std::vector<Command> commands = commands_of(*menuBar());
  // The palette does not list itself.
  std::erase_if(commands, [](const Command &c) {
    return c.name.endsWith(QStringLiteral("Command Palette…"));
  });
  commands_->set_commands(std::move(commands));
  chooser_ = Chooser::Palette;
  quick_open_->open(commands_, tr("Command palette — every action and view"),
                    tr("Type a command (Enter runs it, Esc closes)"));
}

void MainWindow::open_finder() {
  if (search_stale_) {
    search_->rebuild(*workspace_);
    search_stale_ = false;
  }
  chooser_ = Chooser::Finder;
  quick_open_->open(search_,
                    tr("Find — %1 kernels, tracks, spans, runs, buffers, PCs and rewrite passes")
                        .arg(search_->rowCount()),
                    tr("Type a name, an address (0x…) or a kernel (Enter goes there)"));
}

void MainWindow::update_links(bool from_focus) {
  links_ = from_focus ? links_of_focus(*workspace_, selection_->focus())
                      : links_of_item(*workspace_, selection_->profile_item());
  if (!from_focus && links_.empty() && selection_->profile_item().document < 0)
    links_ = links_of_focus(*workspace_, selection_->focus());
  QStringList parts;
  for (std::size_t i = 0; i < links_.size() && i < 12; ++i)
    parts << QStringLiteral("<a href='link:%1' style='color:#4fa3ff;text-decoration:none'>%2</a>")
                 .arg(i)
                 .arg(links_[i].label.toHtmlEscaped());
  link_bar_->setText(tr("<span style='color:#8a919e'>Linked (Ctrl+J):</span> %1")
                         .arg(parts.join(QStringLiteral(" &nbsp;·&nbsp; "))));
  link_bar_->setVisible(!links_.empty());
}

void MainWindow::open_links() {
  std::vector<SearchEntry> entries;
  for (const Link &l : links_) entries.push_back({l.kind, l.label, {}, l.target});
  link_model_->set_entries(std::move(entries));
  chooser_ = Chooser::Links;
  quick_open_->open(link_model_, tr("Follow a link of the selection"),
                    tr("ISA, CFG, rewrite context or run (Enter follows)"));
}

void MainWindow::go_to(const Target &target) {
  if (target.focus) selection_->set_focus(*target.focus);
  if (target.pc) selection_->select_pc(*target.pc);
  if (target.item) selection_->select_profile_item(*target.item);
  if (!target.view.isEmpty()) show_view(target.view);
  // The links of where we went (the selection may not have changed, e.g. the same kernel).
  update_links(!target.item);
}

void MainWindow::open_path(const QString &path) {
  // The first document of a batch of opens takes the focus; the rest are listed after it.
  if (!workspace_->busy()) focus_next_document_ = true;
  statusBar()->showMessage(tr("Opening %1…").arg(path));
  if (!path.startsWith(QDir::tempPath())) remember_recent(path);
  workspace_->open(path, open_options_);
  show_progress(true);
}

void MainWindow::open_demo() {
  // The demo captures and rewrite trace ship inside the binary; the libraries read files, so
  // unpack them once per run. Documents are added in the order they are opened and the first
  // takes the focus: the gemm capture (many waves), then sync (barriers), then the trace.
  for (const QString &name : {QStringLiteral("gfx1100-gemm"), QStringLiteral("gfx1100-sync")}) {
    const QString folder = unpack_demo_folder(name);
    if (folder.isEmpty()) {
      report_error(QStringLiteral("demo"), tr("the embedded demo data is missing from this build"));
      return;
    }
    open_path(folder);
  }
  const QString trace = unpack_demo_file(QStringLiteral(":/demo/rewrite/demo-rewrites.json"),
                                         QStringLiteral("rewrite/demo-rewrites.json"));
  if (trace.isEmpty())
    report_error(QStringLiteral("demo"), tr("the embedded demo rewrite trace is missing"));
  else
    open_path(trace);
  // A tinygrad profile (CPU, no SQTT) for the timeline and memory views: tinygrad-viz's
  // matmul_relu_sum workload.
  const QString profile =
      unpack_demo_file(QStringLiteral(":/demo/profile/matmul_relu_sum-profile.pkl"),
                       QStringLiteral("profile/matmul_relu_sum/profile.pkl"));
  if (profile.isEmpty())
    report_error(QStringLiteral("demo"), tr("the embedded demo profile is missing"));
  else
    open_path(profile);
}

void MainWindow::wait_until_idle() {
  workspace_->wait_until_idle();
  flash_->controller().wait();
  // A rewrite graph being laid out in the background (e.g. of the item --select chose).
  for (const auto &[name, widget] : views_)
    if (auto *rewrite = qobject_cast<RewriteView *>(widget)) rewrite->wait_for_layout();
}

void MainWindow::open_flash_device(const QString &spec, const QString &sim_root) {
  if (!sim_root.isEmpty()) flash_->controller().set_sim_root(sim_root);
  flash_->controller().refresh_devices();
  flash_->open_device(spec);
}

QStringList MainWindow::view_names() const {
  QStringList names;
  for (const auto &[name, widget] : views_) names << name;
  return names;
}

bool MainWindow::show_view(const QString &name) {
  for (const auto &[view_name, widget] : views_) {
    if (view_name != name) continue;
    tabs_->setCurrentWidget(widget);
    return true;
  }
  return false;
}

bool MainWindow::select_item(const QString &name) {
  const QModelIndexList found =
      navigator_filter_->match(navigator_filter_->index(0, 0), Qt::DisplayRole, name, 1,
                               Qt::MatchStartsWith | Qt::MatchRecursive | Qt::MatchWrap);
  if (found.isEmpty()) return false;
  navigator_view_->scrollTo(found.front());
  navigator_view_->setCurrentIndex(found.front());
  return true;
}

QString MainWindow::current_view() const {
  const int i = tabs_->currentIndex();
  return i >= 0 && i < static_cast<int>(views_.size()) ? views_[static_cast<std::size_t>(i)].first
                                                       : QString();
}

void MainWindow::on_document_added(int index) {
  const Document *document = workspace_->document(index);
  const QModelIndex root = navigator_model_->add_document(*document, index);
  statusBar()->showMessage(tr("Opened %1").arg(document->path), 5000);
  show_progress(workspace_->busy());
  if (!focus_next_document_) return;
  focus_next_document_ = false;
  // Focus the document's first child (its first kernel), else the document itself; a capture
  // opens on its waves, a code object on its disassembly, a profile on its timeline, a rewrite
  // trace (or symbolic cases) on its graph.
  const QModelIndex first = navigator_model_->index(0, 0, root);
  selection_->set_focus(
      (first.isValid() ? first : root).data(NavigatorModel::FocusRole).value<Focus>());
  navigator_view_->expand(navigator_filter_->mapFromSource(root));
  const QString current = views_[static_cast<std::size_t>(tabs_->currentIndex())].first;
  const bool capture_view = current == "waves" || current == "timing" || current == "counters";
  if (document->kind() == DocumentKind::CodeObject && capture_view)
    show_view(QStringLiteral("isa"));
  if (document->kind() == DocumentKind::Capture && !capture_view)
    show_view(QStringLiteral("waves"));
  if (document->kind() == DocumentKind::Profile) show_view(QStringLiteral("timeline"));
  if (document->kind() == DocumentKind::RewriteTrace ||
      document->kind() == DocumentKind::SymbolicCases)
    show_view(QStringLiteral("rewrite"));
}

void MainWindow::on_focus_changed(const Focus &focus) {
  update_links(true);
  // Keep the navigator's current item in step with back/forward.
  const QModelIndex source = navigator_model_->index_of(focus);
  const QModelIndex proxy = navigator_filter_->mapFromSource(source);
  if (proxy.isValid() && navigator_view_->currentIndex() != proxy) {
    navigator_view_->expand(proxy.parent());
    navigator_view_->setCurrentIndex(proxy);
  }
}

void MainWindow::on_progress(const QString &path, const QString &stage, quint64 done,
                             quint64 total) {
  show_progress(workspace_->busy());
  // Bytes can exceed int: show permille.
  progress_->setRange(0, total ? 1000 : 0);
  progress_->setValue(total ? static_cast<int>(done * 1000 / total) : 0);
  statusBar()->showMessage(tr("Opening %1: %2…").arg(QFileInfo(path).fileName(), stage));
}

void MainWindow::show_progress(bool visible) {
  progress_->setVisible(visible);
  cancel_open_->setVisible(visible);
}

void MainWindow::report_error(const QString &path, const QString &message) {
  show_progress(workspace_->busy());
  errors_ << message;
  statusBar()->showMessage(message);
  if (interactive_) QMessageBox::warning(this, tr("Cannot open %1").arg(path), message);
}

void MainWindow::remember_recent(const QString &path) {
  QSettings settings;
  QStringList recent = settings.value(QStringLiteral("recent")).toStringList();
  recent.removeAll(path);
  recent.prepend(path);
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue(QStringLiteral("recent"), recent);
  rebuild_recent_menu();
}

void MainWindow::rebuild_recent_menu() {
  recent_menu_->clear();
  const QStringList recent = QSettings().value(QStringLiteral("recent")).toStringList();
  for (const QString &path : recent)
    recent_menu_->addAction(path, this, [this, path] { open_path(path); });
  recent_menu_->setEnabled(!recent.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event) {
  for (const QUrl &url : event->mimeData()->urls())
    if (url.isLocalFile()) open_path(url.toLocalFile());
}

}  // namespace wavescope::gui
