#include "app/rewrite_trace_document.hpp"

#include <QFileInfo>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::gui {

using compiler::UOp;
using compiler::UOpNode;
using compiler::rewrite::RewriteTrace;
using compiler::rewrite::TraceGroupRecord;
using compiler::rewrite::TraceRewrite;

namespace {

std::unordered_set<const UOpNode *> nodes_of(const UOp &root) {
  std::unordered_set<const UOpNode *> nodes;
  if (!root) return nodes;
  for (const UOp &u : compiler::toposort(root)) nodes.insert(u.get());
  return nodes;
}

}  // namespace

RewriteTraceDocument::RewriteTraceDocument(RewriteTrace trace) : trace_(std::move(trace)) {
  const auto &groups = trace_.groups();
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t p = 0; p < groups[g].rewrites.size(); ++p) {
      passes_.push_back({static_cast<int>(g), static_cast<int>(p)});
      step_total_ += groups[g].rewrites[p].steps.size();
    }
}

const TraceGroupRecord *RewriteTraceDocument::group(int group) const {
  if (group < 0 || group >= group_count()) return nullptr;
  return &trace_.groups()[static_cast<std::size_t>(group)];
}

int RewriteTraceDocument::pass_count(int group) const {
  const TraceGroupRecord *g = this->group(group);
  return g ? static_cast<int>(g->rewrites.size()) : 0;
}

const TraceRewrite *RewriteTraceDocument::pass(int group, int pass) const {
  const TraceGroupRecord *g = this->group(group);
  if (!g || pass < 0 || pass >= static_cast<int>(g->rewrites.size())) return nullptr;
  return &g->rewrites[static_cast<std::size_t>(pass)];
}

int RewriteTraceDocument::pass_position(RewritePassRef pass) const {
  for (std::size_t i = 0; i < passes_.size(); ++i)
    if (passes_[i] == pass) return static_cast<int>(i);
  return -1;
}

const std::vector<UOp> &RewriteTraceDocument::graphs(int group, int pass) const {
  const TraceRewrite *rewrite = this->pass(group, pass);
  if (!rewrite)
    throw Error(ErrorKind::Usage, fmt::format("rewrite trace {}: there is no pass {} in group {}",
                                              path.toStdString(), pass, group));
  Replay *replay = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto &slot = replays_[{group, pass}];
    if (!slot) slot = std::make_unique<Replay>();
    replay = slot.get();
  }
  // Each pass replays once; other passes are not held up meanwhile.
  std::call_once(replay->once, [&] {
    try {
      replay->graphs = trace_.replay(*rewrite);
    } catch (const std::exception &e) {
      replay->error = fmt::format("rewrite trace {}: cannot replay pass '{}' of group {}: {}",
                                  path.toStdString(), rewrite->name, group, e.what());
    }
  });
  if (!replay->error.empty()) throw Error(ErrorKind::BadInput, replay->error);
  return replay->graphs;
}

RewriteRecord RewriteTraceDocument::record(int group, int pass, int record) const {
  const std::vector<UOp> &graphs = this->graphs(group, pass);
  const TraceRewrite &rewrite = *this->pass(group, pass);
  if (record < 0 || record >= static_cast<int>(graphs.size()))
    throw Error(ErrorKind::Usage,
                fmt::format("rewrite trace {}: pass '{}' has records 0..{}, not {}",
                            path.toStdString(), rewrite.name, graphs.size() - 1, record));
  RewriteRecord r;
  r.group = group;
  r.pass = pass;
  r.record = record;
  r.rewrite = &rewrite;
  r.graph = graphs[static_cast<std::size_t>(record)];
  if (record == 0) return r;
  r.step = &rewrite.steps[static_cast<std::size_t>(record - 1)];
  r.previous = graphs[static_cast<std::size_t>(record - 1)];
  r.before = trace_.rebuild(r.step->before);
  r.after = trace_.rebuild(r.step->after);
  const auto previous = nodes_of(r.previous);
  const auto current = nodes_of(r.graph);
  for (const UOp &u : compiler::toposort(r.after))
    if (!previous.count(u.get()) && current.count(u.get())) r.created.insert(u.get());
  for (const UOpNode *n : current)
    if (!previous.count(n) && !r.created.count(n)) r.rebuilt.insert(n);
  return r;
}

std::optional<std::string> RewriteTraceDocument::rendered_source(int group, int pass) const {
  const TraceRewrite *rewrite = this->pass(group, pass);
  if (!rewrite) return std::nullopt;
  return compiler::rewrite::rendered_source(trace_, *rewrite);
}

std::optional<std::string>
RewriteTraceDocument::program_page(int group, int pass, compiler::rewrite::ProgramView view) const {
  const TraceRewrite *rewrite = this->pass(group, pass);
  if (!rewrite) return std::nullopt;
  return compiler::rewrite::program_view_text(trace_, *rewrite, view);
}

std::optional<std::uint64_t> RewriteTraceDocument::trace_id(const UOp &node) const {
  std::call_once(ids_once_, [this] {
    // Children come first in the table, so one pass in id order builds every node once.
    std::unordered_map<std::uint64_t, UOp> built;
    for (const auto &[id, n] : trace_.nodes()) {
      std::vector<UOp> src;
      for (auto s : n.src) src.push_back(built.at(s));
      UOp u = UOp::make(n.op, n.dtype, std::move(src), n.arg, n.tag);
      ids_.emplace(u.get(), id);
      built.emplace(id, u);
      id_nodes_.push_back(std::move(u));
    }
  });
  if (auto it = ids_.find(node.get()); it != ids_.end()) return it->second;
  return std::nullopt;
}

std::shared_ptr<RewriteTraceDocument> load_rewrite_trace(const QString &path) {
  auto doc = std::make_shared<RewriteTraceDocument>(RewriteTrace::open(path.toStdString()));
  doc->path = path;
  const std::size_t groups = doc->trace().groups().size();
  const bool tinygrad = doc->trace().generator() == "tinygrad";
  doc->title =
      QStringLiteral("%1  (%2, %3 %4)")
          .arg(QFileInfo(path).fileName(),
               tinygrad ? QStringLiteral("tinygrad rewrites") : QStringLiteral("rewrite trace"))
          .arg(groups)
          .arg(tinygrad ? (groups == 1 ? QStringLiteral("context") : QStringLiteral("contexts"))
                        : (groups == 1 ? QStringLiteral("group") : QStringLiteral("groups")));
  return doc;
}

std::shared_ptr<RewriteTraceDocument> load_symbolic_cases(const QString &path,
                                                          const ProgressSink &progress) {
  namespace symbolic = compiler::symbolic;
  const auto cases = symbolic::load_cases(path.toStdString());
  RewriteTrace trace;
  std::size_t failed = 0;
  {
    compiler::rewrite::TraceSession session(trace);
    for (std::size_t i = 0; i < cases.size(); ++i) {
      if (progress) progress({"simplify", i, cases.size(), "cases"});
      compiler::rewrite::TraceGroup group(cases[i].id);
      try {
        symbolic::simplify(symbolic::build_case(cases[i]).expr);
      } catch (const Error &) {
        ++failed;
      }
    }
  }
  auto doc = std::make_shared<RewriteTraceDocument>(std::move(trace));
  doc->path = path;
  doc->title = QStringLiteral("%1  (symbolic cases, %2 simplified%3)")
                   .arg(QFileInfo(path).fileName())
                   .arg(cases.size() - failed)
                   .arg(failed ? QStringLiteral(", %1 failed").arg(failed) : QString());
  return doc;
}

}  // namespace wavescope::gui
