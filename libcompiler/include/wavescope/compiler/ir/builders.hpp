#pragma once
// Operator sugar for building ALU nodes, in the forms the simplifier's rules expect (spec §4.3.3):
// there is no SUB or NEG in index math; `a - b` is `a + b*-1` and `-a` is `a*-1`.
//
// Result dtypes follow promotion (spec §1.5.2) without inserting casts: a node's value is its op
// applied to its operands' values, wrapped to the node's dtype when that is a sized int. An integer
// literal takes the dtype of the other operand when that is a sized int, `index` otherwise.
// Nothing here simplifies; building `a + 0` gives an ADD node.

#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler {

// A node of `op` over `src` with the derived dtype.
UOp alu(Op op, std::vector<UOp> src);

UOp operator+(const UOp &a, const UOp &b);
UOp operator+(const UOp &a, Int b);
UOp operator*(const UOp &a, const UOp &b);
UOp operator*(const UOp &a, Int b);
UOp operator-(const UOp &a, const UOp &b);  // a + b*-1 (a + -c for a literal)
UOp operator-(const UOp &a, Int b);
UOp operator-(const UOp &a);  // a*-1; the logical not for bools

UOp floordiv(const UOp &a, const UOp &b);
UOp floordiv(const UOp &a, Int b);
UOp floormod(const UOp &a, const UOp &b);
UOp floormod(const UOp &a, Int b);
UOp cdiv(const UOp &a, const UOp &b);
UOp cmod(const UOp &a, const UOp &b);
UOp lt(const UOp &a, const UOp &b);
UOp lt(const UOp &a, Int b);
UOp ne(const UOp &a, const UOp &b);
UOp ne(const UOp &a, Int b);
UOp eq(const UOp &a, const UOp &b);
UOp maximum(const UOp &a, const UOp &b);
UOp minimum(const UOp &a, const UOp &b);  // -max(-a, -b)
UOp bit_and(const UOp &a, const UOp &b);
UOp bit_or(const UOp &a, const UOp &b);
UOp bit_xor(const UOp &a, const UOp &b);
UOp shl(const UOp &a, const UOp &b);
UOp shr(const UOp &a, const UOp &b);
UOp where(const UOp &cond, const UOp &t, const UOp &f);
UOp cast(const UOp &a, DType to);  // `a` itself when it already has that dtype
// tinygrad's logical_not: bool(a) != true.
UOp logical_not(const UOp &a);
// `cond ? a : invalid`.
UOp valid(const UOp &a, const UOp &cond);

// Left-nested sum/product of the terms (bool terms combine with | and &); `empty` when none.
UOp usum(const std::vector<UOp> &terms, Int empty = 0);
UOp uprod(const std::vector<UOp> &factors, Int empty = 1);

// A literal of value `v` to combine with `like`: its dtype when that is a sized int, else index.
UOp literal_for(const UOp &like, Int v);

}  // namespace wavescope::compiler
