// The register database (am-driver.md §4, §21.1): the embedded tables' contents and counts, the
// spec's fixes (CDNA aliases, UL masks, version selection, the MP1 alias quirk), name resolution,
// search, field encode/decode and read-modify-write, and clear errors.

#include <catch2/catch.hpp>

#include <map>

#include "support_regdb/kernel_headers.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/regs/register_codec.hpp"
#include "wavescope/hw/regs/register_map.hpp"

using namespace wavescope::hw::regs;
using Catch::Matchers::Contains;

namespace {
std::string usage_error(const std::function<void()> &f) {
  try {
    f();
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::Usage);
    return e.what();
  }
  FAIL("no error");
  return {};
}
}  // namespace

TEST_CASE("regdb: the 28 tables of spec 21.1 with every register and field") {
  const auto names = register_table_names();
  REQUIRE(names.size() == 28);
  std::size_t regs = 0, fields = 0;
  for (const auto &n : names) {
    const auto &t = register_table(n);
    CHECK(t.source() == "linux-source-6.12 6.12.118-1~deb12u1");
    REQUIRE(t.headers().size() == 2);
    CHECK(t.headers()[0].sha256.size() == 64);
    regs += t.registers().size();
    fields += t.field_count();
  }
  // The spec's measured unfiltered totals of the 28 pairs.
  CHECK(regs == 76802);
  CHECK(fields == 277145);
  const auto &gc11 = register_table("gc_11_0_0");
  CHECK(gc11.family() == "gc");
  CHECK(gc11.version() == IpVersion{11, 0, 0});
  CHECK(gc11.registers().size() == 5493);
  CHECK(gc11.field_count() == 16971);
  CHECK(gc11.headers()[0].path == "gc/gc_11_0_0_offset.h");
  CHECK(gc11.headers()[1].path == "gc/gc_11_0_0_sh_mask.h");
}

TEST_CASE("regdb: registers and fields as the headers spell them") {
  const auto &gc11 = register_table("gc_11_0_0");
  const auto *r = gc11.find("regSCRATCH_REG7");
  REQUIRE(r);
  CHECK(r->offset == 0x2047);
  CHECK(r->segment == 1);
  CHECK(gc11.find("scratch_reg7") == r);
  CHECK(gc11.find("SCRATCH_REG7") == r);
  const auto *rb = gc11.find("CP_RB0_CNTL");
  REQUIRE(rb);
  CHECK(rb->name == "regCP_RB0_CNTL");
  const auto *bufsz = rb->field("rb_bufsz");
  REQUIRE(bufsz);
  CHECK(bufsz->name == "RB_BUFSZ");
  CHECK(bufsz->lo == 0);
  CHECK(bufsz->hi == 5);
  // mm-prefixed files (mp_11_0) keep their prefix.
  const auto *msg = register_table("mp_11_0").find("MP1_SMN_C2PMSG_66");
  REQUIRE(msg);
  CHECK(msg->name == "mmMP1_SMN_C2PMSG_66");
  CHECK(msg->offset == 0x282);
  CHECK(msg->segment == 0);
  // UL mask suffixes (gc_12_0_0) are parsed like L.
  const auto *poll = register_table("gc_12_0_0").find("CP_RB_WPTR_POLL_CNTL");
  REQUIRE(poll);
  REQUIRE(poll->field("POLL_FREQUENCY"));
  CHECK(poll->field("POLL_FREQUENCY")->hi == 15);
  CHECK(poll->field("IDLE_POLL_COUNT")->lo == 16);
  CHECK(poll->field("IDLE_POLL_COUNT")->hi == 31);
}

