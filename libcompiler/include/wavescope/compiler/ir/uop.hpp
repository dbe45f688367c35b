#pragma once
// UOp: the one node type of the IR. Immutable, hash-consed, reference-counted (spec §1.1-§1.2).
//
// Every construction looks up (op, dtype, sources, arg, tag) in a global interning table and
// returns the existing node when an equal one is alive, so structural equality is pointer
// equality, common subexpressions are shared, and graphs are DAGs. A node leaves the table when
// its last reference goes. Each node gets a process-unique, monotonically increasing id.
//
// Thread safety: construction is thread-safe (the table is sharded, each shard behind a mutex) and
// nodes are immutable after construction; everything derived from a node (dtype, range, hash,
// child-op set) is computed when it is built, so all reads are safe from any thread. UOp handles
// may be copied and destroyed concurrently (atomic reference counts). A single UOp handle object
// must not be assigned from two threads at once, as with std::shared_ptr.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <vector>

#include "wavescope/compiler/ir/arg.hpp"
#include "wavescope/compiler/ir/dtype.hpp"
#include "wavescope/compiler/ir/ops.hpp"
#include "wavescope/compiler/ir/wide_int.hpp"

namespace wavescope::compiler {

class UOpNode;

// A reference to a node (null when default-constructed).
class UOp {
public:
  UOp() = default;
  UOp(const UOp &other) noexcept;
  UOp(UOp &&other) noexcept : node_(other.node_) { other.node_ = nullptr; }
  UOp &operator=(const UOp &other) noexcept;
  UOp &operator=(UOp &&other) noexcept;
  ~UOp();

  // The interned node with these fields.
  static UOp make(Op op, DType dtype, std::vector<UOp> src = {}, Arg arg = {}, Arg tag = {});
  // The same, with the dtype derived from op, sources and arg (spec §1.5.6).
  static UOp make(Op op, std::vector<UOp> src, Arg arg = {}, Arg tag = {});

  explicit operator bool() const { return node_ != nullptr; }
  const UOpNode *get() const { return node_; }
  friend bool operator==(const UOp &a, const UOp &b) { return a.node_ == b.node_; }

  Op op() const;
  DType dtype() const;
  const std::vector<UOp> &src() const;
  const UOp &src(std::size_t i) const;
  std::size_t size() const;  // number of sources
  const Arg &arg() const;
  const Arg &tag() const;
  std::uint64_t id() const;  // process-unique, increasing in creation order
  std::size_t hash() const;
  // The conservative value interval (spec §1.7); ±kIntInfinity when unbounded. Bools are 0/1.
  Int vmin() const;
  Int vmax() const;
  OpSet src_ops() const;  // the ops among the sources, for early rejection in matching
  // The ops of this node and of every node below it (through every source), for skipping
  // subgraphs that a matcher has no rule for.
  OpSet subtree_ops() const;

  bool is_const() const { return op() == Op::CONST; }
  bool is_invalid() const;
  // The integer (or bool as 0/1) value of a CONST, if it is one.
  std::optional<Int> const_value() const;
  // The node with some fields changed; the same node when nothing changed. The dtype is
  // re-derived when sources change dtype (as the rewrite engine rebuilds nodes).
  UOp with_src(std::vector<UOp> src) const;
  UOp with_arg(Arg arg) const;
  UOp with_tag(Arg tag) const;
  UOp with_dtype(DType dtype) const;

private:
  explicit UOp(const UOpNode *node) : node_(node) {}  // adopts one reference
  friend class UOpTable;
  const UOpNode *node_ = nullptr;
};

// The dtype a node built from these parts gets when none is given (spec §1.5.6).
DType derive_dtype(Op op, const std::vector<UOp> &src, const Arg &arg);

// How many nodes are alive (interned) right now; for tests and diagnostics.
std::size_t live_node_count();

// --- construction helpers -------------------------------------------------------------------

UOp const_int(Int value, DType dtype = dtypes::index);  // wraps to sized dtypes
UOp const_bool(bool value);
UOp const_float(double value, DType dtype = dtypes::float32);  // rounds to the dtype's grid
UOp invalid();
// A constant with the value of `v` (int or bool) in the dtype of `like` (bool stays bool).
UOp const_like(const UOp &like, Int value);
// A scalar variable: a PARAM in the ALU address space with an inclusive range.
UOp variable(std::string name, Int min, Int max, DType dtype = dtypes::index, Int multiple_of = 1);
// A loop index 0 <= r < extent.
UOp range(const UOp &extent, std::int64_t axis, AxisType type = AxisType::Loop,
          std::string name = {});
// A GPU launch index (gidxN, lidxN) 0 <= s < extent.
UOp special(const UOp &extent, std::string name);

// The name a variable, range or special prints as ("" for other nodes).
std::string node_name(const UOp &u);

}  // namespace wavescope::compiler

template <> struct std::hash<wavescope::compiler::UOp> {
  std::size_t operator()(const wavescope::compiler::UOp &u) const noexcept {
    return std::hash<const void *>{}(u.get());
  }
};

namespace wavescope::compiler {

// The node itself. Only UOp handles refer to it; its fields never change after construction.
class UOpNode {
public:
  Op op;
  DType dtype;
  std::vector<UOp> src;
  Arg arg;
  Arg tag;
  std::uint64_t id = 0;
  std::size_t hash = 0;
  Int vmin = 0, vmax = 0;
  OpSet src_ops;
  OpSet subtree_ops;

  // The rewrite engine's memo of the matchers this node's whole graph is a fixed point of
  // (graph_rewrite.cpp): a generation in the top 24 bits, one bit per matcher below. A fact of
  // the node alone, so any thread may set it (relaxed atomics: a lost bit is only a lost skip).
  mutable std::atomic<std::uint64_t> fixed_points{0};

private:
  friend class UOp;
  friend class UOpTable;
  mutable std::atomic<std::uint32_t> refs_{0};
};

inline Op UOp::op() const { return node_->op; }
inline DType UOp::dtype() const { return node_->dtype; }
inline const std::vector<UOp> &UOp::src() const { return node_->src; }
inline const UOp &UOp::src(std::size_t i) const { return node_->src[i]; }
inline std::size_t UOp::size() const { return node_->src.size(); }
inline const Arg &UOp::arg() const { return node_->arg; }
inline const Arg &UOp::tag() const { return node_->tag; }
inline std::uint64_t UOp::id() const { return node_->id; }
inline std::size_t UOp::hash() const { return node_->hash; }
inline Int UOp::vmin() const { return node_->vmin; }
inline Int UOp::vmax() const { return node_->vmax; }
inline OpSet UOp::src_ops() const { return node_->src_ops; }
inline OpSet UOp::subtree_ops() const { return node_->subtree_ops; }

}  // namespace wavescope::compiler
