#pragma once
// A disassembly listing for people: runs of `s_code_end` padding collapse into one line.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "wavescope/compiler/isa/instruction.hpp"

namespace wavescope::compiler::isa {

struct ListingLine {
  std::size_t first = 0;  // index of the instruction this line shows (or the run's first)
  std::size_t count = 1;  // > 1 for a collapsed run of s_code_end padding
  bool is_padding_run() const { return count > 1; }
};

// Lines for `instructions`, collapsing runs of at least `min_run` consecutive s_code_end.
std::vector<ListingLine> make_listing(const std::vector<Instruction> &instructions,
                                      std::size_t min_run = 2);

}  // namespace wavescope::compiler::isa
