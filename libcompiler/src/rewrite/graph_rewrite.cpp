#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <llvm/ADT/DenseMap.h>

#include "fixed_point_memo.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::compiler::rewrite {
namespace {

std::string file_name(const char *path) {
  std::string_view p(path);
  const auto slash = p.find_last_of('/');
  return std::string(slash == std::string_view::npos ? p : p.substr(slash + 1));
}

// Records the steps of one traced rewrite into the active trace.
class TraceRecorder final : public StepRecorder {
public:
  TraceRecorder(RewriteTrace &trace, std::size_t index) : trace_(trace), index_(index) {}
  void step(const UOp &before, const UOp &after, const CompiledRule &rule,
            std::chrono::nanoseconds spent) override {
    TraceStep s;
    s.before = trace_.record_node(before);
    s.after = trace_.record_node(after);
    s.rule = rule.family().empty() ? rule.name() : rule.family() + ": " + rule.name();
    s.rule_loc = rule.location_text();
    s.ns = static_cast<std::uint64_t>(spent.count());
    trace_.add_step(index_, std::move(s));
  }
  void error(const UOp &before, const CompiledRule &rule, const std::string &what) override {
    const UOp failed = UOp::make(Op::REWRITE_ERROR, dtypes::void_, before.src(), what);
    step(before, failed, rule, std::chrono::nanoseconds(0));
  }

private:
  RewriteTrace &trace_;
  std::size_t index_;
};

// The last rules that fired, for the message when rewriting runs away.
class RecentRules {
public:
  void push(const CompiledRule *r) {
    if (r) ring_[count_++ % ring_.size()] = r;
  }
  std::string describe() const {
    std::vector<std::string> names;
    const std::size_t n = std::min(count_, ring_.size());
    for (std::size_t i = 0; i < n; ++i) {
      const CompiledRule *r = ring_[(count_ - n + i) % ring_.size()];
      std::string text = fmt::format("'{}' ({})", r->name(), r->location_text());
      if (std::find(names.begin(), names.end(), text) == names.end()) names.push_back(text);
    }
    return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
  }

private:
  std::array<const CompiledRule *, 16> ring_{};
  std::size_t count_ = 0;
};

// One rewrite. The engine works on pointers to UOp handles that stay alive for the whole
// rewrite (sources of live nodes, the root, and every node a rule or a rebuild made, which
// `made_` owns), so the traversal itself takes no references and hashes node addresses only.
// Subgraphs no rule can touch, and (RewriteOptions::memoize) known fixed points, are taken as
// they are without a visit.
class Rewriter {
public:
  Rewriter(const PatternMatcher *post, const PatternMatcher *pre, const RewriteOptions &options,
           StepRecorder *recorder)
      : post_(post), pre_(pre), options_(options), recorder_(recorder) {
    if (post_) post_ops_ = post_->root_ops();
    rule_ops_ = post_ops_;
    if (pre_) rule_ops_ = rule_ops_ | pre_->root_ops();
    if (options_.memoize && post_ && !pre_ && !options_.walk && !options_.context)
      memo_ = detail::memo_bits(*post_);
  }

  UOp run(const UOp &root) {
    // The passes of a lowering see about as many nodes as the previous one: an outermost
    // rewrite starts its table at that size instead of growing it through every smaller one
    // (rewrites that rules run inside a rewrite are small and leave the hint alone).
    // The outermost rewrite also takes its node table, work stack and waiter list from the
    // thread's last outermost rewrite (cleared, with their capacity: no allocation per pass).
    thread_local std::size_t size_hint = 0;
    thread_local int depth = 0;
    thread_local std::vector<Item> spare_stack;
    thread_local std::vector<Waiter> spare_waiters;
    thread_local llvm::DenseMap<Key, State> spare_states;
    const bool outermost = depth == 0;
    if (outermost) {
      states_.swap(spare_states);
      states_.reserve(size_hint);
      stack_.swap(spare_stack);
      waiters_.swap(spare_waiters);
    }
    ++depth;
    const UOp *out = nullptr;
    try {
      out = options_.walk ? walk(root) : fixed_point(root);
    } catch (...) {
      --depth;
      throw;
    }
    --depth;
    if (outermost) {
      size_hint = states_.size();
      stack_.clear();
      waiters_.clear();
      states_.clear();
      stack_.swap(spare_stack);
      waiters_.swap(spare_waiters);
      states_.swap(spare_states);
    }
    if (options_.stats) *options_.stats = {visited_, settled_, firings_};
    return *out;
  }

private:
  using Key = const UOpNode *;

