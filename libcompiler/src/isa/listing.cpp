#include "wavescope/compiler/isa/listing.hpp"

namespace wavescope::compiler::isa {

std::vector<ListingLine> make_listing(const std::vector<Instruction> &instructions,
                                      std::size_t min_run) {
  std::vector<ListingLine> lines;
  for (std::size_t i = 0; i < instructions.size();) {
    std::size_t run = 0;
    while (i + run < instructions.size() && instructions[i + run].mnemonic == "s_code_end") ++run;
    if (run >= min_run && run > 1) {
      lines.push_back({i, run});
      i += run;
    } else {
      lines.push_back({i, 1});
      ++i;
    }
  }
  return lines;
}

}  // namespace wavescope::compiler::isa
