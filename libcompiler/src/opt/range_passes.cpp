// Stages 4, 6 and 8 of the lowering: split ranges, simplify ranges, postopt symbolic
// (range_passes.hpp).

#include "wavescope/compiler/opt/range_passes.hpp"

#include <algorithm>
#include <map>

#include <llvm/ADT/DenseSet.h>

#include <fmt/format.h>

#include "graph_util.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::opt {
namespace {

using namespace rewrite;
using detail::extent;
using detail::range_arg;

RewriteOptions named(std::string name, ContextRef context = {}) {
  RewriteOptions o;
  o.name = std::move(name);
  o.context = context;
  return o;
}

void push_unique(std::vector<UOp> &list, const UOp &u) {
  if (std::find(list.begin(), list.end(), u) == list.end()) list.push_back(u);
}

std::size_t count_divmod(const UOp &u) {
  // A walk that enters only the subgraphs holding a // or a %.
  const OpSet divmod{Op::FLOORDIV, Op::FLOORMOD};
  if (!u.subtree_ops().intersects(divmod)) return 0;
  std::size_t n = 0;
  llvm::DenseSet<const UOpNode *> seen{u.get()};
  std::vector<const UOp *> stack{&u};
  while (!stack.empty()) {
    const UOp &x = *stack.back();
    stack.pop_back();
    n += x.op() == Op::FLOORDIV || x.op() == Op::FLOORMOD;
    for (const auto &s : x.src())
      if (s.subtree_ops().intersects(divmod) && seen.insert(s.get()).second) stack.push_back(&s);
  }
  return n;
}

// --- split ranges ---------------------------------------------------------------------------

struct SplitContext {
  std::vector<std::pair<UOp, std::int64_t>> marks;  // range -> the modulus it is used with
};

// Gives the ranges new axis ids in the order (axis, part): a range split from axis a sorts where
// a was, its high part first (tinygrad numbers them (a, 0) and (a, 1)).
UOp renumber(const UOp &sink, const std::map<std::int64_t, std::pair<std::int64_t, int>> &parts) {
  std::vector<std::pair<std::pair<std::int64_t, int>, UOp>> keyed;
  for (const auto &r : detail::ranges_in(sink)) {
    const auto a = range_arg(r).axis;
    auto it = parts.find(a);
    keyed.push_back({it == parts.end() ? std::make_pair(a, -1) : it->second, r});
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto &x, const auto &y) { return x.first < y.first; });
  std::unordered_map<UOp, UOp> map;
  for (std::size_t i = 0; i < keyed.size(); ++i) {
    RangeArg a = range_arg(keyed[i].second);
    if (a.axis == static_cast<std::int64_t>(i)) continue;
    a.axis = static_cast<std::int64_t>(i);
    map.emplace(keyed[i].second, keyed[i].second.with_arg(a));
  }
  return map.empty() ? sink : substitute(sink, map);
}

UOp do_split(SplitContext &ctx, const UOp &sink) {
  if (ctx.marks.empty()) return {};
  std::unordered_map<UOp, UOp> map;
  std::map<std::int64_t, std::pair<std::int64_t, int>> parts;
  std::int64_t fresh = std::int64_t{1} << 40;
  for (const auto &[r, c] : ctx.marks) {
    const auto &a = range_arg(r);
    const DType t = r.dtype();
    const UOp hi = range(const_int(extent(r) / c, t), fresh, a.type);
    const UOp lo = range(const_int(c, t), fresh + 1, a.type);
    parts[fresh] = {a.axis, 0};
    parts[fresh + 1] = {a.axis, 1};
    fresh += 2;
    map.emplace(r, hi * const_int(c, t) + lo);
  }
  ctx.marks.clear();
  // (tinygrad simplifies here too; "initial symbolic" runs right after and does the same.)
  return renumber(substitute(sink, map), parts);
}

const PatternMatcher &split_rules() {
  static const PatternMatcher pm(
      "split ranges",
      {
          rule("mark r % c (c divides the extent of r)",
               floormod(pat_any_src(Op::RANGE).named("r"), cvar("c")),
               [](const Match &m) -> UOp {
                 auto &ctx = m.context<SplitContext>();
                 const UOp &r = m["r"];
                 if (!std::holds_alternative<RangeArg>(r.arg())) return {};
                 const AxisType t = range_arg(r).type;
                 if (t == AxisType::Warp || t == AxisType::Device) return {};
                 const auto c = m["c"].const_value();
                 const std::int64_t e = extent(r);
                 if (!c || !fits_int64(*c) || *c < 1 || e < 1 || e % static_cast<std::int64_t>(*c))
                   return {};
                 for (const auto &[seen, _] : ctx.marks)
                   if (seen == r) return {};
                 ctx.marks.emplace_back(r, static_cast<std::int64_t>(*c));
                 return {};
               }),
          rule("SINK: r -> r_hi*c + r_lo for every marked range", pat_any_src(Op::SINK).named("s"),
               [](const Match &m) { return do_split(m.context<SplitContext>(), m["s"]); }),
      });
  return pm;
}