  static constexpr std::uint32_t kNoWaiter = ~std::uint32_t(0);

  // What the rewrite knows of a node.
  struct State {
    const UOp *result = nullptr;  // its final replacement, once known
    bool on_stack = false;        // queued for a first visit
    // The work items waiting for its result: a list in waiters_, in the order they came.
    std::uint32_t first_waiter = kNoWaiter, last_waiter = kNoWaiter;
  };

  struct Item {
    const UOp *n;
    int stage;
    const UOp *new_n;
  };

  struct Waiter {
    Item item;
    std::uint32_t next = kNoWaiter;
  };

  [[noreturn]] void runaway(const char *what) const {
    throw Error(ErrorKind::Internal,
                fmt::format("graph_rewrite '{}' does not reach a fixed point ({}): rules that undo "
                            "each other; last rules applied: {}",
                            options_.name, what, recent_.describe()));
  }

  void count_firing(const CompiledRule *rule) {
    recent_.push(rule);
    if (++firings_ > options_.step_limit) runaway("too many rewrites");
  }

  // Keeps a node made during the rewrite alive until it ends.
  const UOp *keep(UOp &&u) {
    if (!made_) made_.emplace();  // (many passes make nothing: no deque for them)
    return &made_->emplace_back(std::move(u));
  }

  State &state(const UOp *u) { return states_[u->get()]; }
  // The node's state if the rewrite has one (valid until the next insertion).
  State *find_state(const UOp *u) {
    auto it = states_.find(u->get());
    return it == states_.end() ? nullptr : &it->second;
  }
  const UOp *result_of(const UOp *u) const {
    auto it = states_.find(u->get());
    return it == states_.end() ? nullptr : it->second.result;
  }

  const UOp *post_rewrite(const UOp &n) {
    if (!post_ops_.contains(n.op())) return nullptr;  // no rule is filed under its op
    const CompiledRule *fired = nullptr;
    UOp r = post_->rewrite(n, options_.context, recorder_, &fired);
    if (!r) return nullptr;
    count_firing(fired);
    return keep(std::move(r));
  }

  // The pre-order matcher's result for a node, memoized (null: no rule applies).
  const UOp *pre_rewrite(const UOp *n) {
    if (auto it = pre_cache_.find(n->get()); it != pre_cache_.end()) return it->second;
    const CompiledRule *fired = nullptr;
    UOp r = pre_->rewrite(*n, options_.context, recorder_, &fired);
    const UOp *out = nullptr;
    if (r) {
      count_firing(fired);
      out = keep(std::move(r));
    }
    pre_cache_.try_emplace(n->get(), out);
    return out;
  }

  bool skips_body(const UOp &n) const {
    return !options_.enter_calls && (n.op() == Op::FUNCTION || n.op() == Op::CALL) && n.size() > 0;
  }

  // True when nothing below n can change: no node of its graph has an op some rule is filed
  // under, or a memoizing rewrite found it a fixed point before. It is then its own result.
  bool settled(const UOp *n) {
    const UOpNode *node = n->get();
    if (!node->subtree_ops.intersects(rule_ops_)) {
      if (memo_.own) detail::mark_fixed_point(node, memo_.own);
      ++settled_;
      return true;
    }
    if (!memo_.own || !detail::is_fixed_point(node, memo_.accepted)) return false;
    ++settled_;
    return true;
  }

