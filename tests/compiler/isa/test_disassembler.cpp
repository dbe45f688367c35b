// Decoding single instructions: text, size, category, branch targets; bad bytes.

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/assembler.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"
#include "wavescope/compiler/isa/listing.hpp"

using namespace wavescope::compiler::isa;

namespace {
std::vector<Instruction> roundtrip(const char *source, const char *target = "gfx1100") {
  const auto gpu = parse_gpu_target(target);
  const auto bytes = assemble(source, gpu);
  return Disassembler(gpu).disassemble(bytes, 0x1000);
}
}  // namespace

TEST_CASE("instructions decode with categories that match SQTT's view") {
  const auto insts = roundtrip(R"(
    s_load_b128 s[4:7], s[0:1], 0x0
    s_mov_b32 s0, 1
    v_add_f32_e32 v0, v1, v2
    global_load_b32 v1, v[2:3], off
    ds_store_b32 v5, v4
    s_waitcnt lgkmcnt(0)
    s_barrier
    s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
    s_nop 0
    s_endpgm
  )");
  REQUIRE(insts.size() == 10);
  const InstCategory expected[] = {
      InstCategory::Smem,  InstCategory::Salu,    InstCategory::Valu,    InstCategory::Vmem,
      InstCategory::Lds,   InstCategory::Waitcnt, InstCategory::Barrier, InstCategory::Message,
      InstCategory::Other, InstCategory::Endpgm};
  for (std::size_t i = 0; i < insts.size(); ++i) {
    INFO(insts[i].text);
    CHECK(insts[i].category == expected[i]);
  }
  CHECK(insts[0].text == "s_load_b128 s[4:7], s[0:1], null");
  CHECK(insts[0].size == 8);
  CHECK(insts[0].mnemonic == "s_load_b128");
  CHECK(insts[0].address == 0x1000);
  CHECK(insts[1].address == 0x1008);
  CHECK(insts.back().branch == BranchKind::Return);
  CHECK_FALSE(insts.back().falls_through());
  CHECK(insts[2].hex_words().size() == 8);
}

TEST_CASE("branch targets come from MC instruction analysis") {
  const auto insts = roundtrip(R"(
  top:
    s_add_u32 s0, s0, 1
    s_cmp_lt_u32 s0, 10
    s_cbranch_scc1 top
    s_branch out
    s_nop 0
  out:
    s_setpc_b64 s[4:5]
  )");
  REQUIRE(insts.size() == 6);
  CHECK(insts[2].branch == BranchKind::Conditional);
  REQUIRE(insts[2].branch_target);
  CHECK(*insts[2].branch_target == 0x1000);
  CHECK(insts[3].branch == BranchKind::Unconditional);
  CHECK(*insts[3].branch_target == insts[5].address);
  CHECK(insts[5].branch == BranchKind::Indirect);
  CHECK_FALSE(insts[5].branch_target);
}

TEST_CASE("RDNA4 and CDNA targets decode their own encodings") {
  CHECK(roundtrip("s_wait_loadcnt 0x0\ns_endpgm", "gfx1201").at(0).category ==
        InstCategory::Waitcnt);
  const auto cdna =
      roundtrip("v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15]\ns_endpgm", "gfx950");
  CHECK(cdna.at(0).category == InstCategory::Valu);
  CHECK(cdna.at(0).mnemonic == "v_mfma_f32_32x32x8_f16");
}

TEST_CASE("undecodable words become .long, truncated code is an error") {
  const Disassembler dis(parse_gpu_target("gfx1100"));
  const std::uint8_t bad[] = {0xff, 0xff, 0xff, 0xff};
  const auto inst = dis.decode(bad, 0x40);
  CHECK_FALSE(inst.valid);
  CHECK(inst.size == 4);
  CHECK(inst.text == ".long 0xffffffff");
  // s_load_b128 is 8 bytes: the first 4 alone end mid-instruction.
  const auto full = assemble("s_load_b128 s[4:7], s[0:1], 0x0", parse_gpu_target("gfx1100"));
  REQUIRE(full.size() == 8);
  CHECK_THROWS_WITH(dis.decode(std::span(full.data(), 4), 0x80),
                    Catch::Contains("ends in the middle of an instruction at 0x80"));
  CHECK_THROWS_WITH(dis.decode(std::span(full.data(), 2), 0x80),
                    Catch::Contains("ends in the middle of an instruction"));
}

TEST_CASE(
    "an instruction whose literal is cut off by the end of the code is an error, on every target") {
  // s_lshl3_add_u32 with a literal operand (0xff) as the last word: LLVM 22 crashes if handed
  // exactly these four bytes (the shape of ../shared/fuzz-findings/code_object-gfx950-*.elf).
  const std::uint8_t cut[] = {0x4a, 0xff, 0x00, 0x98};
  for (const char *target : {"gfx950", "gfx1100", "gfx1201"}) {
    INFO(target);
    const Disassembler dis(parse_gpu_target(target));
    CHECK_THROWS_WITH(
        dis.decode(cut, 0x1b3c),
        Catch::Contains("middle of an instruction at 0x1b3c: it needs 8 bytes, 4 are left"));
  }
  // With its literal the same instruction decodes.
  const std::uint8_t whole[] = {0x4a, 0xff, 0x00, 0x98, 0x78, 0x56, 0x34, 0x12};
  const auto inst = Disassembler(parse_gpu_target("gfx950")).decode(whole, 0);
  CHECK(inst.size == 8);
  CHECK(inst.valid);
  CHECK_THAT(inst.text, Catch::StartsWith("s_lshl3_add_u32"));
}

TEST_CASE("listings collapse runs of s_code_end padding") {
  const auto insts = roundtrip("s_endpgm\ns_code_end\ns_code_end\ns_code_end\ns_nop 0\ns_code_end");
  const auto lines = make_listing(insts);
  REQUIRE(lines.size() == 4);
  CHECK(lines[1].is_padding_run());
  CHECK(lines[1].count == 3);
  CHECK_FALSE(lines[3].is_padding_run());
}
