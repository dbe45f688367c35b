#pragma once
// The documents the app has open. Opening runs on a worker thread; results arrive as signals on
// the GUI thread, in the order the opens were asked for (so `wavescope a b` lists a before b).

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <deque>
#include <memory>
#include <vector>

#include "app/document.hpp"
#include "app/document_loader.hpp"
#include "wavescope/base/cancel_token.hpp"

namespace wavescope::gui {

class Workspace : public QObject {
  Q_OBJECT
public:
  using QObject::QObject;
  ~Workspace() override;

  // Starts opening `path`; document_added or open_failed follows.
  void open(const QString &path, const OpenOptions &options = {});
  // Adds an already loaded document (tests, the demo); returns its index.
  int add(std::shared_ptr<Document> document);
  // Runs the event loop until every pending open has finished.
  void wait_until_idle();
  // Asks every pending open to stop at its next progress report; each ends in open_cancelled.
  void cancel_pending();

  int size() const { return static_cast<int>(documents_.size()); }
  const Document *document(int index) const;
  bool busy() const { return !pending_.empty(); }

Q_SIGNALS:
  void document_added(int index);
  void open_failed(const QString &path, const QString &message);
  void open_cancelled(const QString &path);
  // A stage of a pending open advanced (emitted from the loading thread, delivered queued).
  void progress(const QString &path, const QString &stage, quint64 done, quint64 total);

private:
  struct Pending {
    quint64 id = 0;
    QString path;
    bool done = false;
    std::shared_ptr<Document> document;
    QString error;
    bool cancelled = false;
    std::shared_ptr<CancelToken> cancel = std::make_shared<CancelToken>();
  };
  void deliver_finished();

  std::vector<std::shared_ptr<Document>> documents_;
  std::deque<Pending> pending_;
  quint64 next_id_ = 0;
  std::shared_ptr<std::atomic<bool>> closing_ = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace wavescope::gui
