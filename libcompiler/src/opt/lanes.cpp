// Vector lanes (lanes.hpp).

#include "lanes.hpp"

namespace wavescope::compiler::opt::detail {

UOp stack(const std::vector<UOp> &elements) {
  if (elements.size() == 1) return elements[0];
  const DType t = elements.front().dtype().base();
  return UOp::make(Op::STACK, t.vec(static_cast<std::uint16_t>(elements.size())), elements);
}

UOp broadcast(const UOp &x, std::size_t n) { return stack(std::vector<UOp>(n, x)); }

bool is_buffer(const UOp &u) {
  switch (u.op()) {
  case Op::PARAM:
  case Op::BUFFER:
  case Op::STAGE: return true;
  case Op::AFTER: return u.size() > 0 && is_buffer(u.src(0));
  default: return false;
  }
}

bool is_lane_select(const UOp &u) {
  return u.op() == Op::INDEX && u.size() == 2 && !is_buffer(u.src(0)) &&
         u.src(0).dtype().lanes > 1 && u.dtype().lanes == 1 && u.src(1).is_const();
}

UOp lane(const UOp &v, std::size_t k) {
  if (v.dtype().lanes <= 1) return v;
  if (v.op() == Op::STACK && v.size() == v.dtype().lanes) return v.src(k);
  return UOp::make(Op::INDEX, v.dtype().base(), {v, const_int(static_cast<std::int64_t>(k))});
}

}  // namespace wavescope::compiler::opt::detail