// --- simplify ranges ------------------------------------------------------------------------

struct SimplifyContext {
  std::vector<std::pair<UOp, UOp>> extents;  // range -> the extent it can shrink to
  void set(const UOp &r, const UOp &e) {
    for (auto &[k, v] : extents)
      if (k == r) {
        v = e;
        return;
      }
    extents.emplace_back(r, e);
  }
  const UOp *get(const UOp &r) const {
    for (const auto &[k, v] : extents)
      if (k == r) return &v;
    return nullptr;
  }
};

struct MergeContext {
  std::unordered_map<UOp, UOp> map;  // r0 -> merged // s1, r1 -> merged % s1
};

// A merge's trial: the two ranges replaced, symbolic, flattening.
const PatternMatcher &merge_rules() {
  static const PatternMatcher pm =
      PatternMatcher("substitute", {rule("x -> its replacement", pat_any_src(Op::RANGE).named("x"),
                                         [](const Match &m) -> UOp {
                                           const auto &map = m.context<MergeContext>().map;
                                           auto it = map.find(m["x"]);
                                           return it == map.end() ? UOp{} : it->second;
                                         })}) +
      symbolic::symbolic() + flatten_range_rules();
  return pm;
}

UOp merge_adjacent(const UOp &orig) {
  for (std::size_t k = 1; k < orig.size(); ++k)
    if (orig.src(k).op() != Op::RANGE || extent(orig.src(k)) < 1) return {};
  const std::vector<UOp> ended(orig.src().begin() + 1, orig.src().end());
  std::vector<std::pair<UOp, UOp>> pairs;
  if (orig.op() == Op::END) {
    for (std::size_t i = 0; i + 1 < ended.size(); ++i) pairs.emplace_back(ended[i], ended[i + 1]);
  } else {
    for (const auto &a : ended)
      for (const auto &b : ended)
        if (!(a == b)) pairs.emplace_back(a, b);
  }
  UOp u = orig;
  for (const auto &[r0, r1] : pairs) {
    const auto in_u = [&](const UOp &r) {
      return std::find(u.src().begin() + 1, u.src().end(), r) != u.src().end();
    };
    if (!in_u(r0) || !in_u(r1) || range_arg(r0).type != range_arg(r1).type) continue;
    // Both or neither must be open at every REDUCE below (merging must not move a range into or
    // out of a reduce).
    if (u.subtree_ops().contains(Op::REDUCE)) {
      const auto nodes = toposort(u);
      const auto open = kernel::open_ranges(nodes);
      bool same = true;
      for (const auto &x : nodes) {
        if (x.op() != Op::REDUCE) continue;
        const auto &o = open.at(x.get());
        const bool has0 = std::find(o.begin(), o.end(), r0.get()) != o.end();
        const bool has1 = std::find(o.begin(), o.end(), r1.get()) != o.end();
        same &= has0 == has1;
      }
      if (!same) continue;
    }
    const std::int64_t s0 = extent(r0), s1 = extent(r1);
    const UOp merged = r0.with_src({const_int(s0 * s1, r0.src(0).dtype())});
    MergeContext ctx{{{r0, floordiv(merged, s1)}, {r1, floormod(merged, s1)}}};
    const UOp candidate = graph_rewrite(
        u, merge_rules(),
        named(fmt::format("check_merge_{}_{}", range_arg(r0).axis, range_arg(r1).axis), ctx));
    if (count_divmod(candidate) <= count_divmod(u)) u = candidate;
  }
  return u == orig ? UOp{} : u;
}

void mark_gated(SimplifyContext &ctx, const UOp &index) {
  if (index.size() < 2) return;
  const UOp &i = index.src(1);
  const UOp x = detail::index_of(i);
  std::vector<UOp> guarded;
  if (UOp g = detail::gate_of(i)) {
    std::vector<UOp> clauses{g};
    for (std::size_t k = 0; k < clauses.size(); ++k)
      if (clauses[k].op() == Op::AND) {
        clauses.push_back(clauses[k].src(0));
        clauses.push_back(clauses[k].src(1));
      }
    for (const auto &v : clauses) {
      if (v.op() != Op::CMPLT || v.src(0).op() != Op::RANGE || !v.src(1).is_const()) continue;
      const UOp &r = v.src(0);
      const auto c = v.src(1).const_value();
      if (!c || *c >= extent(r) || *c < 1) continue;
      guarded.push_back(r);
      const UOp *prev = ctx.get(r);
      if (!prev || (prev->const_value() && *prev->const_value() < *c)) ctx.set(r, v.src(1));
    }
  }
  for (const auto &r : detail::ranges_in(x))
    if (std::find(guarded.begin(), guarded.end(), r) == guarded.end()) ctx.set(r, r.src(0));
}

