// Fuzz target: arbitrary bytes as an AMDGPU code object, then disassembly and CFG of what loads.
// Any wavescope::Error is a clean rejection; anything else (a crash, another exception) is a bug.

#include <cstdint>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/cfg.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope::compiler::isa;
  try {
    // The first byte picks the fallback target so every encoding family gets exercised.
    static const char *const targets[] = {"gfx1100", "gfx1201", "gfx950"};
    const char *target = targets[size ? data[0] % 3 : 0];
    const auto code =
        CodeObject::from_bytes(std::vector<std::uint8_t>(data, data + size), {target, {}}, "fuzz");
    const auto text = disassemble_text(code);
    Cfg::build(text);
    for (const auto &kernel : code.kernels()) Cfg::build(disassemble_kernel(code, kernel));
  } catch (const wavescope::Error &) {
  }
  return 0;
}
