#include "app/workspace.hpp"

#include <QApplication>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include "app/document_loader.hpp"

namespace wavescope::gui {
namespace {

struct Loaded {
  std::shared_ptr<Document> document;
  QString error;
};

Loaded load_in_background(const QString &path, const OpenOptions &options) {
  try {
    return {load_document(path, options), {}};
  } catch (const std::exception &e) {
    return {nullptr, QString::fromStdString(e.what())};
  }
}

}  // namespace

void Workspace::open(const QString &path, const OpenOptions &options) {
  ++pending_;
  auto *watcher = new QFutureWatcher<Loaded>(this);
  connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher, path] {
    Loaded loaded = watcher->result();
    watcher->deleteLater();
    --pending_;
    if (loaded.document) add(std::move(loaded.document));
    else emit open_failed(path, loaded.error);
  });
  watcher->setFuture(QtConcurrent::run(load_in_background, path, options));
}

int Workspace::add(std::shared_ptr<Document> document) {
  documents_.push_back(std::move(document));
  const int index = size() - 1;
  emit document_added(index);
  return index;
}

void Workspace::wait_until_idle() {
  while (pending_ > 0) QApplication::processEvents(QEventLoop::WaitForMoreEvents);
  QApplication::processEvents();
}

const Document *Workspace::document(int index) const {
  return index >= 0 && index < size() ? documents_[static_cast<std::size_t>(index)].get() : nullptr;
}

}  // namespace wavescope::gui
