#include "wavescope/compiler/rewrite/pattern.hpp"

namespace wavescope::compiler::rewrite {

Pat Pat::named(std::string capture) const {
  Pat p = *this;
  p.name = std::move(capture);
  return p;
}

Pat Pat::dtype(DTypeList list) const {
  Pat p = *this;
  p.dtypes = std::move(list);
  return p;
}

Pat Pat::with_arg(Arg value) const {
  Pat p = *this;
  p.arg = std::move(value);
  return p;
}

Pat Pat::with_tag(Arg value) const {
  Pat p = *this;
  p.tag = std::move(value);
  return p;
}

Pat Pat::with_src(std::vector<Pat> tuple, bool allow_any_len) const {
  Pat p = *this;
  p.src_kind = SrcKind::Tuple;
  p.src = std::move(tuple);
  p.any_len = allow_any_len;
  return p;
}

Pat Pat::with_permuted_src(std::vector<Pat> list) const {
  Pat p = *this;
  p.src_kind = SrcKind::Permutations;
  p.src = std::move(list);
  p.any_len = false;
  return p;
}

Pat Pat::with_repeated_src(Pat each) const {
  Pat p = *this;
  p.src_kind = SrcKind::Repeat;
  p.src = {std::move(each)};
  p.any_len = false;
  return p;
}

Pat var(std::string name, DTypeList dtypes) {
  Pat p;
  p.name = std::move(name);
  p.dtypes = std::move(dtypes);
  return p;
}

Pat cvar(std::string name, DTypeList dtypes) {
  Pat p = var(std::move(name), std::move(dtypes));
  p.ops = Op::CONST;
  return p;
}

Pat constant(Arg value, DTypeList dtypes) {
  Pat p = cvar({}, std::move(dtypes));
  p.arg = std::move(value);
  return p;
}

Pat invalid_pat(std::string name) {
  Pat p = cvar(std::move(name));
  p.arg = Arg{InvalidValue{}};
  return p;
}

Pat pat(OpSet ops, std::vector<Pat> src, bool any_len) {
  Pat p;
  p.ops = ops;
  p.src_kind = Pat::SrcKind::Tuple;
  p.src = std::move(src);
  p.any_len = any_len;
  return p;
}

Pat pat_any_src(OpSet ops) {
  Pat p;
  p.ops = ops;
  return p;
}

Pat any_of(std::vector<Pat> alternatives) {
  Pat p;
  p.alternatives = std::move(alternatives);
  return p;
}

Pat or_casted(const Pat &p, std::string name) {
  Pat inner = name.empty() ? p : p.named(name);
  return any_of({inner, pat(Op::CAST, {p}).named(name)});
}

namespace {
Pat binary(Op op, const Pat &a, const Pat &b) { return pat(op, {a, b}); }
Pat commutative(Op op, const Pat &a, const Pat &b) {
  Pat p;
  p.ops = op;
  return p.with_permuted_src({a, b});
}
}  // namespace

Pat operator+(const Pat &a, const Pat &b) { return commutative(Op::ADD, a, b); }
Pat operator*(const Pat &a, const Pat &b) { return commutative(Op::MUL, a, b); }
Pat floordiv(const Pat &a, const Pat &b) { return binary(Op::FLOORDIV, a, b); }
Pat floormod(const Pat &a, const Pat &b) { return binary(Op::FLOORMOD, a, b); }
Pat lt(const Pat &a, const Pat &b) { return binary(Op::CMPLT, a, b).dtype(dtypes::bool_); }
Pat ne(const Pat &a, const Pat &b) { return commutative(Op::CMPNE, a, b).dtype(dtypes::bool_); }
Pat maximum(const Pat &a, const Pat &b) { return commutative(Op::MAX, a, b); }
Pat bit_and(const Pat &a, const Pat &b) { return commutative(Op::AND, a, b); }
Pat bit_or(const Pat &a, const Pat &b) { return commutative(Op::OR, a, b); }
Pat bit_xor(const Pat &a, const Pat &b) { return commutative(Op::XOR, a, b); }
Pat shl(const Pat &a, const Pat &b) { return binary(Op::SHL, a, b); }
Pat shr(const Pat &a, const Pat &b) { return binary(Op::SHR, a, b); }
Pat where(const Pat &c, const Pat &t, const Pat &f) { return pat(Op::WHERE, {c, t, f}); }

Pat cast(const Pat &x, DTypeList to, std::string name) {
  return pat(Op::CAST, {x}).dtype(std::move(to)).named(std::move(name));
}

Pat logical_not(const Pat &x) { return ne(x, constant(true)); }

DTypeList sized_int_dtypes() {
  return {dtypes::int8,  dtypes::uint8,  dtypes::int16, dtypes::uint16,
          dtypes::int32, dtypes::uint32, dtypes::int64, dtypes::uint64};
}

DTypeList int_dtypes() {
  DTypeList l = sized_int_dtypes();
  l.push_back(dtypes::index);
  return l;
}

DTypeList signed_int_dtypes() {
  return {dtypes::int8, dtypes::int16, dtypes::int32, dtypes::int64};
}

}  // namespace wavescope::compiler::rewrite
