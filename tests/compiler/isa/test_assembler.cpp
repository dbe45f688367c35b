// The assembler: bytes for a target, diagnostics with line numbers, unknown targets refused.

#include <catch2/catch.hpp>

#include "wavescope/compiler/isa/assembler.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"

using namespace wavescope::compiler::isa;

TEST_CASE("assembles known encodings") {
  const auto bytes = assemble("s_endpgm", parse_gpu_target("gfx1100"));
  CHECK(bytes == std::vector<std::uint8_t>{0x00, 0x00, 0xb0, 0xbf});
  // gfx950 (GCN encoding) differs.
  const auto cdna = assemble("s_endpgm", parse_gpu_target("gfx950"));
  CHECK(cdna == std::vector<std::uint8_t>{0x00, 0x00, 0x81, 0xbf});
}

TEST_CASE("bad assembly reports every error with its line and column") {
  const char *source = "s_mov_b32 s0, 1\n"
                       "v_bogus_op v0, v1\n"
                       "s_mov_b32 s0\n";
  try {
    assemble(source, parse_gpu_target("gfx1100"));
    FAIL("expected an AssemblyError");
  } catch (const AssemblyError &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    REQUIRE(e.diagnostics().size() >= 2);
    CHECK(e.diagnostics()[0].line == 2);
    CHECK(e.diagnostics()[0].column == 1);
    CHECK(e.diagnostics()[0].is_error);
    CHECK(e.diagnostics()[1].line == 3);
    CHECK_THAT(e.what(), Catch::StartsWith("line 2, column 1:"));
  }
}

TEST_CASE("an instruction the target does not have is an error, not a silent re-encode") {
  // v_mfma exists on CDNA only.
  CHECK_THROWS_AS(assemble("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]",
                           parse_gpu_target("gfx1100")),
                  AssemblyError);
}

TEST_CASE("unknown processors are refused before anything is encoded") {
  GpuTarget bogus{"gfx4242", ""};
  CHECK_THROWS_WITH(assemble("s_endpgm", bogus),
                    Catch::Contains("unknown AMDGPU target 'gfx4242'"));
  CHECK_THROWS_AS(Disassembler(bogus), wavescope::Error);
}
