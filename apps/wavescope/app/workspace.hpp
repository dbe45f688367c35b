#pragma once
// The documents the app has open. Opening runs on a worker thread; results arrive as signals on
// the GUI thread.

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

#include "app/document.hpp"
#include "app/document_loader.hpp"

namespace wavescope::gui {

class Workspace : public QObject {
  Q_OBJECT
public:
  using QObject::QObject;

  // Starts opening `path`; document_added or open_failed follows.
  void open(const QString &path, const OpenOptions &options = {});
  // Adds an already loaded document (tests, the demo); returns its index.
  int add(std::shared_ptr<Document> document);
  // Runs the event loop until every pending open has finished.
  void wait_until_idle();

  int size() const { return static_cast<int>(documents_.size()); }
  const Document *document(int index) const;
  bool busy() const { return pending_ > 0; }

signals:
  void document_added(int index);
  void open_failed(const QString &path, const QString &message);

private:
  std::vector<std::shared_ptr<Document>> documents_;
  int pending_ = 0;
};

}  // namespace wavescope::gui