TEST_CASE("regdb: CDNA VM registers get their hub prefix as an alias") {
  const auto &gc = register_table("gc_9_4_3");
  const auto *l2 = gc.find("GCVM_L2_CNTL");
  REQUIRE(l2);
  CHECK(l2->name == "regVM_L2_CNTL");
  CHECK(l2->umr_name() == "GCVM_L2_CNTL");
  CHECK(gc.find("regGCVM_L2_CNTL") == l2);
  CHECK(gc.find("VM_L2_CNTL") == l2);
  const auto *fb = register_table("mmhub_1_8_0").find("MMMC_VM_FB_LOCATION_BASE");
  REQUIRE(fb);
  CHECK(fb->name == "regMC_VM_FB_LOCATION_BASE");
  std::size_t gc_aliases = 0, mm_aliases = 0;
  for (const auto &reg : gc.registers()) gc_aliases += !reg.alias.empty();
  for (const auto &reg : register_table("mmhub_1_8_0").registers())
    mm_aliases += !reg.alias.empty();
  // The spec counts 668 / 698 unprefixed regVM_*/regMC_VM_* defines: a register and its _BASE_IDX.
  CHECK(gc_aliases == 334);
  CHECK(mm_aliases == 349);
}

TEST_CASE("regdb: version selection by major version") {
  CHECK(select_register_table("gc", {11, 0, 2})->name() == "gc_11_0_0");
  CHECK(select_register_table("gc", {11, 0, 3})->name() == "gc_11_0_3");
  CHECK(select_register_table("gc", {12, 0, 1})->name() == "gc_12_0_0");
  CHECK(select_register_table("gc", {9, 5, 0})->name() == "gc_9_4_3");
  CHECK(select_register_table("mp", {13, 0, 7})->name() == "mp_13_0_0");
  CHECK(select_register_table("mp", {14, 0, 3})->name() == "mp_14_0_2");
  CHECK(select_register_table("mp", {11, 0, 0})->name() == "mp_11_0");
  CHECK(select_register_table("gc", {10, 3, 0}) == nullptr);
  CHECK(select_register_table("gc", {9, 4, 2}) == nullptr);
}

TEST_CASE("regdb: chip maps choose tables per IP block") {
  const std::map<std::string, std::map<std::string, std::string>> expected = {
      {"navi31",
       {{"gc", "gc_11_0_0"},
        {"mmhub", "mmhub_3_0_0"},
        {"nbio", "nbio_4_3_0"},
        {"mp0", "mp_13_0_0"},
        {"mp1", "mp_11_0"},
        {"hdp", "hdp_6_0_0"},
        {"osssys", "osssys_6_0_0"}}},
      {"navi48",
       {{"gc", "gc_12_0_0"},
        {"mmhub", "mmhub_4_1_0"},
        {"nbio", "nbif_6_3_1"},
        {"mp0", "mp_14_0_2"},
        {"mp1", "mp_11_0"},
        {"hdp", "hdp_7_0_0"},
        {"osssys", "osssys_7_0_0"}}},
      {"mi300x",
       {{"gc", "gc_9_4_3"},
        {"mmhub", "mmhub_1_8_0"},
        {"nbio", "nbio_7_9_0"},
        {"mp0", "mp_13_0_0"},
        {"mp1", "mp_11_0"},
        {"hdp", "hdp_4_4_2"},
        {"osssys", "osssys_4_4_2"},
        {"sdma0", "sdma_4_4_2"}}},
  };
  for (const auto &[asic, blocks] : expected) {
    INFO(asic);
    const auto map = RegisterMap::for_asic(asic);
    std::map<std::string, std::string> got;
    for (const auto &b : map.blocks()) got[b.name] = b.table->name();
    CHECK(got == blocks);
  }
  const auto mi300 = RegisterMap::for_asic("mi300x");
  CHECK(mi300.block("gc")->bases.size() == 8);     // every XCC
  CHECK(mi300.block("mmhub")->bases.size() == 4);  // every AID
}

