#include "wavescope/compiler/rewrite/pattern_matcher.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>

namespace wavescope::compiler::rewrite {

struct CompiledRule::Node {
  OpSet ops;
  bool any_op = true;
  DTypeList dtypes;
  std::optional<Arg> arg, tag;
  int slot = -1;
  Pat::SrcKind kind = Pat::SrcKind::Any;
  bool any_len = false;
  std::vector<int> children;             // Tuple: by position; Repeat: the one pattern
  std::vector<std::vector<int>> orders;  // Permutations: each distinct order of the children
  std::vector<int> alternatives;
  bool leaf = false;  // no alternatives, any sources: matches a node in at most one way
};

namespace {

constexpr std::size_t kMaxSlots = 32;

// A non-owning reference to a callable returning bool (the match continuation).
class Continuation {
public:
  template <class F>
  explicit Continuation(F &f)
      : object_(&f), call_([](void *o) { return (*static_cast<F *>(o))(); }) {}
  bool operator()() const { return call_(object_); }

private:
  void *object_;
  bool (*call_)(void *);
};

struct MatchState {
  const std::vector<CompiledRule::Node> *nodes;
  const UOp *slots[kMaxSlots];
};

bool match_node(int index, const UOp &node, MatchState &st, const Continuation &k);

// The pattern's own checks on the node: op, dtype, arg and tag (not its sources or name).
// (Inlined into its callers: it runs for every pattern node tried, mostly failing at once.)
[[gnu::always_inline]] inline bool fields_match(const CompiledRule::Node &p, const UOp &node) {
  if (!p.any_op && !p.ops.contains(node.op())) return false;
  if (!p.dtypes.empty() &&
      std::find(p.dtypes.begin(), p.dtypes.end(), node.dtype()) == p.dtypes.end())
    return false;
  if (p.arg && !value_equals(*p.arg, node.arg())) return false;
  if (p.tag && !value_equals(*p.tag, node.tag())) return false;
  return true;
}

// A leaf pattern against a node, binding its name when it is new (then *bound = its slot).
bool match_leaf(const CompiledRule::Node &p, const UOp &node, MatchState &st, int *bound) {
  if (!fields_match(p, node)) return false;
  if (p.slot >= 0) {
    const UOp *&slot = st.slots[p.slot];
    if (slot) return *slot == node;  // a repeated name must be the same node
    slot = &node;
    *bound = p.slot;
  }
  return true;
}

bool match_sequence(const std::vector<int> &pats, std::size_t i, const UOp &node, MatchState &st,
                    const Continuation &k) {
  // Leading leaves match in place (each in one way only: no continuation needed), the first
  // pattern with sources takes the rest of the sequence as its continuation.
  int bound[kMaxSlots];
  std::size_t nbound = 0, j = i;
  bool ok = true;
  for (; j < pats.size(); ++j) {
    const CompiledRule::Node &p = (*st.nodes)[static_cast<std::size_t>(pats[j])];
    if (!p.leaf) break;
    int slot = -1;
    if (!match_leaf(p, node.src(j), st, &slot)) {
      ok = false;
      break;
    }
    if (slot >= 0) bound[nbound++] = slot;
  }
  if (ok) {
    if (j == pats.size()) {
      ok = k();
    } else {
      auto next = [&]() { return match_sequence(pats, j + 1, node, st, k); };
      ok = match_node(pats[j], node.src(j), st, Continuation(next));
    }
  }
  if (!ok)
    for (std::size_t b = 0; b < nbound; ++b) st.slots[bound[b]] = nullptr;
  return ok;
}

bool match_repeat(int pattern, std::size_t i, const UOp &node, MatchState &st,
                  const Continuation &k) {
  if (i == node.size()) return k();
  auto next = [&]() { return match_repeat(pattern, i + 1, node, st, k); };
  return match_node(pattern, node.src(i), st, Continuation(next));
}

bool match_node(int index, const UOp &node, MatchState &st, const Continuation &k) {
  const CompiledRule::Node &p = (*st.nodes)[static_cast<std::size_t>(index)];
  if (!p.alternatives.empty()) {
    // A name on an alternation captures whichever alternative matched.
    bool bound_here = false;
    if (p.slot >= 0) {
      const UOp *&slot = st.slots[p.slot];
      if (slot && !(*slot == node)) return false;
      if (!slot) {
        slot = &node;
        bound_here = true;
      }
    }
    for (int alt : p.alternatives)
      if (match_node(alt, node, st, k)) return true;
    if (bound_here) st.slots[p.slot] = nullptr;
    return false;
  }
  if (!fields_match(p, node)) return false;
  if (p.kind == Pat::SrcKind::Tuple) {
    if (p.any_len ? node.size() < p.children.size() : node.size() != p.children.size())
      return false;
  } else if (p.kind == Pat::SrcKind::Permutations && node.size() != p.children.size()) {
    return false;
  }
  bool bound_here = false;
  if (p.slot >= 0) {
    const UOp *&slot = st.slots[p.slot];
    if (slot) {
      if (!(*slot == node)) return false;  // a repeated name must be the same node
    } else {
      slot = &node;
      bound_here = true;
    }
  }
  bool ok = false;
  switch (p.kind) {
  case Pat::SrcKind::Any: ok = k(); break;
  case Pat::SrcKind::Tuple: ok = match_sequence(p.children, 0, node, st, k); break;
  case Pat::SrcKind::Permutations:
    for (const auto &order : p.orders)
      if ((ok = match_sequence(order, 0, node, st, k))) break;
    break;
  case Pat::SrcKind::Repeat: ok = match_repeat(p.children[0], 0, node, st, k); break;
  }
  if (!ok && bound_here) st.slots[p.slot] = nullptr;
  return ok;
}

std::string file_name(const char *path) {
  std::string_view p(path);
  const auto slash = p.find_last_of('/');
  return std::string(slash == std::string_view::npos ? p : p.substr(slash + 1));
}

class RuleCompiler {
public:
  RuleCompiler(std::vector<CompiledRule::Node> &nodes, std::vector<std::string> &slots,
               const std::string &rule_name)
      : nodes_(nodes), slots_(slots), rule_name_(rule_name) {}

