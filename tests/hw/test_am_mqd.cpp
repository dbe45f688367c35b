// The compute MQD (am-driver.md §12.4): the [run] field values on RDNA4, the register image's
// agreement with the HQD register block of each GC header, AQL and multi-XCC fields, refusals.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/mqd.hpp"
#include "wavescope/hw/regs/register_table.hpp"

using namespace wavescope::hw::am;
namespace regs = wavescope::hw::regs;
using Catch::Matchers::Contains;

namespace {
// The §12.4 [run] case: RDNA4, 2 MiB ring at 0x2000_0020_0000, gart at 0x2000_0000_0000 (rptr
// +0x20, wptr +0x30), 4 KiB EOP at 0x2000_0000_1000, MQD page at 0x9B000.
ComputeMqdParams rdna4_case() {
  ComputeMqdParams p;
  p.gc_major = 12;
  p.mqd_mc = 0x9B000;
  p.ring_va = 0x2000'0020'0000;
  p.ring_bytes = 2 << 20;
  p.rptr_va = 0x2000'0000'0020;
  p.wptr_va = 0x2000'0000'0030;
  p.eop_va = 0x2000'0000'1000;
  p.eop_bytes = 0x1000;
  return p;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}
}  // namespace

TEST_CASE("am mqd: §12.4 [run] values on RDNA4") {
  const auto m = build_compute_mqd(regs::register_table("gc_12_0_0"), rdna4_case());
  CHECK(m[0] == 0xC031'0800);
  CHECK(m[0x80] == 0x9B000);  // MQD_BASE
  CHECK(m[0x81] == 0);
  CHECK(m[0x84] == 0x5501);  // persistent state: preload_size 0x55, preload_req 1
  CHECK(m[0x85] == 2);
  CHECK(m[0x86] == 0xF);
  CHECK(m[0x87] == 0x111);
  CHECK(m[0x88] == 0x2000);  // PQ_BASE lo/hi
  CHECK(m[0x89] == 0x20);
  CHECK(m[0x8B] == 0x20);  // RPTR_REPORT
  CHECK(m[0x8C] == 0x2000);
  CHECK(m[0x8D] == 0x30);  // WPTR_POLL
  CHECK(m[0x8E] == 0x2000);
  CHECK(m[0x8F] == 0x4000'0018);  // doorbell offset 6, enabled
  CHECK(m[0x91] == 0x512);        // PQ_CONTROL
  CHECK(m[0x95] == 0x30'0000);    // IB_CONTROL min_ib_avail_size 3 (bits 20..21)
  CHECK(m[0xA0] == 0x2000'4000);  // HQ_STATUS0
  CHECK(m[0xA2] == 0x100);        // MQD_CONTROL priv_state
  CHECK(m[0xA5] == 0x10);         // EOP_BASE
  CHECK(m[0xA6] == 0x20);
  CHECK(m[0xA7] == 0x9);  // EOP_CONTROL
  CHECK(m[0xB5] == 0);    // not AQL
  for (unsigned se : {0x17u, 0x18u, 0x1Au, 0x1Bu, 0x2Cu, 0x2Du, 0x2Eu, 0x2Fu})
    CHECK(m[se] == 0xFFFF'FFFF);
  // Nothing else is set.
  unsigned set = 0;
  for (unsigned i = 0; i < kMqdDwords; ++i) set += m[i] != 0;
  CHECK(set == 1 + 8 + 19);
  CHECK(mqd_register_image(m)[0] == 0x9B000);
  CHECK(mqd_register_image(m).size() == 56);
  // gfx11 gives the same image.
  auto p11 = rdna4_case();
  p11.gc_major = 11;
  CHECK(build_compute_mqd(regs::register_table("gc_11_0_0"), p11) == m);
}

TEST_CASE("am mqd: the register image lines up with each header's HQD registers") {
  struct Case {
    const char *table;
    unsigned gc_major;
    std::uint64_t base;
  };
  for (const Case c : {Case{"gc_11_0_0", 11, 0x1FA9}, Case{"gc_12_0_0", 12, 0x1FA9},
                       Case{"gc_9_4_3", 9, 0x1245}}) {
    INFO(c.table);
    const auto &gc = regs::register_table(c.table);
    REQUIRE(gc.find("CP_MQD_BASE_ADDR")->offset == c.base);
    CHECK(gc.find("CP_HQD_PQ_WPTR_HI")->offset == c.base + kMqdRegisterImageDwords - 1);
    // Every register at the 56 addresses is named as the MQD member at its index (the _LO half
    // spelled without suffix), except for these header spellings.
    std::set<std::string> renamed;
    unsigned matched = 0;
    for (const auto &reg : gc.registers()) {
      if (reg.segment != 0 || reg.offset < c.base || reg.offset >= c.base + 56) continue;
      const unsigned dword = kMqdRegisterImageFirst + static_cast<unsigned>(reg.offset - c.base);
      const std::string member(mqd_field_name(c.gc_major, dword));
      const std::string name = lower(reg.base_name());
      if (name == member || name + "_lo" == member)
        ++matched;
      else
        renamed.insert(name + "=" + member);
    }
    std::set<std::string> expected = {
        "cp_hqd_hq_scheduler0=cp_hqd_hq_status0", "cp_hqd_hq_scheduler1=cp_hqd_hq_control0",
        "cp_hqd_offload=cp_hqd_dma_offload", "cp_hqd_eop_events=cp_hqd_eop_done_events"};
    if (c.gc_major == 12) expected.insert("cp_hqd_gds_resource_state=reserved_178");
    CHECK(renamed == expected);
    // 56 addresses minus the holes (0x90; and 0x9A on gc 12) minus CP_HQD_EOP_EVENTS (and
    // CP_HQD_GDS_RESOURCE_STATE on gc 12); the three double-named addresses count once.
    CHECK(matched == (c.gc_major == 12 ? 52u : 54u));
  }
}

TEST_CASE("am mqd: AQL and multi-XCC fields") {
  auto p = rdna4_case();
  p.aql = true;
  const auto m = build_compute_mqd(regs::register_table("gc_12_0_0"), p);
  // queue_full_en 14, slot_based_wptr 2 at 18..19, no_update_rptr 27 (single XCC).
  CHECK(m[0x91] == (0x512u | 1u << 14 | 2u << 18 | 1u << 27));
  CHECK(m[0xB5] == 1);

  ComputeMqdParams p9 = rdna4_case();
  p9.gc_major = 9;
  p9.aql = true;
  p9.xcc_count = 8;
  const auto &gc9 = regs::register_table("gc_9_4_3");
  p9.xcc = 0;
  const auto x0 = build_compute_mqd(gc9, p9);
  p9.xcc = 3;
  p9.mqd_mc += 0x3000;
  const auto x3 = build_compute_mqd(gc9, p9);
  // gc 9.4.3 puts slot_based_wptr at 25..26; XCC 0 of several updates the rptr.
  CHECK(x0[0x91] == (0x512u | 1u << 14 | 2u << 25));
  CHECK(x3[0x91] == (0x512u | 1u << 14 | 2u << 25 | 1u << 27));
  CHECK(x3[0x27] == 3);       // compute_current_logic_xcc_id
  CHECK(x3[0x29] == 1);       // compute_tg_chunk_size
  CHECK(x3[0xE2] == 0x1000);  // cp_mqd_stride_size
  CHECK(x3[0x80] == 0x9E000);
  CHECK(x3[0x2C] == 0);  // gfx9 has se0..se3 only
  CHECK(mqd_field_name(9, 0xE2) == "cp_mqd_stride_size");
  CHECK(mqd_field_name(11, 0x2F) == "compute_static_thread_mgmt_se7");
  CHECK(mqd_field_name(12, 0xB2) == "reserved_178");
  CHECK(mqd_field_name(11, 0xB2) == "cp_hqd_gds_resource_state");
}

TEST_CASE("am mqd: refusals name the bad value") {
  const auto &gc12 = regs::register_table("gc_12_0_0");
  auto p = rdna4_case();
  p.ring_bytes = 0x3000;
  CHECK_THROWS_WITH(build_compute_mqd(gc12, p), Contains("ring size 0x3000"));
  p = rdna4_case();
  p.eop_va += 0x10;
  CHECK_THROWS_WITH(build_compute_mqd(gc12, p), Contains("0x200000001010"));
  p = rdna4_case();
  p.gc_major = 10;
  CHECK_THROWS_WITH(build_compute_mqd(gc12, p), Contains("GC 10.x"));
  p = rdna4_case();
  CHECK_THROWS_WITH(build_compute_mqd(regs::register_table("gc_11_0_0"), p), Contains("gc_11_0_0"));
  p.aql = true;
  p.xcc_count = 2;
  CHECK_THROWS_WITH(build_compute_mqd(gc12, p), Contains("v9 MQD"));
}
