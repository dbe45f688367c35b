// Stage 15: memory coalescing (passes.hpp).

#include <algorithm>
#include <map>
#include <unordered_map>

#include "../symbolic/algebra.hpp"
#include "ir/graph_having.hpp"
#include "lower_util.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/lower/passes.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;
using Replacements = std::unordered_map<const UOpNode *, UOp>;

bool vectorizable(DType t) {
  return t == dtypes::float32 || t == dtypes::int32 || t == dtypes::uint32;
}

struct Access {
  Int offset;
  UOp node;   // the LOAD or STORE
  UOp root;   // the index without its constant offset (null for a constant index)
  UOp valid;  // the gate (null for none)
  UOp clamp;  // the element read where the gate fails, for a clamped read (null: none read)
};

struct GroupKey {
  Op op;
  const UOpNode *mem, *root, *valid, *clamp;
  bool operator<(const GroupKey &o) const {
    return std::tie(op, mem, root, valid, clamp) < std::tie(o.op, o.mem, o.root, o.valid, o.clamp);
  }
};

// A read the front end clamps where a view is padded, LOAD(INDEX(buf, where(v, i, c))) with c
// a constant, whose every user is where(v, LOAD, ..): its value counts only where v holds, so it
// is a read gated by v (tinygrad's form, where(v, i, invalid)) and coalesces with its neighbours
// under the same gate.
UOp clamp_gate(const UOp &load, const UOp &index,
               const std::unordered_map<const UOpNode *, std::vector<UOp>> &users) {
  if (index.op() != Op::WHERE || index.size() != 3 || !index.src(2).is_const()) return {};
  const UOp &valid = index.src(0);
  const auto it = users.find(load.get());
  if (it == users.end() || it->second.empty()) return {};
  for (const UOp &user : it->second)
    if (user.op() != Op::WHERE || user.size() != 3 || user.src(0) != valid || user.src(1) != load ||
        user.src(2) == load)
      return {};
  return valid;
}

// Whether a vector of `len` elements read at the constant `clamp` is aligned and in `mem`.
bool clamp_fits(const UOp &clamp, const UOp &mem, unsigned len) {
  if (!clamp || !clamp.const_value()) return false;
  const UOp buffer = detail::buffer_of(mem);
  if (!buffer || buffer.size() == 0) return false;
  const auto size = buffer.src(0).const_value();
  const Int c = *clamp.const_value();
  return size && c >= 0 && floor_mod(c, Int(len)) == 0 && c + Int(len) <= *size;
}