  void resolve(const UOp *n, const UOp *result, std::vector<Item> &stack) {
    resolve(state(n), result, stack);
  }
  // The same with the node's state at hand (found since the last insertion).
  void resolve(State &s, const UOp *result, std::vector<Item> &stack) {
    s.result = result;
    for (std::uint32_t w = s.first_waiter; w != kNoWaiter; w = waiters_[w].next)
      stack.push_back(waiters_[w].item);
    s.first_waiter = s.last_waiter = kNoWaiter;
  }

  void wait_for(const UOp *n, const Item &item) {
    const auto index = static_cast<std::uint32_t>(waiters_.size());
    waiters_.push_back({item});
    State &s = state(n);
    if (s.last_waiter == kNoWaiter)
      s.first_waiter = index;
    else
      waiters_[s.last_waiter].next = index;
    s.last_waiter = index;
  }

  const UOp *fixed_point(const UOp &root) {
    std::vector<Item> &stack = stack_;
    stack.reserve(64);
    stack.push_back({&root, 0, &root});
    state(&root).on_stack = true;
    std::vector<UOp> src;
    while (!stack.empty()) {
      if (stack.size() > options_.step_limit) runaway("work stack too large");
      const Item item = stack.back();
      stack.pop_back();
      if (item.stage == 0) {
        State *s = find_state(item.n);
        if (s && s->result) continue;
        if (settled(item.n)) {
          resolve(s ? *s : state(item.n), item.n, stack);
          continue;
        }
        ++visited_;
        const UOp *new_n = item.n;
        if (pre_) {
          // Apply the pre-order matcher to this node until it declines.
          std::vector<Key> seen;
          const UOp *test = item.n;
          try {
            while (test) {
              if (std::find(seen.begin(), seen.end(), test->get()) != seen.end())
                runaway("a pre-order rule revisits a node");
              seen.push_back(test->get());
              new_n = test;
              test = pre_rewrite(test);
            }
          } catch (const StopDescent &) {
            resolve(item.n, new_n, stack);
            continue;
          }
        }
        stack.push_back({item.n, 1, new_n});
        if (skips_body(*new_n)) state(&new_n->src(0)).result = &new_n->src(0);
        for (std::size_t i = new_n->size(); i-- > 0;) {
          const UOp *x = &new_n->src(i);
          State &xs = state(x);
          if (xs.on_stack) continue;
          xs.on_stack = true;
          stack.push_back({x, 0, x});
        }
      } else if (item.stage == 1) {
        // (no insertion into states_ happens before its resolve below: s stays valid)
        State *s = find_state(item.n);
        if (s && s->result) continue;
        const UOp &nn = *item.new_n;
        bool changed = false;
        bool sources_settled = memo_.own != 0;  // every source a memoized fixed point
        const UOp *waiting_on = nullptr;
        for (const auto &x : nn.src()) {
          const UOp *r = result_of(&x);
          if (!r) {
            waiting_on = &x;
            break;
          }
          changed |= r->get() != x.get();
          sources_settled = sources_settled && detail::is_fixed_point(x.get(), memo_.accepted);
        }
        if (waiting_on) {
          wait_for(waiting_on, item);  // come back when it is done
          continue;
        }
        const UOp *next = nullptr;
        if (!changed) {
          if (post_) next = post_rewrite(nn);
          if (!next) {
            if (sources_settled) detail::mark_fixed_point(nn.get(), memo_.own);
            resolve(s ? *s : state(item.n), item.new_n, stack);
            continue;
          }
        } else {
          src.clear();
          src.reserve(nn.size());  // (one allocation: the vector becomes the new node's sources)
          for (const auto &x : nn.src()) src.push_back(*result_of(&x));
          next = keep(nn.with_src(std::move(src)));
          src = {};
        }
        stack.push_back({item.n, 2, next});
        stack.push_back({next, 0, next});
      } else {
        if (result_of(item.n)) continue;
        if (const UOp *r = result_of(item.new_n))
          resolve(item.n, r, stack);
        else
          wait_for(item.new_n, item);
      }
    }
    const UOp *out = result_of(&root);
    if (!out) runaway("a rewrite depends on its own result");
    return out;
  }

