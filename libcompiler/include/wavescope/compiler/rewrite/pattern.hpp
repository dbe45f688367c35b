#pragma once
// The pattern language (spec §2.1): patterns are data, built with helpers and operators so that a
// rule reads like the algebra it encodes:
//
//   var("x") + 0                              x+0, either operand order (ADD is commutative)
//   floordiv(floordiv(var("x"), cvar("c1")), cvar("c2"))
//   where(var("c"), var("t"), var("t"))       a repeated name must bind the same node
//   pat({Op::FLOORDIV, Op::FLOORMOD}).dtype(dtypes::index).named("d")
//
// A pattern constrains a node's op (a set), dtype (a set), arg (by value), tag, and sources: a
// tuple (positional, exact length unless any_len), a permutation list (every order is tried;
// this is commutative matching) or a repeat (every source matches one pattern). `any_of` is an
// alternation. Names capture nodes for the rule's callback.

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "wavescope/compiler/ir/arg.hpp"
#include "wavescope/compiler/ir/dtype.hpp"
#include "wavescope/compiler/ir/ops.hpp"

namespace wavescope::compiler::rewrite {

using DTypeList = std::vector<DType>;

struct Pat {
  enum class SrcKind : std::uint8_t { Any, Tuple, Permutations, Repeat };

  OpSet ops;               // empty: any op
  DTypeList dtypes;        // empty: any dtype
  std::optional<Arg> arg;  // compared with value_equals (0 == false == 0.0, as in tinygrad)
  std::optional<Arg> tag;
  std::string name;  // capture name; "" captures nothing
  SrcKind src_kind = SrcKind::Any;
  std::vector<Pat> src;           // Repeat: exactly one element
  bool any_len = false;           // Tuple: only a prefix is constrained
  std::vector<Pat> alternatives;  // non-empty: this pattern is an alternation

  Pat named(std::string capture) const;
  Pat dtype(DTypeList list) const;
  Pat dtype(DType t) const { return dtype(DTypeList{t}); }
  Pat with_arg(Arg value) const;
  Pat with_tag(Arg value) const;
  Pat with_src(std::vector<Pat> tuple, bool allow_any_len = false) const;
  Pat with_permuted_src(std::vector<Pat> list) const;
  Pat with_repeated_src(Pat each) const;

  friend bool operator==(const Pat &, const Pat &) = default;
};

// Any node (optionally captured / restricted to dtypes).
Pat var(std::string name = {}, DTypeList dtypes = {});
inline Pat var(std::string name, DType t) { return var(std::move(name), DTypeList{t}); }
// Any CONST.
Pat cvar(std::string name = {}, DTypeList dtypes = {});
inline Pat cvar(std::string name, DType t) { return cvar(std::move(name), DTypeList{t}); }
// A CONST with this exact value (numerically: constant(0) also matches false).
Pat constant(Arg value, DTypeList dtypes = {});
template <class T>
requires std::is_integral_v<T> Pat constant(T value, DTypeList dtypes = {}) {
  if constexpr (std::is_same_v<T, bool>)
    return constant(Arg{value}, std::move(dtypes));
  else
    return constant(Arg{Int(value)}, std::move(dtypes));
}
// The Invalid constant.
Pat invalid_pat(std::string name = {});
// A node with one of `ops` and the given sources as a tuple.
Pat pat(OpSet ops, std::vector<Pat> src = {}, bool any_len = false);
Pat pat_any_src(OpSet ops);  // sources unconstrained
// An alternation.
Pat any_of(std::vector<Pat> alternatives);
// p, or CAST(p).
Pat or_casted(const Pat &p, std::string name = {});

// ALU sugar; commutative ops match either operand order. An integral operand is constant(v).
Pat operator+(const Pat &a, const Pat &b);
Pat operator*(const Pat &a, const Pat &b);
template <class T>
requires std::is_integral_v<T> Pat operator+(const Pat &a, T b) { return a + constant(b); }
template <class T>
requires std::is_integral_v<T> Pat operator*(const Pat &a, T b) { return a * constant(b); }
template <class T>
requires std::is_integral_v<T> Pat operator*(T a, const Pat &b) { return constant(a) * b; }
Pat floordiv(const Pat &a, const Pat &b);
Pat floormod(const Pat &a, const Pat &b);
template <class T>
requires std::is_integral_v<T> Pat floordiv(const Pat &a, T b) { return floordiv(a, constant(b)); }
template <class T>
requires std::is_integral_v<T> Pat floormod(const Pat &a, T b) { return floormod(a, constant(b)); }
Pat lt(const Pat &a, const Pat &b);  // dtype bool
template <class T>
requires std::is_integral_v<T> Pat lt(const Pat &a, T b) { return lt(a, constant(b)); }
Pat ne(const Pat &a, const Pat &b);  // dtype bool, commutative
template <class T>
requires std::is_integral_v<T> Pat ne(const Pat &a, T b) { return ne(a, constant(b)); }
Pat maximum(const Pat &a, const Pat &b);
Pat bit_and(const Pat &a, const Pat &b);
Pat bit_or(const Pat &a, const Pat &b);
Pat bit_xor(const Pat &a, const Pat &b);
template <class T>
requires std::is_integral_v<T> Pat bit_and(const Pat &a, T b) { return bit_and(a, constant(b)); }
Pat shl(const Pat &a, const Pat &b);
Pat shr(const Pat &a, const Pat &b);
Pat where(const Pat &c, const Pat &t, const Pat &f);
Pat cast(const Pat &x, DTypeList to = {}, std::string name = {});
// tinygrad's logical_not pattern: x != true.
Pat logical_not(const Pat &x);

// Dtype lists for filters.
DTypeList int_dtypes();        // sized ints and index
DTypeList sized_int_dtypes();  // int8..uint64
DTypeList signed_int_dtypes();

}  // namespace wavescope::compiler::rewrite
