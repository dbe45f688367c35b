#include "wavescope/compiler/ir/uop.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <mutex>
#include <new>

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallVector.h>

#include "ir/bounds.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::compiler {

// The interning table: 64 shards keyed by node hash, each an open-addressing set of node
// pointers (no allocation per node) behind its own mutex.
class UOpTable {
public:
  struct Probe {
    Op op;
    DType dtype;
    const std::vector<UOp> &src;
    const Arg &arg;
    const Arg &tag;
    std::size_t hash;
  };

  static UOp intern(Op op, DType dtype, std::vector<UOp> &&src, Arg &&arg, Arg &&tag);
  static void retain(const UOpNode *node) { node->refs_.fetch_add(1, std::memory_order_relaxed); }
  static void release(const UOpNode *node);
  static std::size_t live_count();

private:
  // Keys are live nodes (hashed by their content hash); a Probe finds one by content. The two
  // sentinels are addresses no node has.
  struct NodeInfo {
    static const UOpNode *getEmptyKey() {
      return reinterpret_cast<const UOpNode *>(~std::uintptr_t(0) << 4);
    }
    static const UOpNode *getTombstoneKey() {
      return reinterpret_cast<const UOpNode *>(~std::uintptr_t(1) << 4);
    }
    static unsigned getHashValue(const UOpNode *n) { return static_cast<unsigned>(n->hash); }
    static unsigned getHashValue(const Probe &p) { return static_cast<unsigned>(p.hash); }
    static bool isEqual(const UOpNode *a, const UOpNode *b) { return a == b; }
    static bool isEqual(const Probe &p, const UOpNode *n) {
      return n != getEmptyKey() && n != getTombstoneKey() && matches(p, n);
    }
  };
  struct Shard {
    std::mutex mutex;
    llvm::DenseSet<const UOpNode *, NodeInfo> nodes;
  };
  static constexpr std::size_t kShards = 64;

  static bool matches(const Probe &p, const UOpNode *n) {
    return n->hash == p.hash && n->op == p.op && n->dtype == p.dtype && n->src == p.src &&
           n->arg == p.arg && n->tag == p.tag;
  }
  // Never destroyed: a thread that exits during static destruction (Qt's pool threads end then)
  // still releases the nodes its thread_local memos hold, after this file's statics are gone.
  static Shard &shard(std::size_t hash) {
    static auto *const shards = new std::array<Shard, kShards>;
    return (*shards)[(hash ^ (hash >> 17)) % kShards];
  }
  static void destroy(const UOpNode *node);
};

