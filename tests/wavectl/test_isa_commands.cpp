// wavectl codeobj / disasm / cfg / asm on real corpus code objects and on bad input.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::wavectl;

TEST_CASE("wavectl disasm prints the kernel with padding collapsed, and --json per instruction") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1100/gemm/program.elf");
  const auto text = wavectl({"disasm", elf.string()});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("<r_32_32_16_2>:"));
  CHECK_THAT(text.out, Catch::Contains("s_load_b128 s[4:7], s[0:1], null"));
  CHECK_THAT(text.out, Catch::Contains("s_code_end x "));

  const auto json = wavectl({"disasm", elf.string(), "--json"});
  REQUIRE(json.exit_code == 0);
  const auto lines = json_lines(json.out);
  REQUIRE(lines.size() == 173);
  CHECK(lines[0]["address"] == 0x1700);
  CHECK(lines[0]["size"] == 8);
  CHECK(lines[0]["bytes"] == "F4080100 F8000000");
  CHECK(lines[0]["category"] == "SMEM");
  const auto branch = std::find_if(lines.begin(), lines.end(), [](const auto &l) {
    return l.contains("branch") && l["branch"] == "conditional";
  });
  REQUIRE(branch != lines.end());
  CHECK((*branch)["target"] == 0x1868);
}

TEST_CASE("wavectl disasm --kernel limits to one kernel, and packer ELFs need --target") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1200/handwritten/program.elf");
  const auto refused = wavectl({"disasm", elf.string()});
  CHECK(refused.exit_code == 3);
  CHECK_THAT(refused.err, Catch::Contains("--target"));
  const auto ok = wavectl({"disasm", elf.string(), "--target", "gfx1201", "--kernel", "kernel"});
  CHECK(ok.exit_code == 0);
  const auto bad_kernel = wavectl({"disasm", elf.string(), "--target", "gfx1201", "--kernel", "x"});
  CHECK(bad_kernel.exit_code == 2);
  CHECK_THAT(bad_kernel.err, Catch::Contains("no kernel named 'x' (kernels: kernel)"));
}

TEST_CASE("wavectl codeobj reports target, kernels and quirks") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1100/sync/program_k0.elf");
  const auto r = wavectl({"codeobj", elf.string(), "--target", "gfx1100", "--json"});
  REQUIRE(r.exit_code == 0);
  const auto j = json_lines(r.out).at(0);
  CHECK(j["target"] == "gfx1100");
  CHECK(j["family"] == "RDNA3");
  CHECK(j["kernels"].size() == 1);
  CHECK(j["kernels"][0]["wave_size"] == 32);
  CHECK(j["kernels"][0]["lds_bytes"].get<int>() > 0);
  CHECK(j["quirks"].size() >= 4);
}

TEST_CASE("wavectl cfg in text, JSON and DOT") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1200/handwritten/program.elf");
  const std::vector<std::string> base = {"cfg", elf.string(), "--target", "gfx1201"};
  auto with = [&](std::vector<std::string> extra) {
    auto args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return wavectl(args);
  };
  const auto json = with({"--json"});
  REQUIRE(json.exit_code == 0);
  const auto graph = json_lines(json.out).at(0);
  const auto &edges = graph["edges"];
  CHECK(std::any_of(edges.begin(), edges.end(),
                    [](const auto &e) { return e["back_edge"] == true; }));
  const auto dot = with({"--dot"});
  REQUIRE(dot.exit_code == 0);
  CHECK_THAT(dot.out, Catch::StartsWith("digraph"));
  CHECK_THAT(dot.out, Catch::Contains("color=green3"));
  const auto text = with({});
  CHECK_THAT(text.out, Catch::Contains("back"));
}

TEST_CASE("wavectl asm assembles, and reports file:line:column on errors") {
  const wavescope::testing::TempDir temp;
  const auto good = temp.path / "good.s";
  const auto bad = temp.path / "bad.s";
  std::ofstream(good) << "s_mov_b32 s0, 1\ns_endpgm\n";
  std::ofstream(bad) << "s_mov_b32 s0, 1\nv_nonsense v0\n";
  const auto ok = wavectl({"asm", good.string(), "--target", "gfx1100"});
  CHECK(ok.exit_code == 0);
  CHECK_THAT(ok.out, Catch::Contains("BFB00000"));
  const auto fail = wavectl({"asm", bad.string(), "--target", "gfx1100"});
  CHECK(fail.exit_code == 3);
  CHECK_THAT(fail.err, Catch::Contains(bad.string() + ":2:1: error:"));
  const auto unknown = wavectl({"asm", good.string(), "--target", "gfx4242"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("unknown AMDGPU target"));
}

TEST_CASE("wavectl refuses non-ELF input with a clear error") {
  const wavescope::testing::TempDir temp;
  const auto path = temp.path / "not-elf.bin";
  std::ofstream(path) << "definitely not an ELF";
  const auto r = wavectl({"disasm", path.string()});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::StartsWith("error: " + path.string() + ": not an ELF file"));
}

TEST_CASE("wavectl disasm and cfg give a clear error on the code object that crashed LLVM") {
  const std::string elf = std::string(WAVESCOPE_FUZZ_REGRESSIONS) +
                          "/fuzz_code_object/code_object-gfx950-disasm-segv.elf";
  REQUIRE(std::filesystem::exists(elf));
  for (const char *verb : {"disasm", "cfg"}) {
    INFO(verb);
    const auto r = wavectl({verb, elf});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + elf +
                       ": code ends in the middle of an instruction at 0x1b3c: it needs 8 bytes, "
                       "4 are left\n");
  }
  // codeobj describes what still reads (the header, what is unusual in it), then gives the
  // same error.
  const auto info = wavectl({"codeobj", elf});
  CHECK(info.exit_code == 3);
  CHECK_THAT(info.out, Catch::Contains("gfx950"));
  CHECK_THAT(info.out, Catch::Contains("15 symbols with an unreadable name or value were skipped"));
  CHECK_THAT(info.err, Catch::Contains("code ends in the middle of an instruction at 0x1b3c"));
}

TEST_CASE("wavectl disasm, cfg and codeobj refuse a code object whose .text is NOBITS") {
  // Found by fuzz_code_object: the section claims 0x100000000000450 bytes but has none in the file.
  const std::string elf =
      std::string(WAVESCOPE_FUZZ_REGRESSIONS) + "/fuzz_code_object/code_object-nobits-text.elf";
  REQUIRE(std::filesystem::exists(elf));
  for (const char *verb : {"disasm", "cfg", "codeobj"}) {
    INFO(verb);
    const auto r = wavectl({verb, elf});
    CHECK(r.exit_code == 3);
    CHECK(r.out.empty());
    CHECK(r.err == "error: " + elf +
                       ": .text is a NOBITS section of 0x100000000000450 bytes: the file holds no "
                       "code for it\n");
  }
}