// Plans the vector accesses of the graph: which LOAD/STORE becomes what.
Replacements plan(const UOp &sink, const RenderTarget &target, Op which) {
  std::map<GroupKey, std::vector<Access>> groups;
  // the LOADs (STOREs) and the nodes above them: every user of a LOAD is one of them
  const std::vector<UOp> nodes = toposort_having(sink, OpSet(which));
  std::unordered_map<const UOpNode *, std::vector<UOp>> users;  // of the LOADs
  if (which == Op::LOAD)
    for (const UOp &u : nodes)
      for (const UOp &s : u.src())
        if (s.op() == Op::LOAD) users[s.get()].push_back(u);
  for (const UOp &u : nodes) {
    const bool load = which == Op::LOAD && u.op() == Op::LOAD && u.size() == 1;
    const bool store = which == Op::STORE && u.op() == Op::STORE && u.size() == 2;
    if (!load && !store) continue;
    const UOp &a = u.src(0);
    if (a.op() != Op::INDEX || a.size() != 2 || !detail::buffer_of(a.src(0))) continue;
    const AddrSpace space = detail::addrspace_of(a.src(0));
    if (space != AddrSpace::Global && space != AddrSpace::Local) continue;
    if (!vectorizable(a.dtype()) || (store && u.src(1).dtype().is_vector())) continue;
    auto [idx, valid] = detail::split_gate(a.src(1));
    UOp clamp;
    if (!valid && load)
      if (UOp v = clamp_gate(u, a.src(1), users)) {
        valid = v;
        idx = a.src(1).src(1);
        clamp = a.src(1).src(2);
      }
    if (!is_int(idx.dtype()) || idx.dtype().is_vector()) continue;
    UOp root;
    Int off = 0;
    if (idx.op() == Op::ADD && idx.src(1).is_const() && idx.src(1).const_value()) {
      root = idx.src(0);
      off = *idx.src(1).const_value();
    } else if (idx.is_const() && idx.const_value()) {
      off = *idx.const_value();
    } else {
      root = idx;
    }
    groups[{u.op(), a.src(0).get(), root.get(), valid.get(), clamp.get()}].push_back(
        {off, u, root, valid, clamp});
  }

  Replacements out;
  for (auto &[key, accesses] : groups) {
    std::stable_sort(accesses.begin(), accesses.end(),
                     [](const Access &x, const Access &y) { return x.offset < y.offset; });
    const UOp mem = accesses.front().node.src(0).src(0);
    const UOp &first_index = accesses.front().node.src(0);
    const DType t = first_index.dtype();
    const UOp valid = accesses.front().valid;
    const UOp first_idx = valid ? first_index.src(1).src(1) : first_index.src(1);
    const UOp root = accesses.front().root;
    // distinct offsets, each with its accesses
    std::vector<std::pair<Int, std::vector<UOp>>> offsets;
    for (const auto &acc : accesses) {
      if (offsets.empty() || offsets.back().first != acc.offset)
        offsets.push_back({acc.offset, {}});
      offsets.back().second.push_back(acc.node);
    }
    std::size_t i = 0;
    while (i < offsets.size()) {
      std::size_t run = 1;  // consecutive offsets from i
      while (i + run < offsets.size() && offsets[i + run].first == offsets[i].first + Int(run))
        ++run;
      const Int off = offsets[i].first;
      const UOp start = root ? (off == 0 ? root : root + const_int(off, root.dtype()))
                             : const_int(off, first_idx.dtype());
      unsigned len = 1;
      for (unsigned w : target.vector_widths) {
        if (w > run) continue;
        if (key.op == Op::STORE) {
          bool single = true;
          for (std::size_t k = 0; k < w; ++k) single &= offsets[i + k].second.size() == 1;
          if (!single) continue;
        }
        const bool aligned = start.is_const()
                                 ? floor_mod(*start.const_value(), Int(w)) == 0
                                 : static_cast<bool>(symbolic::detail::divides(start, w));
        if (aligned) {
          len = w;
          break;
        }
      }
      if (len > 1) {
        // A clamped read stays one, of the vector at the clamped element when it is aligned and
        // in the buffer: no branch, its lanes are masked by their users. Else a gated load.
        const UOp &clamp = accesses.front().clamp;
        const UOp gated = !valid                        ? start
                          : clamp_fits(clamp, mem, len) ? where(valid, start, clamp)
                                                        : where(valid, start, invalid());
        const UOp shrink = UOp::make(Op::SHRINK, t.vec(static_cast<std::uint16_t>(len)),
                                     {mem, gated, const_int(len)});
        if (key.op == Op::LOAD) {
          const UOp ld = UOp::make(Op::LOAD, shrink.dtype(), {shrink});
          for (unsigned k = 0; k < len; ++k)
            for (const UOp &n : offsets[i + k].second) out[n.get()] = detail::lane(ld, k);
        } else {
          std::vector<UOp> values;
          for (unsigned k = 0; k < len; ++k)  // in the buffer's element type
            values.push_back(cast(offsets[i + k].second[0].src(1), t));
          const UOp st =
              UOp::make(Op::STORE, dtypes::void_,
                        {shrink, UOp::make(Op::STACK, shrink.dtype(), std::move(values))});
          for (unsigned k = 0; k < len; ++k) out[offsets[i + k].second[0].get()] = st;
        }
      }
      i += len;
    }
  }
  return out;
}

const PatternMatcher &coalesce_rules() {
  static const PatternMatcher pm("memory coalescing",
                                 {
                                     rule("consecutive LOADs -> lanes of one vector LOAD(SHRINK)",
                                          pat_any_src(Op::LOAD).named("x"),
                                          [](const Match &m) -> UOp {
                                            auto &plan = m.context<Replacements>();
                                            auto it = plan.find(m["x"].get());
                                            return it == plan.end() ? UOp{} : it->second;
                                          }),
                                     rule("consecutive STOREs -> one vector STORE(SHRINK, STACK)",
                                          pat_any_src(Op::STORE).named("x"),
                                          [](const Match &m) -> UOp {
                                            auto &plan = m.context<Replacements>();
                                            auto it = plan.find(m["x"].get());
                                            return it == plan.end() ? UOp{} : it->second;
                                          }),
                                 });
  return pm;
}

}  // namespace

UOp memory_coalescing(const UOp &sink, const RenderTarget &target) {
  UOp g = graph_rewrite(sink, symbolic::sym(), detail::symbolic_pass("early symbolic"));
  // loads first: the stores' values may be lanes of the new vector loads
  for (Op which : {Op::LOAD, Op::STORE}) {
    Replacements replacements = plan(g, target, which);
    auto options = detail::pass("memory coalescing");
    options.context = replacements;
    options.walk = true;  // the planned nodes are replaced once; their vector forms stay
    g = graph_rewrite(g, coalesce_rules(), options);
  }
  return g;
}

}  // namespace wavescope::compiler::lower
