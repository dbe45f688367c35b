#pragma once
// Deterministic random expressions for property tests and fuzzing of the simplifier: a few small
// integer variables and an expression over them using every operator of the syntax (including
// where, invalid, min/max, bitwise ops and shifts). Any byte sequence decodes to a valid case, so
// a fuzzer's input can drive it directly.

#include <cstdint>
#include <span>

#include "wavescope/compiler/symbolic/corpus.hpp"

namespace wavescope::compiler::symbolic {

// A case from bytes (missing bytes read as 0).
SymbolicCase random_case(std::span<const std::uint8_t> bytes);
// A case from a seed.
SymbolicCase random_case(std::uint64_t seed);

// Cast-heavy cases: variables of mixed dtypes (index, int8, uint8, int32, int64), some at the
// edge of their type, and a well-typed expression over them: the operands of each operator share
// one dtype (constants are casts to it) and every change of dtype is an explicit cast, including
// to and from bool.
SymbolicCase random_typed_case(std::span<const std::uint8_t> bytes);
SymbolicCase random_typed_case(std::uint64_t seed);

// Mixed-dtype cases: the same variables, in expressions that mix their dtypes without casts (int8
// beside int32, a condition beside uint8, bare literals), as users write them; the parser promotes
// the operands (spec §1.5.2). Now and then a value is cast.
SymbolicCase random_mixed_case(std::span<const std::uint8_t> bytes);
SymbolicCase random_mixed_case(std::uint64_t seed);

}  // namespace wavescope::compiler::symbolic
