#include "ir/bounds.hpp"

#include <algorithm>
#include <initializer_list>

#include "ir/dtype_traits.hpp"

namespace wavescope::compiler {
namespace {

Interval full_range(DType t) {
  const detail::ValueRange r = detail::value_range(t);
  return {r.lo, r.hi};
}

Interval hull(std::initializer_list<Int> values) { return {std::min(values), std::max(values)}; }

bool is_point(const UOp &u) { return u.vmin() == u.vmax() && is_finite(u.vmin()); }

// Division of interval endpoints; an infinite operand gives a saturated result.
Int bound_div(Int a, Int b, bool floor) {
  if (!is_finite(b)) {
    if (!is_finite(a)) return (a < 0) != (b < 0) ? -kIntInfinity : kIntInfinity;
    if (!floor) return 0;
    return (a == 0 || (a < 0) == (b < 0)) ? 0 : -1;
  }
  if (!is_finite(a)) return (a < 0) != (b < 0) ? -kIntInfinity : kIntInfinity;
  return floor ? floor_div(a, b) : trunc_div(a, b);
}

Interval four_quotients(const UOp &x, const UOp &y, bool floor) {
  const Int a = x.vmin(), b = x.vmax(), c = y.vmin(), d = y.vmax();
  return hull({bound_div(a, c, floor), bound_div(a, d, floor), bound_div(b, c, floor),
               bound_div(b, d, floor)});
}

// Shifting by a constant amount k (0 <= k < 120) multiplies or floor-divides by 2^k.
std::optional<Int> shift_amount(const UOp &y) {
  if (!is_point(y) || y.vmin() < 0 || y.vmin() >= 120) return std::nullopt;
  return Int(1) << static_cast<unsigned>(y.vmin());
}

std::optional<Interval> binary_bounds(Op op, DType dtype, const UOp &x, const UOp &y) {
  const Int x0 = x.vmin(), x1 = x.vmax(), y0 = y.vmin(), y1 = y.vmax();
  switch (op) {
  case Op::ADD: return Interval{saturating_add(x0, y0), saturating_add(x1, y1)};
  case Op::SUB: return Interval{saturating_add(x0, -y1), saturating_add(x1, -y0)};
  case Op::MUL:
    return hull({saturating_mul(x0, y0), saturating_mul(x0, y1), saturating_mul(x1, y0),
                 saturating_mul(x1, y1)});
  case Op::AND:
    if (detail::is_int(dtype) && is_point(y) && y0 >= 0)
      return Interval{0, x0 < 0 ? y1 : std::min(x1, y1)};
    if (detail::is_bool(dtype)) return Interval{x0 && y0 ? 1 : 0, x1 && y1 ? 1 : 0};
    return std::nullopt;
  case Op::OR:
    if (detail::is_bool(dtype)) return Interval{x0 || y0 ? 1 : 0, x1 || y1 ? 1 : 0};
    return std::nullopt;
  case Op::SHL:
    if (auto k = shift_amount(y)) return Interval{saturating_mul(x0, *k), saturating_mul(x1, *k)};
    return std::nullopt;
  case Op::SHR:
    if (auto k = shift_amount(y)) return Interval{bound_div(x0, *k, true), bound_div(x1, *k, true)};
    return std::nullopt;
  case Op::CMOD:
    if (is_point(y) && y0 > 0) {
      const Int c = y0;
      return Interval{x0 > 0 ? 0 : (x0 > -c ? x0 : -(c - 1)), x1 < 0 ? 0 : (x1 < c ? x1 : c - 1)};
    }
    if (y0 > 0 && is_finite(y1)) {
      if (x0 >= 0) return Interval{0, y1 - 1};
      if (x1 <= 0) return Interval{-(y1 - 1), 0};
      return Interval{-(y1 - 1), y1 - 1};
    }
    if (y1 < 0 && is_finite(y0)) {
      if (x0 >= 0) return Interval{0, -y0 - 1};
      if (x1 <= 0) return Interval{y0 + 1, 0};
      return Interval{y0 + 1, -y0 - 1};
    }
    return std::nullopt;
  case Op::CDIV:
    if ((y0 > 0 && y1 > 0) || (y0 < 0 && y1 < 0)) return four_quotients(x, y, false);
    return std::nullopt;
  case Op::FLOORDIV:
    if (x0 > x1) return Interval{0, 0};  // empty numerator (a range of extent 0)
    if ((y0 > 0 && y1 > 0) || (y0 < 0 && y1 < 0)) return four_quotients(x, y, true);
    return std::nullopt;
  case Op::FLOORMOD:
    if (x0 > x1) return Interval{0, 0};
    if (is_point(y) && y0 != 0) {
      const Int c = y0;
      if (is_finite(x0) && is_finite(x1) && floor_div(x0, c) == floor_div(x1, c))
        return Interval{floor_mod(x0, c), floor_mod(x1, c)};
      return c > 0 ? Interval{0, c - 1} : Interval{c + 1, 0};
    }
    if (y0 > 0 && is_finite(y1)) return Interval{0, y1 - 1};
    if (y1 < 0 && is_finite(y0)) return Interval{y0 + 1, 0};
    return std::nullopt;
  case Op::XOR:
    if (detail::is_int(dtype) && is_point(y) && y0 == -1) return Interval{-x1 - 1, -x0 - 1};
    return std::nullopt;
  case Op::MAX: return Interval{std::max(x0, y0), std::max(x1, y1)};
  case Op::CMPLT: return Interval{x1 < y0 ? 1 : 0, x0 < y1 ? 1 : 0};
  case Op::CMPNE: {
    const bool disjoint = x1 < y0 || y1 < x0;
    const bool same_point = x0 == x1 && x1 == y0 && y0 == y1 && is_finite(x0);
    return Interval{disjoint ? 1 : 0, same_point ? 0 : 1};
  }
  case Op::CMPEQ: {
    const bool disjoint = x1 < y0 || y1 < x0;
    const bool same_point = x0 == x1 && x1 == y0 && y0 == y1 && is_finite(x0);
    return Interval{same_point ? 1 : 0, disjoint ? 0 : 1};
  }
  default: return std::nullopt;
  }
}

std::optional<Interval> cast_bounds(DType to, const UOp &x) {
  const Int lo = x.vmin(), hi = x.vmax();
  if (detail::is_bool(to)) {
    if (lo > 0 || hi < 0) return Interval{1, 1};
    if (lo == 0 && hi == 0) return Interval{0, 0};
    return Interval{0, 1};
  }
  if (!detail::is_int(to) || detail::is_float(x.dtype())) return std::nullopt;
  if (lo >= dtype_min(to) && hi <= dtype_max(to)) return Interval{lo, hi};
  return std::nullopt;
}

std::optional<Interval> node_bounds(Op op, DType dtype, const std::vector<UOp> &src,
                                    const Arg &arg) {
  if (dtype.is_pointer() || dtype.scalar == ScalarType::Void) return std::nullopt;
  if (ops::kBinary.contains(op) && src.size() == 2 && !detail::is_float(dtype))
    return binary_bounds(op, dtype, src[0], src[1]);
  switch (op) {
  case Op::CONST:
    if (auto i = std::get_if<Int>(&arg)) return Interval{*i, *i};
    if (auto b = std::get_if<bool>(&arg)) return Interval{*b ? 1 : 0, *b ? 1 : 0};
    return std::nullopt;
  case Op::PARAM:
  case Op::BUFFER:
    if (auto p = std::get_if<ParamArg>(&arg); p && p->bounds)
      return Interval{p->bounds->first, p->bounds->second};
    return std::nullopt;
  case Op::RANGE:
  case Op::SPECIAL:
    if (src.empty()) return std::nullopt;
    return Interval{0, saturating_add(src[0].vmax(), -1)};
  case Op::WHERE:
    if (src.size() == 3 && (detail::is_int(dtype) || detail::is_bool(dtype)))
      return Interval{std::min(src[1].vmin(), src[2].vmin()),
                      std::max(src[1].vmax(), src[2].vmax())};
    return std::nullopt;
  case Op::NEG:
    if (src.size() == 1 && detail::is_int(dtype)) return Interval{-src[0].vmax(), -src[0].vmin()};
    return std::nullopt;
  case Op::TRUNC:
    if (src.size() == 1 && detail::is_int(dtype)) return Interval{src[0].vmin(), src[0].vmax()};
    return std::nullopt;
  case Op::AFTER:
  case Op::INDEX:
    if (src.empty()) return std::nullopt;
    return Interval{src[0].vmin(), src[0].vmax()};
  case Op::STACK: {
    if (src.empty()) return std::nullopt;
    Interval r{src[0].vmin(), src[0].vmax()};
    for (const auto &s : src) r = {std::min(r.lo, s.vmin()), std::max(r.hi, s.vmax())};
    return r;
  }
  case Op::CAST:
    if (src.size() == 1) return cast_bounds(dtype, src[0]);
    return std::nullopt;
  default: return std::nullopt;
  }
}

}  // namespace

Interval compute_bounds(Op op, DType dtype, const std::vector<UOp> &src, const Arg &arg) {
  auto r = node_bounds(op, dtype, src, arg);
  if (!r) return full_range(dtype);
  r->lo = saturate(r->lo);
  r->hi = saturate(r->hi);
  // Values of sized ints wrap: an interval that leaves the dtype's range says nothing. (WHERE and
  // TRUNC pass their operand's value through unchanged.)
  if (detail::is_sized_int(dtype) && op != Op::WHERE && op != Op::TRUNC) {
    const Interval full = full_range(dtype);
    if (r->lo < full.lo || r->hi > full.hi) return full;
  }
  if (detail::is_bool(dtype)) return {std::clamp<Int>(r->lo, 0, 1), std::clamp<Int>(r->hi, 0, 1)};
  return *r;
}

}  // namespace wavescope::compiler