TEST_CASE("regdb: addresses on the tinygrad mock's bases and the MP1 alias quirk") {
  const auto mock = RegisterMap::for_asic("tinygrad-mock");
  const auto scratch = resolve_register(mock, "gc.SCRATCH_REG7");
  CHECK(register_address(*scratch.block, *scratch.reg) == 0xC047);  // spec 4.1 example
  // The SMU mailbox is addressed with mp_11_0's offsets (segment 0) on MP1's bases, also on RDNA4.
  const auto navi48 = RegisterMap::for_asic("navi48");
  const auto msg = resolve_register(navi48, "mp1.MP1_SMN_C2PMSG_66");
  CHECK(msg.block->table->name() == "mp_11_0");
  CHECK(msg.reg->offset == 0x282);
  CHECK(msg.reg->segment == 0);
  CHECK(register_address(*msg.block, *msg.reg) == msg.block->bases[0][0] + 0x282);
  CHECK_THAT(usage_error([&] { register_address(*scratch.block, *scratch.reg, 5); }),
             Contains("instance 5 does not exist"));
}

TEST_CASE("regdb: UMR-style names resolve, with clear errors") {
  const auto navi31 = RegisterMap::for_asic("navi31");
  auto ref = resolve_register(navi31, "gc.GRBM_STATUS.GUI_ACTIVE");
  REQUIRE(ref.field);
  CHECK(ref.reg->name == "regGRBM_STATUS");
  CHECK(ref.field->lo == 31);
  ref = resolve_register(navi31, "grbm_status");
  CHECK(ref.block->name == "gc");
  CHECK(ref.field == nullptr);
  ref = resolve_register(navi31, "GRBM_STATUS.gui_active");
  CHECK(ref.field->name == "GUI_ACTIVE");
  CHECK_THAT(usage_error([&] { resolve_register(navi31, "gc.GRBM_STATU"); }),
             Contains("unknown register 'GRBM_STATU' in gc (gc_11_0_0) (similar: GRBM_STATUS"));
  CHECK_THAT(usage_error([&] { resolve_register(navi31, "gc.GRBM_STATUS.NOPE"); }),
             Contains("unknown field 'NOPE' of register gc.GRBM_STATUS"));
  CHECK_THAT(usage_error([&] { resolve_register(navi31, "xx.GRBM_STATUS.NOPE"); }),
             Contains("unknown IP block 'xx'"));
  CHECK_THAT(usage_error([&] { resolve_register(navi31, "gc..x"); }),
             Contains("bad register name"));
  const auto all = RegisterMap::all_tables();
  CHECK_THAT(usage_error([&] { resolve_register(all, "GRBM_STATUS"); }),
             Contains("is in 5 blocks (gc_11_0_0, gc_11_0_3, gc_11_5_0, gc_12_0_0, gc_9_4_3)"));
  CHECK(resolve_register(all, "gc_9_4_3.GCVM_L2_CNTL").reg->name == "regVM_L2_CNTL");
}

TEST_CASE("regdb: wildcard and substring search") {
  const auto navi31 = RegisterMap::for_asic("navi31");
  auto hits = find_registers(navi31, "gc.SCRATCH_REG?");
  REQUIRE(hits.size() == 8);
  CHECK(hits[0].reg->name == "regSCRATCH_REG0");
  hits = find_registers(navi31, "scratch_reg7");  // substring, case-insensitive
  REQUIRE(hits.size() == 2);
  CHECK(hits[0].reg->name == "regGRBM_SCRATCH_REG7");
  CHECK(hits[1].reg->name == "regSCRATCH_REG7");
  hits = find_registers(navi31, "mp*.MP1_SMN_C2PMSG_66");
  REQUIRE(hits.size() == 2);
  CHECK(hits[0].block->name == "mp0");
  CHECK(hits[0].reg->name == "regMP1_SMN_C2PMSG_66");  // mp_13_0_0 spells it with reg
  CHECK(hits[1].reg->name == "mmMP1_SMN_C2PMSG_66");
  CHECK(find_registers(navi31, "NO_SUCH_REGISTER_ANYWHERE").empty());
  const auto mi300 = RegisterMap::for_asic("mi300x");
  hits = find_registers(mi300, "gc.GCVM_L2_CNTL");
  REQUIRE(hits.size() >= 1);
  CHECK(hits[0].reg->name == "regVM_L2_CNTL");
  CHECK_THAT(usage_error([&] { find_registers(navi31, "zz.GRBM*"); }),
             Contains("no IP block matches 'zz'"));
  CHECK(glob_match("a*b?c", "AxxbYc"));
  CHECK_FALSE(glob_match("a*b?c", "AxxbYcd"));
  const auto all = RegisterMap::all_tables();
  CHECK(find_registers(all, "*").size() == 76802);
}

