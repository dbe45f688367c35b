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

}  // namespace wavescope::compiler::symbolic
