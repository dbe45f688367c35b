// The linear program of a lowered kernel (linear_program.hpp).

#include "wavescope/compiler/render/linear_program.hpp"

#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"

namespace wavescope::compiler::render {
namespace {

using Kind = LinearStep::Kind;

class Linearizer {
public:
  explicit Linearizer(const UOp &sink) : sink_(sink) {
    const auto nodes = toposort(sink);
    for (std::size_t i = 0; i < nodes.size(); ++i) ids_[nodes[i].get()] = i;
    free_ = kernel::open_ranges(nodes);
    for (const auto &n : nodes)
      if (n.op() == Op::AFTER)
        for (std::size_t k = 1; k < n.size(); ++k)
          if (n.src(k).dtype() == dtypes::void_) after_deps_.insert(n.src(k).get());
  }

  LinearProgram run() {
    if (sink_.op() != Op::SINK) throw fail(sink_, "a kernel is a SINK");
    LinearProgram p;
    p.name = kernel::kernel_name(sink_);
    p.params = kernel::kernel_params(sink_);
    scopes_.emplace_back();
    for (const auto &s : sink_.src()) statement(s);
    p.steps = std::move(steps_);
    return p;
  }

private:
  Error fail(const UOp &u, const std::string &what) const {
    auto it = ids_.find(u.get());
    return Error(ErrorKind::BadInput,
                 fmt::format("linearize: node {} ({}): {}", it == ids_.end() ? 0 : it->second,
                             to_string(u.op()), what));
  }

  bool done(const UOp &u) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (it->count(u.get())) return true;
    return false;
  }
  void emit(Kind kind, const UOp &u) { steps_.push_back({kind, u}); }

  void hoist(const UOp &body) {
    for (const auto &n : toposort(body)) {
      if (done(n)) continue;
      const bool reduce = n.op() == Op::REDUCE, dep = after_deps_.count(n.get()) > 0;
      if (!reduce && !dep) continue;
      bool ready = true;
      for (auto *r : free_[n.get()]) ready &= open_.count(r) > 0;
      if (!ready) continue;
      if (reduce)
        value(n);
      else
        statement(n);
    }
  }

  // --- the front half's buffers and ordering: REG/LOCAL buffers, AFTER, BARRIER -----------

  // What an INDEX addresses: a parameter, a REG/LOCAL buffer (a Value step: the renderer
  // allocates it), or AFTER(buffer, deps...) once its dependencies are statements before.
  void buffer(const UOp &b) {
    switch (b.op()) {
    case Op::PARAM: return;
    case Op::AFTER:
      for (std::size_t k = 1; k < b.size(); ++k)
        if (b.src(k).dtype() == dtypes::void_) statement(b.src(k));  // not ranges, ids
      return buffer(b.src(0));
    case Op::BUFFER:
      if (!allocated_.insert(b.get()).second) return;
      emit(Kind::Value, b);
      return;
    default: throw fail(b, "is not a buffer (PARAM, BUFFER or AFTER)");
    }
  }

  // Opens the loops of u's sources from `first` on, hoisting the reduces of `hoist_body`.
  void open_loops(const UOp &u, std::size_t first, const UOp &hoist_body = {}) {
    if (hoist_body) hoist(hoist_body);
    for (std::size_t k = first; k < u.size(); ++k) {
      const UOp &r = u.src(k);
      if (r.op() != Op::RANGE) throw fail(u, "loops over RANGEs only");
      value(r.src(0));
      emit(Kind::LoopBegin, r);
      scopes_.emplace_back();
      scopes_.back().insert(r.get());
      open_.insert(r.get());
      open_stack_.push_back(r);
      if (hoist_body) hoist(hoist_body);
    }
  }
  void close_loops(std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) {
      emit(Kind::LoopEnd, open_stack_.back());
      open_.erase(open_stack_.back().get());
      open_stack_.pop_back();
      scopes_.pop_back();
    }
  }

  void statement(const UOp &u) {
    if (done(u)) return;  // emitted already (a dependency of an AFTER)
    switch (u.op()) {
    case Op::GROUP:
      for (const auto &s : u.src()) statement(s);
      break;
    case Op::END:
      open_loops(u, 1, u.src(0));
      statement(u.src(0));
      close_loops(u.size() - 1);
      break;
    case Op::BARRIER:
      for (const auto &s : u.src()) statement(s);
      emit(Kind::Value, u);
      break;
    case Op::STORE: {
      const UOp &index = u.src(0);
      if (index.op() != Op::INDEX || index.size() < 2)
        throw fail(u, "a STORE's target must be an INDEX");
      buffer(index.src(0));
      index_values(index.src(1));
      if (u.size() > 2) value(u.src(2));
      value(u.src(1));
      emit(Kind::Store, u);
      break;
    }
    default: throw fail(u, "is not a statement (GROUP, END, BARRIER or STORE)");
    }
    scopes_.back().insert(u.get());
  }

  // A gated index (where(gate, idx, invalid)) needs its gate and its index, a plain one itself.
  void index_values(const UOp &idx) {
    if (idx.op() == Op::WHERE && idx.src(2).is_invalid()) {
      value(idx.src(0));
      value(idx.src(1));
    } else {
      value(idx);
    }
  }

  void value(const UOp &u) {
    if (done(u)) return;
    switch (u.op()) {
    case Op::RANGE: throw fail(u, "a RANGE used outside its loop");
    case Op::PARAM: return;  // buffers are the function's arguments
    case Op::INDEX: throw fail(u, "a read INDEX without a LOAD (run the \"add loads\" pass)");
    case Op::LOAD: {
      const UOp &index = u.src(0);
      if (index.op() != Op::INDEX || index.size() < 2) throw fail(u, "a LOAD reads an INDEX");
      buffer(index.src(0));
      index_values(index.src(1));
      break;
    }
    case Op::REDUCE: {
      emit(Kind::ReduceBegin, u);
      open_loops(u, 1);
      value(u.src(0));
      emit(Kind::ReduceUpdate, u);
      close_loops(u.size() - 1);
      emit(Kind::ReduceEnd, u);
      scopes_.back().insert(u.get());
      return;
    }
    case Op::WHERE:
      if (u.src(2).is_invalid()) throw fail(u, "where(.., invalid) outside an index");
      [[fallthrough]];
    default:
      for (const auto &s : u.src()) value(s);
    }
    emit(Kind::Value, u);
    scopes_.back().insert(u.get());
  }

  UOp sink_;
  std::unordered_map<const UOpNode *, std::size_t> ids_;
  kernel::OpenRanges free_;
  std::vector<std::unordered_set<const UOpNode *>> scopes_;
  std::unordered_set<const UOpNode *> open_;
  std::vector<UOp> open_stack_;
  std::vector<LinearStep> steps_;
  std::unordered_set<const UOpNode *> after_deps_;  // statements an AFTER waits for
  std::unordered_set<const UOpNode *> allocated_;   // REG/LOCAL buffers emitted
};

}  // namespace

LinearProgram linearize(const UOp &lowered) { return Linearizer(lowered).run(); }

std::string_view step_kind_name(LinearStep::Kind kind) {
  switch (kind) {
  case Kind::Value: return "value";
  case Kind::LoopBegin: return "loop";
  case Kind::LoopEnd: return "endloop";
  case Kind::ReduceBegin: return "acc";
  case Kind::ReduceUpdate: return "accumulate";
  case Kind::ReduceEnd: return "endacc";
  case Kind::Store: return "store";
  }
  return "?";
}

}  // namespace wavescope::compiler::render
