// Code objects: targets, kernels and descriptors on the real corpus ELFs, including the tinygrad
// packer ELFs with zeroed header fields.

#include <catch2/catch.hpp>

#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/code_object.hpp"

using namespace wavescope::compiler::isa;
using wavescope::testing::corpus_programs;

TEST_CASE("every corpus code object loads with the capture's target and kernel") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  const auto programs = corpus_programs();
  REQUIRE(programs.size() == 14);
  for (const auto &p : programs) {
    INFO(p.elf.string());
    const auto code = CodeObject::load(p.elf, {p.target, p.name});
    CHECK(code.target().processor == p.target);
    CHECK(code.text().address == p.text_address);
    CHECK(code.text().size == p.text_size);
    REQUIRE(code.kernels().size() == 1);
    const auto &kernel = code.kernels().front();
    CHECK(kernel.name == p.name);
    CHECK(kernel.entry == p.entry_pc);
    CHECK(kernel.code_size > 0);
    CHECK(kernel.entry + kernel.code_size <= code.text().address + code.text().size);
    const auto family = code.target().family();
    CHECK(kernel.descriptor.wave_size == (family == GpuFamily::Cdna ? 64u : 32u));
    CHECK(kernel.descriptor.vgpr_count > 0);
  }
}

TEST_CASE("tinygrad packer ELFs load and name what is unusual") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1200/handwritten/program.elf");
  SECTION("without a target the error says to name one, in the library's terms") {
    try {
      CodeObject::load(elf);
      FAIL("expected an error");
    } catch (const TargetNotNamed &e) {
      CHECK(e.kind() == wavescope::ErrorKind::BadInput);
      CHECK_THAT(e.problem(),
                 Catch::EndsWith("names no AMDGPU processor (a tinygrad packer ELF?)"));
      CHECK(std::string(e.what()) == e.problem() + "; name the target processor, e.g. gfx1100");
    }
  }
  SECTION("with a target it loads, and its quirks are listed") {
    const auto code = CodeObject::load(elf, {"gfx1201", "custom_handwritten"});
    const auto &quirks = code.quirks();
    auto mentions = [&](std::string_view what) {
      return std::any_of(quirks.begin(), quirks.end(),
                         [&](const std::string &q) { return q.find(what) != std::string::npos; });
    };
    CHECK(mentions("e_type is 0"));
    CHECK(mentions("e_machine is 0"));
    CHECK(mentions("e_shentsize is 0"));
    CHECK(mentions("EI_DATA"));
    CHECK(mentions("no symbols"));
    CHECK(code.kernels().at(0).name == "custom_handwritten");
    CHECK(code.kernels().at(0).entry == 0x100);
    CHECK(code.kernels().at(0).descriptor.wave_size == 32);
    // The repaired copy is a standard ELF again.
    const auto again = CodeObject::from_bytes(code.normalized_bytes(), {}, "normalized");
    CHECK(again.target().processor == "gfx1201");
    CHECK(again.quirks().size() < quirks.size());
  }
}

TEST_CASE("a well-formed code object has no quirks and exposes symbols and descriptor fields") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx950/gemm/program.elf");
  const auto code = CodeObject::load(elf);
  CHECK(code.quirks().empty());
  CHECK(code.target().processor == "gfx950");
  CHECK(code.target().family() == GpuFamily::Cdna);
  const auto &kernel = code.kernel("r_32_32_16_2");
  CHECK(kernel.descriptor.wave_size == 64);
  CHECK(kernel.descriptor.sgpr_count > 0);
  CHECK(kernel.code_size == 296);
  const bool has_kd_symbol =
      std::any_of(code.symbols().begin(), code.symbols().end(),
                  [](const Symbol &s) { return s.name == "r_32_32_16_2.kd"; });
  CHECK(has_kd_symbol);
  CHECK_THROWS_WITH(code.kernel("nope"), Catch::Contains("kernels: r_32_32_16_2"));
}

TEST_CASE("gfx_target_version maps to processor names") {
  CHECK(processor_from_gfx_target_version(110000) == "gfx1100");
  CHECK(processor_from_gfx_target_version(120001) == "gfx1201");
  CHECK(processor_from_gfx_target_version(90500) == "gfx950");
  CHECK(processor_from_gfx_target_version(90010) == "gfx90a");
}

TEST_CASE("targets are validated against LLVM") {
  CHECK(parse_gpu_target("gfx1100").family() == GpuFamily::Rdna3);
  CHECK(parse_gpu_target("gfx1201").family() == GpuFamily::Rdna4);
  CHECK(parse_gpu_target("gfx942").family() == GpuFamily::Cdna);
  CHECK(parse_gpu_target("gfx950:xnack+").features == "+xnack");
  CHECK_THROWS_AS(parse_gpu_target("gfx9999"), wavescope::Error);
  CHECK_THROWS_WITH(parse_gpu_target("sm_90"), Catch::Contains("unknown AMDGPU target"));
  CHECK_THROWS_WITH(parse_gpu_target("gfx950:xnack"), Catch::Contains("bad target feature"));
}
