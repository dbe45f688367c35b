#pragma once
// Builds and lays out the graphs of rewrite records for the rewrite view, and keeps the recent
// ones: on the calling (GUI) thread for small traces, which take milliseconds and never flash a
// "laying out" note, and on a worker thread for large ones, where a request made while a job runs
// replaces any earlier waiting one (only the latest is followed up).

#include <QObject>
#include <QString>

#include <list>
#include <map>
#include <memory>
#include <tuple>

#include "layout/graph_layout.hpp"
#include "models/rewrite_graph.hpp"
#include "views/rewrite_graph_layout.hpp"

template <typename T> class QFutureWatcher;

namespace wavescope::gui {

class RewriteTraceDocument;

struct RewriteGraphKey {
  int document = -1, group = -1, pass = -1, record = 0;
  bool fold_constants = true;
  std::size_t max_nodes = 0;
  GraphDirection direction = GraphDirection::TopToBottom;
  auto tie() const {
    return std::tie(document, group, pass, record, fold_constants, max_nodes, direction);
  }
  bool operator<(const RewriteGraphKey &o) const { return tie() < o.tie(); }
  bool operator==(const RewriteGraphKey &o) const { return tie() == o.tie(); }
};

struct LaidOutRewriteGraph {
  std::shared_ptr<const RewriteGraph> graph;
  std::shared_ptr<const GraphLayout> layout;
  QString error;  // the record could not be built or laid out: why
};

class RewriteGraphLoader : public QObject {
  Q_OBJECT
public:
  using QObject::QObject;
  ~RewriteGraphLoader() override;

  // Documents with more nodes than this are built on a worker thread (default 1000: graphs of
  // that size lay out in about 0.1 s).
  void set_background_threshold(std::size_t nodes) { background_threshold_ = nodes; }
  bool synchronous(const RewriteTraceDocument &document) const;

  // The graph for `key`: from the cache, or built now for a synchronous document; otherwise
  // nullptr, and ready(key) follows once a worker has built it.
  const LaidOutRewriteGraph *request(const RewriteTraceDocument &document,
                                     const RewriteGraphKey &key);
  // Builds (or finds) the graph on the calling thread whatever the document's size.
  const LaidOutRewriteGraph &build_now(const RewriteTraceDocument &document,
                                       const RewriteGraphKey &key);
  const LaidOutRewriteGraph *cached(const RewriteGraphKey &key) const;

  bool busy() const { return job_ != nullptr; }
  // Runs the event loop until no job is running or waiting.
  void wait();
  // Blocks until the running job (it reads its document) has finished, without running the
  // event loop and without starting the waiting one: for tearing down before the documents go.
  void join();

  static LaidOutRewriteGraph build(const RewriteTraceDocument &document,
                                   const RewriteGraphKey &key);

signals:
  void ready(const wavescope::gui::RewriteGraphKey &key);

private:
  void start(const RewriteTraceDocument &document, const RewriteGraphKey &key);
  const LaidOutRewriteGraph &remember(const RewriteGraphKey &key, LaidOutRewriteGraph graph);

  std::size_t background_threshold_ = 1000;
  std::map<RewriteGraphKey, LaidOutRewriteGraph> cache_;
  std::list<RewriteGraphKey> order_;  // oldest first
  QFutureWatcher<LaidOutRewriteGraph> *job_ = nullptr;
  RewriteGraphKey job_key_;
  const RewriteTraceDocument *next_document_ = nullptr;  // the request waiting for the worker
  RewriteGraphKey next_key_;
};

}  // namespace wavescope::gui
