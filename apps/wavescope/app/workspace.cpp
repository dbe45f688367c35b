#include "app/workspace.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include "app/document_loader.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::gui {
namespace {

struct Loaded {
  std::shared_ptr<Document> document;
  QString error;
  bool cancelled = false;
};

}  // namespace

Workspace::~Workspace() {
  // Loads still running report to this object: stop them at their next progress report, tell no
  // one (the receivers are going away too; a load not yet started runs here, in this thread), and
  // let them finish before this object goes away.
  *closing_ = true;
  disconnect(this, nullptr, nullptr, nullptr);
  for (auto *watcher : findChildren<QFutureWatcher<Loaded> *>()) watcher->waitForFinished();
}

void Workspace::open(const QString &path, const OpenOptions &options) {
  const quint64 id = next_id_++;
  pending_.push_back({id, path, false, nullptr, {}});
  const auto cancel = pending_.back().cancel;
  auto *watcher = new QFutureWatcher<Loaded>(this);
  connect(watcher, &QFutureWatcher<Loaded>::finished, this, [this, watcher, id] {
    Loaded loaded = watcher->result();
    watcher->deleteLater();
    for (auto &p : pending_)
      if (p.id == id) {
        p.done = true;
        p.document = std::move(loaded.document);
        p.error = std::move(loaded.error);
        p.cancelled = loaded.cancelled;
      }
    deliver_finished();
  });
  // Progress leaves the worker at most every 50 ms per stage (the signal is queued to the GUI).
  auto load = [this, path, options, closing = closing_, cancel]() -> Loaded {
    if (*closing || cancel->stop_requested()) return {nullptr, tr("cancelled"), true};
    QElapsedTimer since_last;
    since_last.start();
    std::string last_stage;
    const ProgressSink sink = [&](const ProgressUpdate &u) {
      if (*closing) throw Error(ErrorKind::Internal, "cancelled: the app is closing");
      if (cancel->stop_requested())
        throw Error(ErrorKind::Interrupted,
                    path.toStdString() + ": cancelled while " + std::string(u.stage));
      const bool new_stage = u.stage != last_stage;
      if (!new_stage && u.done < u.total && since_last.elapsed() < 50) return;
      last_stage = std::string(u.stage);
      since_last.restart();
      Q_EMIT progress(path, QString::fromUtf8(u.stage.data(), static_cast<int>(u.stage.size())),
                      u.done, u.total);
    };
    try {
      return {load_document(path, options, sink), {}};
    } catch (const Error &e) {
      return {nullptr, QString::fromStdString(e.what()), e.kind() == ErrorKind::Interrupted};
    } catch (const std::exception &e) {
      return {nullptr, QString::fromStdString(e.what())};
    }
  };
  watcher->setFuture(QtConcurrent::run(load));
}

void Workspace::cancel_pending() {
  for (auto &p : pending_) p.cancel->request();
}

void Workspace::deliver_finished() {
  // Deliver in request order: a quick open waits for the slower ones asked for before it.
  while (!pending_.empty() && pending_.front().done) {
    Pending finished = std::move(pending_.front());
    pending_.pop_front();
    if (finished.document)
      add(std::move(finished.document));
    else if (finished.cancelled)
      Q_EMIT open_cancelled(finished.path);
    else
      Q_EMIT open_failed(finished.path, finished.error);
  }
}

int Workspace::add(std::shared_ptr<Document> document) {
  documents_.push_back(std::move(document));
  const int index = size() - 1;
  Q_EMIT document_added(index);
  return index;
}

void Workspace::wait_until_idle() {
  while (busy()) QApplication::processEvents(QEventLoop::WaitForMoreEvents);
  QApplication::processEvents();
}

const Document *Workspace::document(int index) const {
  return index >= 0 && index < size() ? documents_[static_cast<std::size_t>(index)].get() : nullptr;
}

}  // namespace wavescope::gui
