#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

#include <array>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

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

class Rewriter {
public:
  Rewriter(const PatternMatcher *post, const PatternMatcher *pre, const RewriteOptions &options,
           StepRecorder *recorder)
      : post_(post), pre_(pre), options_(options), recorder_(recorder) {}

  UOp run(const UOp &root) { return options_.walk ? walk(root) : fixed_point(root); }

private:
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

  UOp post_rewrite(const UOp &n) {
    const CompiledRule *fired = nullptr;
    UOp r = post_->rewrite(n, options_.context, recorder_, &fired);
    if (r) count_firing(fired);
    return r;
  }

  // The pre-order matcher's result for a node, memoized (null: no rule applies).
  UOp pre_rewrite(const UOp &n) {
    if (auto it = pre_cache_.find(n); it != pre_cache_.end()) return it->second;
    const CompiledRule *fired = nullptr;
    UOp r = pre_->rewrite(n, options_.context, recorder_, &fired);
    if (r) count_firing(fired);
    pre_cache_.emplace(n, r);
    return r;
  }

  bool skips_body(const UOp &n) const {
    return !options_.enter_calls && (n.op() == Op::FUNCTION || n.op() == Op::CALL) && n.size() > 0;
  }

  struct Item {
    UOp n;
    int stage;
    UOp new_n;
  };

  void resolve(const UOp &n, const UOp &result, std::vector<Item> &stack) {
    replace_[n] = result;
    if (auto it = waitlist_.find(n); it != waitlist_.end()) {
      for (auto &item : it->second) stack.push_back(std::move(item));
      waitlist_.erase(it);
    }
  }

  UOp fixed_point(const UOp &root) {
    std::vector<Item> stack{{root, 0, root}};
    std::unordered_set<UOp> on_stack{root};
    while (!stack.empty()) {
      if (stack.size() > options_.step_limit) runaway("work stack too large");
      Item item = std::move(stack.back());
      stack.pop_back();
      if (replace_.count(item.n)) continue;
      if (item.stage == 0) {
        UOp new_n = item.n;
        if (pre_) {
          // Apply the pre-order matcher to this node until it declines.
          std::unordered_set<UOp> seen;
          UOp test = item.n;
          try {
            while (test) {
              if (!seen.insert(test).second) runaway("a pre-order rule revisits a node");
              new_n = test;
              test = pre_rewrite(test);
            }
          } catch (const StopDescent &) {
            resolve(item.n, new_n, stack);
            continue;
          }
        }
        stack.push_back({item.n, 1, new_n});
        if (skips_body(new_n)) replace_[new_n.src(0)] = new_n.src(0);
        for (std::size_t i = new_n.size(); i-- > 0;) {
          const UOp &x = new_n.src(i);
          if (!on_stack.insert(x).second) continue;
          stack.push_back({x, 0, x});
        }
      } else if (item.stage == 1) {
        std::vector<UOp> src;
        src.reserve(item.new_n.size());
        bool ready = true;
        for (const auto &x : item.new_n.src()) {
          auto it = replace_.find(x);
          if (it == replace_.end()) {
            waitlist_[x].push_back(item);  // come back when x is done
            ready = false;
            break;
          }
          src.push_back(it->second);
        }
        if (!ready) continue;
        UOp next;
        if (src == item.new_n.src()) {
          if (post_) next = post_rewrite(item.new_n);
          if (!next) {
            resolve(item.n, item.new_n, stack);
            continue;
          }
        } else {
          next = item.new_n.with_src(std::move(src));
        }
        stack.push_back({item.n, 2, next});
        stack.push_back({next, 0, next});
      } else {
        auto it = replace_.find(item.new_n);
        if (it == replace_.end()) {
          waitlist_[item.new_n].push_back(item);
        } else {
          UOp result = it->second;
          resolve(item.n, result, stack);
        }
      }
    }
    auto it = replace_.find(root);
    if (it == replace_.end()) runaway("a rewrite depends on its own result");
    return it->second;
  }

  UOp walk(const UOp &root) {
    std::vector<std::pair<UOp, bool>> stack{{root, false}};
    while (!stack.empty()) {
      auto [n, processed] = std::move(stack.back());
      stack.pop_back();
      if (replace_.count(n)) continue;
      if (!processed) {
        if (pre_) {
          UOp r;
          try {
            r = pre_rewrite(n);
          } catch (const StopDescent &) {
            replace_[n] = n;
            continue;
          }
          if (r) {
            replace_[n] = r;
            continue;
          }
        }
        stack.emplace_back(n, true);
        if (skips_body(n)) replace_[n.src(0)] = n.src(0);
        for (std::size_t i = n.size(); i-- > 0;)
          if (!replace_.count(n.src(i))) stack.emplace_back(n.src(i), false);
      } else {
        std::vector<UOp> src;
        src.reserve(n.size());
        for (const auto &x : n.src()) {
          auto it = replace_.find(x);
          src.push_back(it == replace_.end() ? x : it->second);
        }
        UOp rebuilt = n.with_src(std::move(src));
        if (post_)
          if (UOp r = post_rewrite(rebuilt)) rebuilt = r;
        replace_[n] = rebuilt;
      }
    }
    auto it = replace_.find(root);
    return it == replace_.end() ? root : it->second;
  }

  const PatternMatcher *post_;
  const PatternMatcher *pre_;
  const RewriteOptions &options_;
  StepRecorder *recorder_;
  std::unordered_map<UOp, UOp> replace_;
  std::unordered_map<UOp, UOp> pre_cache_;
  std::unordered_map<UOp, std::vector<Item>> waitlist_;
  RecentRules recent_;
  std::size_t firings_ = 0;
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