UOp shrink_guarded(SimplifyContext &ctx, const UOp &sink) {
  std::unordered_map<UOp, UOp> map;
  for (const auto &[r, e] : ctx.extents)
    if (!(e == r.src(0))) map.emplace(r, r.with_src({e}));
  ctx.extents.clear();
  if (map.empty()) return {};
  return symbolic::simplify(substitute(sink, map), symbolic::sym(), "simplify");
}

const PatternMatcher &simplify_range_rules() {
  static const PatternMatcher pm(
      "simplify ranges",
      {
          rule("merge adjacent ranges of one type when no div/mod is added",
               pat_any_src({Op::END, Op::REDUCE}).named("u"),
               [](const Match &m) { return merge_adjacent(m["u"]); }),
          rule("mark the ranges an INDEX guards by r < c", pat_any_src(Op::INDEX).named("i"),
               [](const Match &m) -> UOp {
                 mark_gated(m.context<SimplifyContext>(), m["i"]);
                 return {};
               }),
          rule("reduce ranges do not shrink", pat_any_src(Op::REDUCE).named("r"),
               [](const Match &m) -> UOp {
                 auto &ctx = m.context<SimplifyContext>();
                 for (std::size_t k = 1; k < m["r"].size(); ++k)
                   ctx.set(m["r"].src(k), m["r"].src(k).src(0));
                 return {};
               }),
          rule("SINK: shrink every range guarded everywhere", pat_any_src(Op::SINK).named("s"),
               [](const Match &m) { return shrink_guarded(m.context<SimplifyContext>(), m["s"]); }),
      });
  return pm;
}

// --- postopt symbolic -----------------------------------------------------------------------

UOp reduce_unparented(const UOp &red) {
  const auto op = std::get<ReduceArg>(red.arg()).op;
  const UOp &x = red.src(0);
  const auto used = detail::open_ranges_of(x);
  std::vector<UOp> parented, unparented;
  for (std::size_t k = 1; k < red.size(); ++k) {
    const UOp &r = red.src(k);
    if (r.op() != Op::RANGE) return {};
    (std::find(used.begin(), used.end(), r) != used.end() ? parented : unparented).push_back(r);
  }
  if (unparented.empty()) return {};
  if (op == Op::MUL) return {};  // x ** n: not worth a POW
  std::vector<UOp> src{x};
  src.insert(src.end(), parented.begin(), parented.end());
  UOp out = parented.empty() && red.dtype() == x.dtype() ? x : red.with_src(std::move(src));
  if (op == Op::ADD)
    for (const auto &r : unparented) {
      const std::int64_t n = extent(r);
      if (n < 0) return {};
      out = alu(Op::MUL,
                {out, is_float(out.dtype()) ? const_float(static_cast<double>(n), out.dtype())
                                            : const_int(n, out.dtype())});
    }
  return out;
}

const PatternMatcher &reduce_unparented_rules() {
  static const PatternMatcher pm(
      "reduce unparented",
      {rule("REDUCE over ranges its value does not use: drop them (ADD: times the extent)",
            pat_any_src(Op::REDUCE).named("r"),
            [](const Match &m) { return reduce_unparented(m["r"]); })});
  return pm;
}

}  // namespace

const PatternMatcher &flatten_range_rules() {
  static const PatternMatcher pm(
      "flatten range",
      {rule("END/REDUCE close the RANGEs of their range operands",
            pat_any_src({Op::END, Op::REDUCE}).named("u"), [](const Match &m) -> UOp {
              const UOp &u = m["u"];
              std::vector<UOp> rs;
              bool flat = true;
              for (std::size_t k = 1; k < u.size(); ++k) {
                const UOp &s = u.src(k);
                if (s.op() == Op::RANGE) {
                  flat &= std::find(rs.begin(), rs.end(), s) == rs.end();
                  push_unique(rs, s);
                } else {
                  flat = false;
                  for (const auto &r : detail::ranges_in(s)) push_unique(rs, r);
                }
              }
              if (flat) return {};
              std::stable_sort(rs.begin(), rs.end(), detail::range_before);
              if (u.op() == Op::END && rs.empty()) return u.src(0);
              std::vector<UOp> src{u.src(0)};
              src.insert(src.end(), rs.begin(), rs.end());
              return u.with_src(std::move(src));
            })});
  return pm;
}

UOp split_ranges(const UOp &sink) {
  SplitContext ctx;
  static const PatternMatcher pm = split_rules() + flatten_range_rules();
  return graph_rewrite(sink, pm, named("split ranges", ctx));
}

UOp simplify_ranges(const UOp &sink) {
  SimplifyContext ctx;
  static const PatternMatcher pm = flatten_range_rules() + simplify_range_rules();
  return graph_rewrite(sink, pm, named("simplify ranges", ctx));
}

UOp postopt_symbolic(const UOp &sink) {
  static const PatternMatcher pm =
      symbolic::sym() + flatten_range_rules() + reduce_unparented_rules();
  RewriteOptions o = named("postopt symbolic");
  o.memoize = true;  // static rules, no context
  return graph_rewrite(sink, pm, o);
}

}  // namespace wavescope::compiler::opt
