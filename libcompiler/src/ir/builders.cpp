#include "wavescope/compiler/ir/builders.hpp"

namespace wavescope::compiler {

UOp alu(Op op, std::vector<UOp> src) { return UOp::make(op, std::move(src)); }

UOp literal_for(const UOp &like, Int v) {
  return const_int(v, is_sized_int(like.dtype()) ? like.dtype() : dtypes::index);
}

UOp operator+(const UOp &a, const UOp &b) { return alu(Op::ADD, {a, b}); }
UOp operator+(const UOp &a, Int b) { return a + literal_for(a, b); }
UOp operator*(const UOp &a, const UOp &b) { return alu(Op::MUL, {a, b}); }
UOp operator*(const UOp &a, Int b) { return a * literal_for(a, b); }

UOp operator-(const UOp &a, const UOp &b) {
  if (auto c = b.const_value(); c && !is_bool(b.dtype())) return a + const_int(-*c, b.dtype());
  return a + (-b);
}
UOp operator-(const UOp &a, Int b) { return a + literal_for(a, -b); }

UOp operator-(const UOp &a) {
  if (is_bool(a.dtype())) return logical_not(a);
  return a * -1;
}

UOp floordiv(const UOp &a, const UOp &b) { return alu(Op::FLOORDIV, {a, b}); }
UOp floordiv(const UOp &a, Int b) { return floordiv(a, literal_for(a, b)); }
UOp floormod(const UOp &a, const UOp &b) { return alu(Op::FLOORMOD, {a, b}); }
UOp floormod(const UOp &a, Int b) { return floormod(a, literal_for(a, b)); }
UOp cdiv(const UOp &a, const UOp &b) { return alu(Op::CDIV, {a, b}); }
UOp cmod(const UOp &a, const UOp &b) { return alu(Op::CMOD, {a, b}); }
UOp lt(const UOp &a, const UOp &b) { return alu(Op::CMPLT, {a, b}); }
UOp lt(const UOp &a, Int b) { return lt(a, literal_for(a, b)); }
UOp ne(const UOp &a, const UOp &b) { return alu(Op::CMPNE, {a, b}); }
UOp ne(const UOp &a, Int b) { return ne(a, literal_for(a, b)); }
UOp eq(const UOp &a, const UOp &b) { return alu(Op::CMPEQ, {a, b}); }
UOp maximum(const UOp &a, const UOp &b) { return alu(Op::MAX, {a, b}); }
UOp minimum(const UOp &a, const UOp &b) { return -maximum(-a, -b); }
UOp bit_and(const UOp &a, const UOp &b) { return alu(Op::AND, {a, b}); }
UOp bit_or(const UOp &a, const UOp &b) { return alu(Op::OR, {a, b}); }
UOp bit_xor(const UOp &a, const UOp &b) { return alu(Op::XOR, {a, b}); }
UOp shl(const UOp &a, const UOp &b) { return alu(Op::SHL, {a, b}); }
UOp shr(const UOp &a, const UOp &b) { return alu(Op::SHR, {a, b}); }
UOp where(const UOp &cond, const UOp &t, const UOp &f) { return alu(Op::WHERE, {cond, t, f}); }

UOp cast(const UOp &a, DType to) {
  if (a.dtype() == to) return a;
  return UOp::make(Op::CAST, to, {a}, to);
}

UOp logical_not(const UOp &a) { return ne(cast(a, dtypes::bool_), const_bool(true)); }

UOp valid(const UOp &a, const UOp &cond) { return where(cond, a, invalid()); }

UOp usum(const std::vector<UOp> &terms, Int empty) {
  if (terms.empty()) return const_int(empty);
  UOp acc = terms[0];
  for (std::size_t i = 1; i < terms.size(); ++i)
    acc =
        is_bool(acc.dtype()) && is_bool(terms[i].dtype()) ? bit_or(acc, terms[i]) : acc + terms[i];
  return acc;
}

UOp uprod(const std::vector<UOp> &factors, Int empty) {
  if (factors.empty()) return const_int(empty);
  UOp acc = factors[0];
  for (std::size_t i = 1; i < factors.size(); ++i)
    acc = is_bool(acc.dtype()) && is_bool(factors[i].dtype()) ? bit_and(acc, factors[i])
                                                              : acc * factors[i];
  return acc;
}

}  // namespace wavescope::compiler
