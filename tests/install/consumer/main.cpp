// An outside program using the installed wavescope libraries.
#include <cstdio>
#include <vector>

#include <wavescope/compiler/isa/disassembler.hpp>

int main() {
  using namespace wavescope::compiler::isa;
  const std::vector<std::uint8_t> bytes = {0x00, 0x00, 0xb0, 0xbf};  // s_endpgm on gfx11
  const auto insts = Disassembler(parse_gpu_target("gfx1100")).disassemble(bytes, 0);
  std::printf("%s\n", insts.at(0).text.c_str());
  return insts.size() == 1 ? 0 : 1;
}
