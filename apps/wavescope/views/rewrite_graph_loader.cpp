#include "views/rewrite_graph_loader.hpp"

#include <QApplication>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include "app/rewrite_trace_document.hpp"

namespace wavescope::gui {

namespace {
constexpr std::size_t kCachedGraphs = 64;
}

RewriteGraphLoader::~RewriteGraphLoader() { join(); }

void RewriteGraphLoader::join() {
  next_document_ = nullptr;
  if (job_) job_->waitForFinished();
}

bool RewriteGraphLoader::synchronous(const RewriteTraceDocument &document) const {
  return document.trace().nodes().size() <= background_threshold_;
}

LaidOutRewriteGraph RewriteGraphLoader::build(const RewriteTraceDocument &document,
                                              const RewriteGraphKey &key) {
  LaidOutRewriteGraph result;
  auto graph = std::make_shared<RewriteGraph>(build_rewrite_graph(
      document, key.group, key.pass, key.record, {key.fold_constants, key.max_nodes}));
  if (!graph->error.isEmpty()) {
    result.error = graph->error;
    return result;
  }
  try {
    result.layout = std::make_shared<GraphLayout>(layout_rewrite_graph(*graph, key.direction));
  } catch (const std::exception &e) {
    result.error = QString::fromStdString(e.what());
    return result;
  }
  result.graph = std::move(graph);
  return result;
}

const LaidOutRewriteGraph *RewriteGraphLoader::cached(const RewriteGraphKey &key) const {
  auto it = cache_.find(key);
  return it == cache_.end() ? nullptr : &it->second;
}

const LaidOutRewriteGraph &RewriteGraphLoader::remember(const RewriteGraphKey &key,
                                                        LaidOutRewriteGraph graph) {
  auto [it, inserted] = cache_.insert_or_assign(key, std::move(graph));
  if (inserted) order_.push_back(key);
  while (order_.size() > kCachedGraphs && !(order_.front() == key)) {
    cache_.erase(order_.front());
    order_.pop_front();
  }
  return it->second;
}

const LaidOutRewriteGraph &RewriteGraphLoader::build_now(const RewriteTraceDocument &document,
                                                         const RewriteGraphKey &key) {
  if (const LaidOutRewriteGraph *hit = cached(key)) return *hit;
  return remember(key, build(document, key));
}

const LaidOutRewriteGraph *RewriteGraphLoader::request(const RewriteTraceDocument &document,
                                                       const RewriteGraphKey &key) {
  if (const LaidOutRewriteGraph *hit = cached(key)) return hit;
  if (synchronous(document)) return &build_now(document, key);
  if (job_) {
    if (!(job_key_ == key)) {
      next_document_ = &document;
      next_key_ = key;
    }
    return nullptr;
  }
  start(document, key);
  return nullptr;
}

void RewriteGraphLoader::start(const RewriteTraceDocument &document, const RewriteGraphKey &key) {
  job_key_ = key;
  next_document_ = nullptr;
  job_ = new QFutureWatcher<LaidOutRewriteGraph>(this);
  connect(job_, &QFutureWatcher<LaidOutRewriteGraph>::finished, this, [this] {
    LaidOutRewriteGraph result = job_->result();
    job_->deleteLater();
    job_ = nullptr;
    const RewriteGraphKey done = job_key_;
    remember(done, std::move(result));
    // The latest request made meanwhile goes next (documents live as long as the workspace).
    if (next_document_ && !cached(next_key_)) start(*next_document_, next_key_);
    emit ready(done);
  });
  const RewriteTraceDocument *doc = &document;
  job_->setFuture(QtConcurrent::run([doc, key] { return build(*doc, key); }));
}

void RewriteGraphLoader::wait() {
  while (job_) QApplication::processEvents(QEventLoop::WaitForMoreEvents);
  QApplication::processEvents();
}

}  // namespace wavescope::gui
