// The whole .text of every corpus code object disassembles, and the text equals llvm-objdump-22's
// on the same bytes and tinygrad's `asm` strings in waves.jsonl.gz.

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/assembler.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"

using namespace wavescope::compiler::isa;
using wavescope::testing::corpus_programs;

namespace {

// address -> instruction text, from `llvm-objdump -d` of `elf`.
std::map<std::uint64_t, std::string> objdump(const std::filesystem::path &elf) {
  const std::string command =
      fmt::format("'{}' -d --no-show-raw-insn '{}' 2>&1", WAVESCOPE_LLVM_OBJDUMP, elf.string());
  FILE *pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  REQUIRE(pclose(pipe) == 0);
  // "\t<text>   // 000000001700: F4080100 ...": with --no-show-raw-insn the comment is just
  // "// 000000001700:" (a branch may add " <sym+off>").
  static const std::regex line(R"(^\t(.*?)\s*// ([0-9A-Fa-f]{12}):.*$)");
  std::map<std::uint64_t, std::string> texts;
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::smatch m;
    const std::string text_line = output.substr(start, end - start);
    if (std::regex_match(text_line, m, line))
      texts[std::stoull(m[2].str(), nullptr, 16)] = m[1].str();
    start = end + 1;
  }
  return texts;
}

}  // namespace

TEST_CASE("corpus .text disassembles exactly like llvm-objdump-22") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  const wavescope::testing::TempDir temp;
  const auto tmp = temp.path / "normalized.elf";
  std::size_t compared = 0;
  for (const auto &p : corpus_programs()) {
    INFO(p.elf.string());
    const auto code = CodeObject::load(p.elf, {p.target, p.name});
    const auto insts = disassemble_text(code);
    // tinygrad decodes the same number of instructions (padding included).
    CHECK(insts.size() == p.num_insts);
    for (const auto &inst : insts) CHECK(inst.valid);
    // objdump reads the repaired copy (tinygrad packer ELFs are not valid for it as written).
    wavescope::write_file_atomically(
        tmp, std::span<const unsigned char>(code.normalized_bytes().data(),
                                            code.normalized_bytes().size()));
    const auto reference = objdump(tmp);
    CHECK(reference.size() == insts.size());
    for (const auto &inst : insts) {
      auto it = reference.find(inst.address);
      INFO(fmt::format("{:#x}", inst.address));
      REQUIRE(it != reference.end());
      CHECK(inst.text == it->second);
      ++compared;
    }
  }
  CHECK(compared > 2000);
}

// tinygrad's disassembler writes some instructions differently from LLVM. Every difference must be
// one of two kinds, each counted and reported:
//  * the same instruction in other notation: tinygrad's text, assembled by LLVM, gives exactly the
//    instruction's bytes (e.g. `s_nop 0x0`, `s_sendmsg 0x3`, `v_mov_b32` without `_e32`,
//    RDNA4 SMEM `null offset:0x10`);
//  * tinygrad omits VOP2's implicit `vcc_lo` operand of `v_cndmask_b32_e32` (LLVM prints it, and
//    needs it to assemble).
TEST_CASE("corpus instruction text equals tinygrad's asm strings in waves.jsonl.gz") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t compared = 0, same_text = 0, same_bytes = 0, implicit_vcc = 0;
  for (const auto &p : corpus_programs()) {
    const auto waves_file = p.capture / "waves.jsonl.gz";
    const auto code = CodeObject::load(p.elf, {p.target, p.name});
    std::map<std::uint64_t, const Instruction *> by_pc;
    const auto insts = disassemble_text(code);
    for (const auto &inst : insts) by_pc[inst.address] = &inst;
    std::map<std::string, std::string> checked;  // tinygrad text -> our text, already verified
    for (const auto &line : wavescope::testing::read_gz_lines(waves_file)) {
      const auto wave = nlohmann::json::parse(line);
      if (!wave.value("mapped", false) || !wave.contains("insts")) continue;
      for (const auto &i : wave["insts"]) {
        // The wave-end record names tinygrad's own s_endpgm, at entry_pc on untraced SEs.
        if (i["pkt"].get<std::string>().rfind("WAVEEND", 0) == 0) continue;
        const auto pc = i["pc"].get<std::uint64_t>();
        auto it = by_pc.find(pc);
        if (it == by_pc.end()) continue;  // the other program of a two-kernel capture
        const Instruction &ours = *it->second;
        const auto theirs = i["asm"].get<std::string>();
        ++compared;
        if (ours.text == theirs) {
          ++same_text;
          continue;
        }
        INFO(fmt::format("{} {:#x}: llvm '{}' vs tinygrad '{}'", p.elf.string(), pc, ours.text,
                         theirs));
        if (ours.mnemonic == "v_cndmask_b32_e32" && ours.text == theirs + ", vcc_lo") {
          ++implicit_vcc;
          continue;
        }
        std::vector<std::uint8_t> encoded;
        try {
          encoded = assemble(theirs, code.target());
        } catch (const wavescope::Error &e) {
          FAIL("tinygrad's text does not assemble: " << e.what());
        }
        CHECK(encoded == std::vector<std::uint8_t>(ours.raw.begin(), ours.raw.begin() + ours.size));
        ++same_bytes;
      }
    }
  }
  WARN(fmt::format("{} mapped instructions: {} same text, {} same bytes in other notation, {} "
                   "without implicit vcc_lo",
                   compared, same_text, same_bytes, implicit_vcc));
  CHECK(compared > 2000);
  CHECK(same_text > same_bytes + implicit_vcc);
}