  const UOp *walk(const UOp &root) {
    std::vector<std::pair<const UOp *, bool>> stack{{&root, false}};
    std::vector<UOp> src;
    while (!stack.empty()) {
      auto [n, processed] = stack.back();
      stack.pop_back();
      if (result_of(n)) continue;
      if (!processed) {
        if (!n->get()->subtree_ops.intersects(rule_ops_)) {
          state(n).result = n;
          ++settled_;
          continue;
        }
        ++visited_;
        if (pre_) {
          const UOp *r = nullptr;
          try {
            r = pre_rewrite(n);
          } catch (const StopDescent &) {
            state(n).result = n;
            continue;
          }
          if (r) {
            state(n).result = r;
            continue;
          }
        }
        stack.emplace_back(n, true);
        if (skips_body(*n)) state(&n->src(0)).result = &n->src(0);
        for (std::size_t i = n->size(); i-- > 0;)
          if (!result_of(&n->src(i))) stack.emplace_back(&n->src(i), false);
      } else {
        bool changed = false;
        for (const auto &x : n->src()) {
          const UOp *r = result_of(&x);
          if (r && r->get() != x.get()) {
            changed = true;
            break;
          }
        }
        const UOp *rebuilt = n;
        if (changed) {  // copies (references) only for a node that is rebuilt
          src.clear();
          src.reserve(n->size());
          for (const auto &x : n->src()) {
            const UOp *r = result_of(&x);
            src.push_back(r ? *r : x);
          }
          rebuilt = keep(n->with_src(std::move(src)));
          src = {};
        }
        if (post_)
          if (const UOp *r = post_rewrite(*rebuilt)) rebuilt = r;
        state(n).result = rebuilt;
      }
    }
    const UOp *out = result_of(&root);
    return out ? out : &root;
  }

  const PatternMatcher *post_;
  const PatternMatcher *pre_;
  const RewriteOptions &options_;
  StepRecorder *recorder_;
  // Open-addressing tables keyed by node address (no reference into one is kept across an
  // insertion, which may move its entries).
  llvm::DenseMap<Key, State> states_;
  llvm::DenseMap<Key, const UOp *> pre_cache_;
  std::vector<Item> stack_;  // fixed_point's work stack
  std::vector<Waiter> waiters_;
  std::optional<std::deque<UOp>> made_;
  OpSet post_ops_;         // the ops some rule of the post-order matcher is filed under
  OpSet rule_ops_;         // the ops some rule is filed under
  detail::MemoBits memo_;  // this matcher's fixed-point bits when memoizing
  RecentRules recent_;
  std::size_t firings_ = 0;
  std::size_t visited_ = 0, settled_ = 0;
};

}  // namespace

UOp graph_rewrite(const UOp &root, const PatternMatcher &matcher, const RewriteOptions &options,
                  std::source_location caller) {
  const PatternMatcher *post = options.pre_order ? nullptr : &matcher;
  const PatternMatcher *pre = options.pre_order ? &matcher : options.extra_pre_order;
  RewriteTrace *trace = active_trace();
  if (!trace) return Rewriter(post, pre, options, nullptr).run(root);

  TraceRewrite header;
  header.name = options.name;
  header.loc = fmt::format("{}:{}", file_name(caller.file_name()), caller.line());
  header.depth = detail::trace_depth();
  header.mode = post && pre ? "post+pre" : post ? "post" : "pre";
  header.walk = options.walk;
  header.enter_calls = options.enter_calls;
  header.input = trace->record_node(root);
  const std::size_t index = trace->begin_rewrite(std::move(header));
  TraceRecorder recorder(*trace, index);
  ++detail::trace_depth();
  try {
    UOp result = Rewriter(post, pre, options, &recorder).run(root);
    --detail::trace_depth();
    trace->end_rewrite(index, trace->record_node(result));
    return result;
  } catch (...) {
    --detail::trace_depth();
    trace->end_rewrite(index, std::nullopt);
    throw;
  }
}

}  // namespace wavescope::compiler::rewrite
