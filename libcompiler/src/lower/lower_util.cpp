// Helpers of the back-half passes (lower_util.hpp).

#include "lower_util.hpp"

namespace wavescope::compiler::lower::detail {

UOp buffer_of(const UOp &u) {
  UOp x = u;
  while (x && x.op() == Op::AFTER && x.size() > 0) x = x.src(0);
  if (!x || (x.op() != Op::PARAM && x.op() != Op::BUFFER)) return {};
  auto p = std::get_if<ParamArg>(&x.arg());
  if (!p || p->addrspace == AddrSpace::Alu) return {};
  return x;
}

AddrSpace addrspace_of(const UOp &u) {
  const UOp b = buffer_of(u);
  return b ? std::get<ParamArg>(b.arg()).addrspace : AddrSpace::None;
}

bool is_address(const UOp &u) {
  return (u.op() == Op::INDEX || u.op() == Op::SHRINK) && u.size() >= 2 && buffer_of(u.src(0));
}

UOp lane(const UOp &x, unsigned k) {
  if (!x.dtype().is_vector()) return x;
  return UOp::make(Op::INDEX, x.dtype().base(), {x, const_int(k)});
}

UOp broadcast(const UOp &x, unsigned lanes) {
  if (lanes <= 1 || x.dtype().lanes == lanes) return x;
  std::vector<UOp> src(lanes, x);
  return UOp::make(Op::STACK, x.dtype().base().vec(static_cast<std::uint16_t>(lanes)),
                   std::move(src));
}

std::pair<UOp, UOp> split_gate(const UOp &i) {
  if (i.op() == Op::WHERE && i.size() == 3 && i.src(2).is_invalid()) return {i.src(1), i.src(0)};
  return {i, UOp{}};
}

rewrite::RewriteOptions pass(const char *name) {
  rewrite::RewriteOptions o;
  o.name = name;
  return o;
}

rewrite::RewriteOptions symbolic_pass(const char *name) {
  rewrite::RewriteOptions o = pass(name);
  o.memoize = true;
  return o;
}

}  // namespace wavescope::compiler::lower::detail