TEST_CASE("regdb: field encode, decode and read-modify-write") {
  const auto &rb = *register_table("gc_11_0_0").find("CP_RB0_CNTL");
  const auto *bufsz = rb.field("RB_BUFSZ");
  const auto *blksz = rb.field("RB_BLKSZ");
  REQUIRE(bufsz);
  REQUIRE(blksz);
  CHECK(blksz->lo == 8);
  CHECK(encode_field(rb, *bufsz, 0x3F) == 0x3F);
  CHECK(encode_field(rb, *blksz, 0x3) == 0x300);
  CHECK_THAT(usage_error([&] { encode_field(rb, *bufsz, 0x40); }),
             Contains("value 0x40 is wider than field CP_RB0_CNTL.RB_BUFSZ (bits 0..5, 6 bits, "
                      "at most 0x3f)"));
  const auto decoded = decode_register(rb, 0x30A);
  REQUIRE(decoded.size() == rb.fields.size());
  for (const auto &fv : decoded) {
    if (fv.field == bufsz) CHECK(fv.value == 0xA);
    if (fv.field == blksz) CHECK(fv.value == 0x3);
  }
  CHECK_THAT(usage_error([&] { decode_register(rb, 0x1'0000'0000); }),
             Contains("wider than register CP_RB0_CNTL (32 bits)"));
  const std::pair<std::string_view, std::uint64_t> update[] = {{"rb_bufsz", 5}, {"RB_BLKSZ", 1}};
  CHECK(update_register_value(rb, 0xFFFF'FFFF, update) == 0xFFFF'C1C5);
  std::uint64_t written_at = 0;
  std::uint32_t stored = 0xFFFF'FFFF;
  const auto v = read_modify_write([&](std::uint64_t) { return stored; },
                                   [&](std::uint64_t at, std::uint32_t value) {
                                     written_at = at;
                                     stored = value;
                                   },
                                   0x1234, rb, update);
  CHECK(v == 0xFFFF'C1C5);
  CHECK(stored == 0xFFFF'C1C5);
  CHECK(written_at == 0x1234);
  // A bad field touches nothing: no read, no write.
  bool touched = false;
  const std::pair<std::string_view, std::uint64_t> bad[] = {{"RB_BUFSZ", 1}, {"NOPE", 1}};
  CHECK_THAT(usage_error([&] {
               read_modify_write([&](std::uint64_t) { return touched = true, 0u; },
                                 [&](std::uint64_t, std::uint32_t) { touched = true; }, 0, rb, bad);
             }),
             Contains("unknown field 'NOPE'"));
  CHECK_FALSE(touched);
}

TEST_CASE("regdb: GC 11.0.0 counts from an independent count of the headers") {
  std::string why;
  const auto dir = wavescope::testing::kernel_asic_reg_dir(why);
  if (!dir) {
    WARN("skipped: " << why);
    return;
  }
  // Count the header's text directly: every reg*_BASE_IDX define is a register; every non-zero
  // __*_MASK define whose register has an offset is a field.
  const auto regs = wavescope::testing::parse_header_pair(*dir, "gc", "gc_11_0_0");
  std::size_t fields = 0;
  for (const auto &r : regs) fields += r.fields.size();
  CHECK(regs.size() == 5493);
  CHECK(fields == 16971);
  CHECK(register_table("gc_11_0_0").registers().size() == regs.size());
  CHECK(register_table("gc_11_0_0").field_count() == fields);
}