  int compile(const Pat &p) {
    const int index = static_cast<int>(nodes_.size());
    nodes_.emplace_back();
    CompiledRule::Node n;
    for (const auto &alt : p.alternatives) n.alternatives.push_back(compile(alt));
    n.ops = p.ops;
    n.any_op = p.ops.empty();
    n.dtypes = p.dtypes;
    n.arg = p.arg;
    n.tag = p.tag;
    n.kind = p.src_kind;
    n.any_len = p.any_len;
    n.leaf = p.alternatives.empty() && p.src_kind == Pat::SrcKind::Any;
    if (!p.name.empty()) n.slot = slot_for(p.name);
    for (const auto &s : p.src) n.children.push_back(compile(s));
    if (p.src_kind == Pat::SrcKind::Repeat && n.children.size() != 1)
      throw Error(ErrorKind::Internal, "rule '" + rule_name_ + "': a repeat needs one pattern");
    if (p.src_kind == Pat::SrcKind::Permutations) {
      // Every order of the children, without orders that are the same pattern sequence.
      std::vector<std::size_t> perm(p.src.size());
      std::iota(perm.begin(), perm.end(), 0);
      std::vector<std::vector<const Pat *>> seen;
      do {
        std::vector<const Pat *> seq;
        for (auto i : perm) seq.push_back(&p.src[i]);
        const bool duplicate = std::any_of(seen.begin(), seen.end(), [&](const auto &other) {
          for (std::size_t i = 0; i < seq.size(); ++i)
            if (!(*seq[i] == *other[i])) return false;
          return true;
        });
        if (duplicate) continue;
        seen.push_back(seq);
        std::vector<int> order;
        for (auto i : perm) order.push_back(n.children[i]);
        n.orders.push_back(std::move(order));
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
    nodes_[static_cast<std::size_t>(index)] = std::move(n);
    return index;
  }

private:
  int slot_for(const std::string &name) {
    for (std::size_t i = 0; i < slots_.size(); ++i)
      if (slots_[i] == name) return static_cast<int>(i);
    if (slots_.size() == kMaxSlots)
      throw Error(ErrorKind::Internal, "rule '" + rule_name_ + "' captures too many names");
    slots_.push_back(name);
    return static_cast<int>(slots_.size() - 1);
  }

  std::vector<CompiledRule::Node> &nodes_;
  std::vector<std::string> &slots_;
  const std::string &rule_name_;
};

// The ops a node's direct children must include for the pattern to match (spec §2.3).
OpSet early_reject_set(const Pat &p) {
  OpSet required;
  if (!p.alternatives.empty()) return required;
  if (p.src_kind != Pat::SrcKind::Tuple && p.src_kind != Pat::SrcKind::Permutations)
    return required;
  for (const auto &child : p.src)
    if (child.alternatives.empty())
      if (auto only = child.ops.single()) required.add(*only);
  return required;
}

OpSet pattern_root_ops(const Pat &p) {
  if (p.alternatives.empty()) return p.ops;
  OpSet all;
  for (const auto &alt : p.alternatives) {
    const OpSet ops = pattern_root_ops(alt);
    if (ops.empty()) return {};
    all = all | ops;
  }
  return all;
}

// A result standing for a sized-int node must keep its wrapped value (see the constructor).
UOp keep_wrapping(const UOp &node, UOp out) {
  const DType t = node.dtype();
  // WHERE and TRUNC pass a value through as it is; only computing ops wrap.
  if (!is_sized_int(t) || node.op() == Op::WHERE || node.op() == Op::TRUNC) return out;
  if (auto v = out.const_value(); v && out.is_const()) return const_int(*v, t);
  const bool wraps = (ops::kBinary.contains(out.op()) && !ops::kComparison.contains(out.op())) ||
                     out.op() == Op::NEG || out.op() == Op::CAST || out.op() == Op::MULACC;
  if (out.dtype() == t && wraps) return out;
  if (out.vmin() >= dtype_min(t) && out.vmax() <= dtype_max(t)) return out;
  return {};
}

}  // namespace

std::string CompiledRule::location_text() const {
  return fmt::format("{}:{}", file_name(location_.file_name()), location_.line());
}

const UOp *Match::find(std::string_view name) const {
  // Capture names are short (mostly one letter): length and first letter decide most compares.
  const std::size_t n = name.size();
  for (std::size_t i = 0; i < rule_.slot_names_.size(); ++i) {
    const std::string &s = rule_.slot_names_[i];
    if (s.size() == n && (n == 0 || (s[0] == name[0] && s.compare(1, n - 1, name.substr(1)) == 0)))
      return slots_[i];
  }
  return nullptr;
}

const UOp &Match::operator[](std::string_view name) const {
  if (const UOp *u = find(name)) return *u;
  throw Error(ErrorKind::Internal,
              fmt::format("rule '{}' has no capture named '{}'", rule_.name(), name));
}

Int Match::value(std::string_view name) const {
  const UOp &u = (*this)[name];
  if (auto v = u.const_value()) return *v;
  throw Error(ErrorKind::Internal, fmt::format("rule '{}': capture '{}' is not an integer constant",
                                               rule_.name(), name));
}

Rule rule(std::string name, Pat pattern, RuleFn fn, std::source_location location) {
  return Rule{std::move(name), std::move(pattern), std::move(fn), location};
}

PatternMatcher::PatternMatcher(std::string name, std::vector<Rule> rules, bool keep_wrapping)
    : name_(std::move(name)) {
  for (auto &r : rules) {
    auto compiled = std::make_shared<CompiledRule>();
    compiled->name_ = r.name;
    compiled->family_ = name_;
    compiled->location_ = r.location;
    compiled->keep_wrapping_ = keep_wrapping;
    compiled->fn_ = std::move(r.fn);
    compiled->root_ops_ = pattern_root_ops(r.pattern);
    if (compiled->root_ops_.empty())
      throw Error(ErrorKind::Internal,
                  fmt::format("rule '{}' in {} ({}): the root pattern must name "
                              "its op(s)",
                              r.name, name_, compiled->location_text()));
    compiled->early_reject_ = early_reject_set(r.pattern);
    RuleCompiler(compiled->nodes_, compiled->slot_names_, compiled->name_).compile(r.pattern);
    rules_.push_back(std::move(compiled));
  }
  index_rules();
}

void PatternMatcher::index_rules() {
  by_op_.assign(kOpCount, {});
  root_ops_ = {};
  for (const auto &r : rules_) root_ops_ = root_ops_ | r->root_ops_;
  for (const auto &r : rules_)
    for (std::size_t op = 0; op < kOpCount; ++op)
      if (r->root_ops_.contains(static_cast<Op>(op))) by_op_[op].push_back(r.get());
}

PatternMatcher operator+(const PatternMatcher &a, const PatternMatcher &b) {
  PatternMatcher m;
  m.name_ = a.name_.empty() ? b.name_ : b.name_.empty() ? a.name_ : a.name_ + "+" + b.name_;
  m.rules_ = a.rules_;
  m.rules_.insert(m.rules_.end(), b.rules_.begin(), b.rules_.end());
  m.index_rules();
  return m;
}

UOp PatternMatcher::rewrite(const UOp &node, ContextRef context, StepRecorder *recorder,
                            const CompiledRule **fired) const {
  if (by_op_.empty()) return {};
  const auto &candidates = by_op_[static_cast<std::size_t>(node.op())];
  if (candidates.empty()) return {};
  const OpSet child_ops = node.src_ops();
  MatchState st;
  for (const CompiledRule *r : candidates) {
    if (!r->early_reject_.is_subset_of(child_ops)) continue;
    std::chrono::steady_clock::time_point start;
    if (recorder) start = std::chrono::steady_clock::now();
    st.nodes = &r->nodes_;
    std::fill_n(st.slots, r->slot_names_.size(), nullptr);
    UOp result;
    auto accept = [&]() {
      UOp out = r->fn_(Match(*r, st.slots, node, context));
      if (!out || out == node) return false;
      if (r->keep_wrapping_ && !(out = keep_wrapping(node, std::move(out)))) return false;
      result = std::move(out);
      return true;
    };
    bool matched = false;
    if (recorder) {
      try {
        matched = match_node(0, node, st, Continuation(accept));
      } catch (const std::exception &e) {
        recorder->error(node, *r, e.what());
        throw;
      }
    } else {
      matched = match_node(0, node, st, Continuation(accept));
    }
    if (matched) {
      if (fired) *fired = r;
      if (recorder)
        recorder->step(node, result, *r,
                       std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now() - start));
      return result;
    }
  }
  return {};
}

}  // namespace wavescope::compiler::rewrite
