#include "app/main_window.hpp"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QIcon>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtConcurrent/QtConcurrentRun>

#include "app/documents.hpp"
#include "app/selection.hpp"
#include "models/navigator_model.hpp"
#include "views/cfg_view.hpp"
#include "views/isa_view.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/version.hpp"
#include "wavescope/compiler/isa/gpu_target.hpp"

// The demo and icons are compiled into wavescope_gui, a static library: register them explicitly.
static void init_wavescope_resources() { Q_INIT_RESOURCE(wavescope); }

namespace wavescope::gui {
namespace {

constexpr int kMaxRecent = 10;

// A load result: the document or the message of what went wrong.
struct Loaded {
  std::shared_ptr<CodeObjectDocument> code_object;
  QString error;
};

Loaded load_in_background(const QString &path) {
  try {
    switch (detect_document_kind(path)) {
    case DocumentKind::CodeObject: return {load_code_object(path), {}};
    case DocumentKind::Capture:
      return {nullptr, QObject::tr("%1: opening capture folders is not supported yet").arg(path)};
    case DocumentKind::RewriteTrace:
      return {nullptr, QObject::tr("%1: opening rewrite traces is not supported yet").arg(path)};
    case DocumentKind::Unknown: break;
    }
    return {nullptr, QObject::tr("%1: not a code object, capture folder or rewrite trace")
                         .arg(path)};
  } catch (const std::exception &e) {
    return {nullptr, QString::fromStdString(e.what())};
  }
}

}  // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), selection_(new Selection(this)),
      navigator_model_(new NavigatorModel(this)), navigator_view_(new QTreeView(this)),
      tabs_(new QTabWidget(this)), isa_view_(new IsaView(*selection_, this)),
      cfg_view_(new CfgView(*selection_, this)) {
  init_wavescope_resources();
  setWindowTitle(tr("wavescope"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/wavescope.svg")));
  setAcceptDrops(true);
  resize(1600, 1000);

  tabs_->setDocumentMode(true);
  setCentralWidget(tabs_);
  add_view(QStringLiteral("isa"), tr("ISA"), isa_view_);
  add_view(QStringLiteral("cfg"), tr("CFG"), cfg_view_);

  navigator_view_->setModel(navigator_model_);
  navigator_view_->setHeaderHidden(true);
  navigator_view_->setUniformRowHeights(true);
  connect(navigator_view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex &current) { show_navigator_item(current); });
  auto *navigator_dock = new QDockWidget(tr("Navigator"), this);
  navigator_dock->setObjectName(QStringLiteral("navigator"));
  navigator_dock->setWidget(navigator_view_);
  addDockWidget(Qt::LeftDockWidgetArea, navigator_dock);
  resizeDocks({navigator_dock}, {300}, Qt::Horizontal);

  build_menus();
  statusBar()->showMessage(tr("Open a code object, capture folder or rewrite trace (Ctrl+O)"));
}

MainWindow::~MainWindow() = default;

void MainWindow::add_view(const QString &name, const QString &title, QWidget *widget) {
  widget->setObjectName(name);
  tabs_->addTab(widget, title);
  views_.emplace_back(name, widget);
}

void MainWindow::build_menus() {
  QMenu *file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open File…"), QKeySequence::Open, this, [this] {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open"), {},
        tr("Code objects and traces (*.elf *.hsaco *.co *.json);;All files (*)"));
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
  file->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);

  QMenu *view = menuBar()->addMenu(tr("&View"));
  for (std::size_t i = 0; i < views_.size(); ++i) {
    const QString name = views_[i].first;
    view->addAction(tabs_->tabText(static_cast<int>(i)), QKeySequence(QStringLiteral("Alt+%1").arg(i + 1)),
                    this, [this, name] { show_view(name); });
  }

  QMenu *help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About wavescope"), this, [this] {
    QMessageBox::about(
        this, tr("About wavescope"),
        tr("<h3>wavescope %1</h3><p>Bring-up, debug and profiling of AMD GPUs.</p>"
           "<p>Qt %2 (built with %3)<br>LLVM %4</p>")
            .arg(QString::fromUtf8(kVersion), QString::fromUtf8(qVersion()),
                 QStringLiteral(QT_VERSION_STR),
                 QString::fromStdString(compiler::isa::llvm_version())));
  });
}

void MainWindow::open_path(const QString &path) {
  ++pending_;
  statusBar()->showMessage(tr("Opening %1…").arg(path));
  auto *watcher = new QFutureWatcher<Loaded>(this);
  connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher, path] {
    Loaded loaded = watcher->result();
    watcher->deleteLater();
    --pending_;
    if (!loaded.error.isEmpty()) {
      report_error(path, loaded.error);
      return;
    }
    add_code_object(std::move(loaded.code_object));
    remember_recent(path);
    statusBar()->showMessage(tr("Opened %1").arg(path), 5000);
    emit document_opened(path);
  });
  watcher->setFuture(QtConcurrent::run(load_in_background, path));
}

void MainWindow::open_demo() {
  // The demo ships inside the binary; the libraries read files, so unpack it once per run.
  static QTemporaryDir unpacked;
  const QString target = unpacked.path() + QStringLiteral("/demo-gfx1100-gemm.elf");
  if (!QFileInfo::exists(target) &&
      !QFile::copy(QStringLiteral(":/demo/gfx1100-gemm/program.elf"), target)) {
    report_error(QStringLiteral("demo"), tr("the embedded demo data is missing from this build"));
    return;
  }
  open_path(target);
}

void MainWindow::wait_until_idle() {
  while (pending_ > 0) QApplication::processEvents(QEventLoop::WaitForMoreEvents);
  QApplication::processEvents();
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

void MainWindow::add_code_object(std::shared_ptr<CodeObjectDocument> document) {
  const int index = static_cast<int>(code_objects_.size());
  code_objects_.push_back(std::move(document));
  const QModelIndex root = navigator_model_->add_code_object(*code_objects_.back(), index);
  navigator_view_->expand(root);
  const QModelIndex first_kernel = navigator_model_->index(0, 0, root);
  navigator_view_->setCurrentIndex(first_kernel.isValid() ? first_kernel : root);
}

void MainWindow::show_navigator_item(const QModelIndex &index) {
  if (!index.isValid()) return;
  const int doc = index.data(NavigatorModel::DocumentRole).toInt();
  if (doc < 0 || doc >= static_cast<int>(code_objects_.size())) return;
  const auto &document = *code_objects_[static_cast<std::size_t>(doc)];
  const int kernel = index.data(NavigatorModel::KernelRole).isValid()
                         ? index.data(NavigatorModel::KernelRole).toInt()
                         : 0;
  if (kernel < 0 || kernel >= static_cast<int>(document.kernels.size())) return;
  const auto &code = document.kernels[static_cast<std::size_t>(kernel)];
  isa_view_->show_kernel(QStringLiteral("%1 — %2 (%3)")
                             .arg(QFileInfo(document.path).fileName(),
                                  QString::fromStdString(code.name),
                                  QString::fromStdString(document.code->target().processor)),
                         code);
  cfg_view_->show_kernel(code);
}

void MainWindow::report_error(const QString &path, const QString &message) {
  errors_ << message;
  statusBar()->showMessage(message);
  emit open_failed(path, message);
  if (interactive_) QMessageBox::warning(this, tr("Cannot open"), message);
}

void MainWindow::remember_recent(const QString &path) {
  if (path.startsWith(QDir::tempPath())) return;  // the unpacked demo is not worth remembering
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