namespace {

std::atomic<std::uint64_t> next_node_id{1};

std::size_t mix(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

std::size_t node_hash(Op op, DType dtype, const std::vector<UOp> &src, const Arg &arg,
                      const Arg &tag) {
  std::size_t h = static_cast<std::size_t>(op) * 0x100000001b3ULL;
  h = mix(h, (static_cast<std::size_t>(dtype.scalar) << 24) | (std::size_t(dtype.lanes) << 8) |
                 static_cast<std::size_t>(dtype.addrspace));
  for (const auto &s : src) h = mix(h, s.hash());
  h = mix(h, hash_arg(arg));
  if (!is_none(tag)) h = mix(h, hash_arg(tag));
  return h;
}

thread_local llvm::SmallVectorImpl<const UOpNode *> *pending_deletes = nullptr;

// Node memory. A lowering builds and drops hundreds of nodes of one size, more than glibc's
// per-thread cache keeps (7 blocks a size): each thread keeps the blocks of the nodes it
// destroyed (up to kKeepBlocks) for the next nodes it builds. After the thread's keeper is
// destroyed (thread or process exit, where static nodes may still die), blocks go straight
// back to the allocator.
static_assert(alignof(UOpNode) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
constexpr std::size_t kKeepBlocks = 4096;

enum class Keeper : unsigned char { None, Live, Gone };
thread_local Keeper keeper_state = Keeper::None;
thread_local std::vector<void *> *kept_blocks = nullptr;

struct BlockKeeper {
  std::vector<void *> blocks;
  BlockKeeper() {
    kept_blocks = &blocks;
    keeper_state = Keeper::Live;
  }
  ~BlockKeeper() {
    keeper_state = Keeper::Gone;
    kept_blocks = nullptr;
    for (void *p : blocks) ::operator delete(p);
  }
};
thread_local BlockKeeper block_keeper;

void *node_block() {
  if (keeper_state == Keeper::None) (void)&block_keeper;  // made on the thread's first use
  if (keeper_state == Keeper::Live && !kept_blocks->empty()) {
    void *p = kept_blocks->back();
    kept_blocks->pop_back();
    return p;
  }
  return ::operator new(sizeof(UOpNode));
}

void free_node(const UOpNode *node) {
  auto *n = const_cast<UOpNode *>(node);
  n->~UOpNode();
  if (keeper_state == Keeper::None) (void)&block_keeper;
  if (keeper_state == Keeper::Live && kept_blocks->size() < kKeepBlocks)
    kept_blocks->push_back(n);
  else
    ::operator delete(n);
}

}  // namespace

UOp UOpTable::intern(Op op, DType dtype, std::vector<UOp> &&src, Arg &&arg, Arg &&tag) {
  for (const auto &s : src)
    if (!s)
      throw Error(ErrorKind::Internal,
                  "a " + std::string(to_string(op)) + " node was given a null source");
  const std::size_t h = node_hash(op, dtype, src, arg, tag);
  Shard &sh = shard(h);
  std::lock_guard lock(sh.mutex);
  if (auto it = sh.nodes.find_as(Probe{op, dtype, src, arg, tag, h}); it != sh.nodes.end()) {
    retain(*it);
    return UOp(*it);
  }
  auto *node = new (node_block()) UOpNode;
  node->op = op;
  node->dtype = dtype;
  node->src = std::move(src);
  node->arg = std::move(arg);
  node->tag = std::move(tag);
  node->hash = h;
  node->id = next_node_id.fetch_add(1, std::memory_order_relaxed);
  node->subtree_ops = OpSet(op);
  for (const auto &s : node->src) {
    node->src_ops.add(s.op());
    node->subtree_ops = node->subtree_ops | s.subtree_ops();
  }
  const Interval bounds = compute_bounds(node->op, node->dtype, node->src, node->arg);
  node->vmin = bounds.lo;
  node->vmax = bounds.hi;
  node->refs_.store(1, std::memory_order_relaxed);
  sh.nodes.insert(node);
  return UOp(node);
}

void UOpTable::release(const UOpNode *node) {
  // Dropping to zero happens only under the shard lock, where lookups also take references, so a
  // node found in the table is never one being destroyed.
  std::uint32_t old = node->refs_.load(std::memory_order_relaxed);
  while (old > 1)
    if (node->refs_.compare_exchange_weak(old, old - 1, std::memory_order_acq_rel)) return;
  {
    Shard &sh = shard(node->hash);
    std::lock_guard lock(sh.mutex);
    if (node->refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    sh.nodes.erase(node);
  }
  destroy(node);
}

void UOpTable::destroy(const UOpNode *node) {
  // Deleting a node releases its sources, which may delete them in turn; a worklist keeps deep
  // chains from recursing on the stack.
  if (pending_deletes) {
    pending_deletes->push_back(node);
    return;
  }
  llvm::SmallVector<const UOpNode *, 16> list{node};
  pending_deletes = &list;
  while (!list.empty()) {
    const UOpNode *n = list.back();
    list.pop_back();
    free_node(n);
  }
  pending_deletes = nullptr;
}

std::size_t UOpTable::live_count() {
  std::size_t total = 0;
  for (std::size_t i = 0; i < kShards; ++i) {
    Shard &sh = shard(i);
    std::lock_guard lock(sh.mutex);
    total += sh.nodes.size();
  }
  return total;
}

std::size_t live_node_count() { return UOpTable::live_count(); }

UOp::UOp(const UOp &other) noexcept : node_(other.node_) {
  if (node_) UOpTable::retain(node_);
}

UOp &UOp::operator=(const UOp &other) noexcept {
  if (other.node_) UOpTable::retain(other.node_);
  const UOpNode *old = node_;
  node_ = other.node_;
  if (old) UOpTable::release(old);
  return *this;
}

UOp &UOp::operator=(UOp &&other) noexcept {
  if (this != &other) {
    const UOpNode *old = node_;
    node_ = other.node_;
    other.node_ = nullptr;
    if (old) UOpTable::release(old);
  }
  return *this;
}

UOp::~UOp() {
  if (node_) UOpTable::release(node_);
}

UOp UOp::make(Op op, DType dtype, std::vector<UOp> src, Arg arg, Arg tag) {
  return UOpTable::intern(op, dtype, std::move(src), std::move(arg), std::move(tag));
}

UOp UOp::make(Op op, std::vector<UOp> src, Arg arg, Arg tag) {
  const DType dtype = derive_dtype(op, src, arg);
  return make(op, dtype, std::move(src), std::move(arg), std::move(tag));
}

bool UOp::is_invalid() const {
  return op() == Op::CONST && std::holds_alternative<InvalidValue>(arg());
}

std::optional<Int> UOp::const_value() const {
  if (op() != Op::CONST) return std::nullopt;
  if (auto i = std::get_if<Int>(&arg())) return *i;
  if (auto b = std::get_if<bool>(&arg())) return Int(*b ? 1 : 0);
  return std::nullopt;
}

UOp UOp::with_src(std::vector<UOp> src) const {
  if (src == node_->src) return *this;
  bool dtypes_same = src.size() == node_->src.size();
  for (std::size_t i = 0; dtypes_same && i < src.size(); ++i)
    dtypes_same = src[i].dtype() == node_->src[i].dtype();
  DType dtype = node_->dtype;
  if (!dtypes_same) {
    switch (node_->op) {
    case Op::NOOP:
    case Op::CUSTOM:
    case Op::CUSTOMI:
    case Op::INS:
    case Op::CONST: break;  // these carry whatever dtype they were given
    default: {
      const DType derived = derive_dtype(node_->op, src, node_->arg);
      // A sized int node stays sized when a source only lost its width (e.g. a constant that a
      // where passed through): its value still wraps to the width it had.
      if (!(is_sized_int(dtype) && derived == dtypes::index)) dtype = derived;
    }
    }
  }
  return make(node_->op, dtype, std::move(src), node_->arg, node_->tag);
}

UOp UOp::with_arg(Arg arg) const {
  if (arg == node_->arg) return *this;
  return make(node_->op, node_->dtype, node_->src, std::move(arg), node_->tag);
}

UOp UOp::with_tag(Arg tag) const {
  if (tag == node_->tag) return *this;
  return make(node_->op, node_->dtype, node_->src, node_->arg, std::move(tag));
}

UOp UOp::with_dtype(DType dtype) const {
  if (dtype == node_->dtype) return *this;
  return make(node_->op, dtype, node_->src, node_->arg, node_->tag);
}

namespace {

DType promote(const std::vector<UOp> &src, std::size_t first) {
  DType t = src.size() > first ? src[first].dtype() : dtypes::void_;
  for (std::size_t i = first + 1; i < src.size(); ++i) t = least_upper_dtype(t, src[i].dtype());
  return t;
}

}  // namespace

DType derive_dtype(Op op, const std::vector<UOp> &src, const Arg &arg) {
  auto first = [&]() { return src.empty() ? dtypes::void_ : src[0].dtype(); };
  switch (op) {
  case Op::STORE:
  case Op::LINEAR:
  case Op::SINK:
  case Op::PROGRAM:
  case Op::SOURCE:
  case Op::END:
  case Op::BARRIER:
  case Op::GROUP:
  case Op::IF:
  case Op::ENDIF:
  case Op::TUPLE:
  case Op::FUNCTION:
  case Op::CUSTOM_FUNCTION:
  case Op::REWRITE_ERROR:
  case Op::WAIT:
  case Op::NOOP:
  case Op::CUSTOM:
  case Op::CUSTOMI:
  case Op::INS:
  case Op::PYLITERAL: return dtypes::void_;
  case Op::CALL: return first() == dtypes::void_ ? dtypes::void_ : first();
  // INDEX(buffer, i) reads or writes one element per lane of i; INDEX(vector, k) selects lanes k.
  case Op::INDEX: return first().base().vec(src.size() >= 2 ? src[1].dtype().lanes : 1);
  // SHRINK(buffer, start, n): n consecutive elements (a vector access).
  case Op::SHRINK: {
    std::optional<Int> n;
    if (src.size() >= 3) n = src[2].const_value();
    if (!n || *n < 1 || *n > 65535) return first().base();
    return first().base().vec(static_cast<std::uint16_t>(static_cast<std::int64_t>(*n)));
  }
  case Op::LOAD:
  case Op::UNSHARD:
  case Op::REDUCE:
  case Op::AFTER:
  case Op::RANGE:
  case Op::SPECIAL:
  case Op::CONTIGUOUS:
  case Op::CONTIGUOUS_BACKWARD:
  case Op::COPY:
  case Op::STAGE:
  case Op::DETACH:
  case Op::MSTACK:
  case Op::MSELECT:
  case Op::ALLREDUCE:
  case Op::RESHAPE:
  case Op::PERMUTE:
  case Op::EXPAND:
  case Op::PAD:
  case Op::FLIP: return first();
  case Op::CMPLT:
  case Op::CMPNE:
  case Op::CMPEQ: return dtypes::bool_;
  case Op::SIN:
  case Op::LOG2:
  case Op::EXP2:
  case Op::SQRT:
  case Op::RECIPROCAL:
    if (!src.empty() && src[0].is_invalid()) return dtypes::bool_;
    return least_upper_float(first());
  case Op::WHERE: return promote(src, 1);
  case Op::STACK: {
    if (src.empty()) return dtypes::void_;
    DType t = promote(src, 0).base();
    unsigned lanes = 0;
    for (const auto &s : src) lanes += s.dtype().lanes;
    return t.vec(static_cast<std::uint16_t>(std::min(lanes, 65535u)));
  }
  case Op::WMMA: return src.size() > 2 ? src[2].dtype() : dtypes::void_;
  case Op::GETTUPLE: {
    if (src.empty()) return dtypes::void_;
    const UOp &tuple =
        src[0].op() == Op::FUNCTION && !src[0].src().empty() ? src[0].src(0) : src[0];
    const Int *i = std::get_if<Int>(&arg);
    if (!i || *i < 0 || static_cast<std::size_t>(*i) >= tuple.size()) return dtypes::void_;
    return tuple.src(static_cast<std::size_t>(*i)).dtype();
  }
  case Op::GETADDR: return dtypes::uint64;
  case Op::SHL:
  case Op::SHR: return first();
  case Op::BUFFER:
  case Op::PARAM:
    if (auto p = std::get_if<ParamArg>(&arg)) return p->dtype;
    return dtypes::void_;
  case Op::BINARY: return dtypes::uint8;
  case Op::CAST:
  case Op::BITCAST:
    if (auto t = std::get_if<DType>(&arg)) return *t;
    return first();
  case Op::CONST:
    if (std::holds_alternative<Int>(arg)) return dtypes::index;
    if (std::holds_alternative<FloatValue>(arg)) return dtypes::weakfloat;
    return dtypes::bool_;
  default: break;
  }
  if (ops::kUnary.contains(op)) return first();
  if (ops::kBroadcastable.contains(op)) return promote(src, 0);
  return dtypes::void_;
}

// --- construction helpers -------------------------------------------------------------------

UOp const_int(Int value, DType dtype) {
  if (is_bool(dtype)) return const_bool(value != 0);
  if (is_float(dtype)) return const_float(static_cast<double>(value), dtype);
  return UOp::make(Op::CONST, dtype, {}, wrap_value(value, dtype));
}

UOp const_bool(bool value) { return UOp::make(Op::CONST, dtypes::bool_, {}, value); }

UOp const_float(double value, DType dtype) {
  if (std::isnan(value)) value = std::nan("");
  return UOp::make(Op::CONST, dtype, {}, FloatValue{round_to_float(value, dtype)});
}

UOp invalid() { return UOp::make(Op::CONST, dtypes::bool_, {}, InvalidValue{}); }

UOp const_like(const UOp &like, Int value) { return const_int(value, like.dtype()); }

UOp variable(std::string name, Int min, Int max, DType dtype, Int multiple_of) {
  ParamArg p;
  p.slot = -1;
  p.dtype = dtype;
  p.bounds = std::make_pair(min, max);
  p.multiple_of = multiple_of;
  p.name = std::move(name);
  p.addrspace = AddrSpace::Alu;
  return UOp::make(Op::PARAM, dtype, {}, std::move(p));
}

UOp range(const UOp &extent, std::int64_t axis, AxisType type, std::string name) {
  return UOp::make(Op::RANGE, extent.dtype(), {extent}, RangeArg{axis, type, std::move(name)});
}

UOp special(const UOp &extent, std::string name) {
  return UOp::make(Op::SPECIAL, extent.dtype(), {extent}, std::move(name));
}

std::string node_name(const UOp &u) {
  switch (u.op()) {
  case Op::PARAM:
  case Op::BUFFER:
    if (auto p = std::get_if<ParamArg>(&u.arg())) return p->name;
    return {};
  case Op::RANGE:
    if (auto r = std::get_if<RangeArg>(&u.arg())) {
      if (!r->name.empty()) return r->name;
      return std::string(1, axis_letter(r->type)) + "idx" + std::to_string(r->axis);
    }
    return {};
  case Op::SPECIAL:
    if (auto s = std::get_if<std::string>(&u.arg())) return *s;
    return {};
  default: return {};
  }
}

}  // namespace wavescope::compiler
