#pragma once
// Rules and rule sets (spec §2.2-§2.4). A rule is a pattern, a callback over the pattern's
// captures, a short name and the source location where it was written:
//
//   rule("x*1 -> x", var("x") * 1, [](const Match &m) { return m["x"]; })
//
// A PatternMatcher is an ordered, named list of rules, compiled once: capture names become slots,
// op sets and dtype lists become masks, every rule is filed under each op of its root, and each
// carries an early-reject set (the ops its direct children must include). `rewrite(node)` tries
// the rules filed under node.op in order; for each rule every binding of the pattern is offered
// to the callback until one returns a node that is neither null nor the node itself.
// Matchers concatenate (`a + b` keeps a's rules first): one engine, many small named rule sets.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/rewrite/pattern.hpp"

namespace wavescope::compiler::rewrite {

// A type-checked reference to the caller's context object (tinygrad's `ctx`).
class ContextRef {
public:
  ContextRef() = default;
  template <class T>
  requires(!std::is_same_v<std::remove_cv_t<T>, ContextRef>) ContextRef(T &object)
      : object_(&object), type_(&typeid(T)) {}  // NOLINT: implicit on purpose
  explicit operator bool() const { return object_ != nullptr; }
  template <class T> T &get() const {
    if (!object_ || *type_ != typeid(T))
      throw Error(ErrorKind::Internal, std::string("rewrite context is not a ") + typeid(T).name());
    return *static_cast<T *>(object_);
  }

private:
  void *object_ = nullptr;
  const std::type_info *type_ = nullptr;
};

class CompiledRule;

// The captures of one successful match, handed to a rule's callback.
class Match {
public:
  // The node captured under `name`; throws wavescope::Error(Internal) if the pattern has none.
  const UOp &operator[](std::string_view name) const;
  // The captured node, or nullptr when `name` was not bound (e.g. in another alternative).
  const UOp *find(std::string_view name) const;
  // The integer value of a captured CONST (bools as 0/1).
  Int value(std::string_view name) const;
  const UOp &root() const { return *root_; }
  template <class T> T &context() const { return context_.get<T>(); }
  bool has_context() const { return static_cast<bool>(context_); }

private:
  friend class PatternMatcher;
  Match(const CompiledRule &rule, const UOp *const *slots, const UOp &root, ContextRef context)
      : rule_(rule), slots_(slots), root_(&root), context_(context) {}
  const CompiledRule &rule_;
  const UOp *const *slots_;
  const UOp *root_;
  ContextRef context_;
};

using RuleFn = std::function<UOp(const Match &)>;

struct Rule {
  std::string name;
  Pat pattern;
  RuleFn fn;
  std::source_location location;
};

Rule rule(std::string name, Pat pattern, RuleFn fn,
          std::source_location location = std::source_location::current());

// Receives every rule that fired (tracing); see rewrite_trace.hpp.
class StepRecorder {
public:
  virtual ~StepRecorder() = default;
  virtual void step(const UOp &before, const UOp &after, const CompiledRule &rule,
                    std::chrono::nanoseconds spent) = 0;
  virtual void error(const UOp &before, const CompiledRule &rule, const std::string &what) = 0;
};

// A rule as compiled into a matcher.
class CompiledRule {
public:
  const std::string &name() const { return name_; }
  const std::string &family() const { return family_; }  // the rule set it was written in
  const std::source_location &location() const { return location_; }
  // "file.cpp:88" (file name without directories).
  std::string location_text() const;
  OpSet root_ops() const { return root_ops_; }
  OpSet early_reject() const { return early_reject_; }

  struct Node;  // a compiled pattern node (defined where patterns are compiled)

private:
  friend class PatternMatcher;
  friend class Match;
  std::string name_, family_;
  std::source_location location_;
  RuleFn fn_;
  std::vector<Node> nodes_;  // nodes_[0] is the root pattern
  std::vector<std::string> slot_names_;
  OpSet root_ops_, early_reject_;
  bool keep_wrapping_ = false;
};

class PatternMatcher {
public:
  PatternMatcher() = default;
  // Compiles the rules; a rule whose root pattern names no op is refused (wavescope::Error).
  // With `keep_wrapping` a rule's result may not silently drop the wrap-around of a sized-int
  // node: a result of another dtype is accepted only when its value range fits the node's dtype
  // (constants are re-typed, wrapping), else the binding is declined. The simplifier's families
  // set it; a lowering pass that changes dtypes on purpose does not.
  PatternMatcher(std::string name, std::vector<Rule> rules, bool keep_wrapping = false);

  // a's rules, then b's; the name is "a+b".
  friend PatternMatcher operator+(const PatternMatcher &a, const PatternMatcher &b);

  // The first rule result that is neither null nor `node`, or a null UOp ("no change"). When a
  // rule fires, `fired` (if given) receives it.
  UOp rewrite(const UOp &node, ContextRef context = {}, StepRecorder *recorder = nullptr,
              const CompiledRule **fired = nullptr) const;

  const std::string &name() const { return name_; }
  std::size_t size() const { return rules_.size(); }
  // The ops some rule is filed under: a node of another op is never rewritten by this matcher.
  OpSet root_ops() const { return root_ops_; }
  const std::vector<std::shared_ptr<const CompiledRule>> &rules() const { return rules_; }

private:
  void index_rules();
  std::string name_;
  std::vector<std::shared_ptr<const CompiledRule>> rules_;
  std::vector<std::vector<const CompiledRule *>> by_op_;  // indexed by Op
  OpSet root_ops_;
};

}  // namespace wavescope::compiler::rewrite
