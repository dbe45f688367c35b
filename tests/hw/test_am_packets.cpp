// PM4 and SDMA packet builders and decoders, doorbell index math (am-driver.md §12.1, §12.8).
// Expected dwords are the kernel headers' macros as tinygrad's autogen evaluates them (nvd.h,
// soc15d.h, sdma_v6_0_0_pkt_open.h, vega10_sdma_pkt_open.h).

#include <catch2/catch.hpp>

#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/doorbell.hpp"
#include "wavescope/hw/am/pm4_packets.hpp"
#include "wavescope/hw/am/sdma_packets.hpp"

using namespace wavescope::hw::am;
using Catch::Matchers::Contains;
using Dwords = std::vector<std::uint32_t>;

TEST_CASE("am doorbell: §12.1 index math") {
  CHECK(kDoorbellMecRing0 == 3);
  CHECK(doorbell_byte_offset(kDoorbellMecRing0) == 0x18);
  CHECK(doorbell_register_offset(kDoorbellMecRing0) == 6);
  for (unsigned n = 0; n < 16; ++n) {
    const unsigned index = sdma_doorbell_index(n % 4, n / 4);
    CHECK(index == 0x100 + 0xA * n);
    CHECK(doorbell_byte_offset(index) == 0x800 + 0x50 * n);
    CHECK(doorbell_register_offset(index) == 0x200 + 0x14 * n);
    CHECK(doorbell_index_from_register(doorbell_register_offset(index)) == index);
  }
  CHECK_THROWS_WITH(sdma_doorbell_index(4, 0), Contains("pipe 4"));
  CHECK(doorbell_name(3) == "MEC_RING0");
  CHECK(doorbell_name(0x10A) == "sDMA_ENGINE1");
  CHECK(doorbell_name(0) == "KIQ");
  CHECK(doorbell_name(0x178) == "IH");
  CHECK(doorbell_name(0x0D + 5) == "USERQUEUE+5");
  CHECK(doorbell_name(0x1FF).empty());
  CHECK(doorbell_value(DoorbellQueueKind::Pm4, 0x40) == 0x40);
  CHECK(doorbell_value(DoorbellQueueKind::Sdma, 0x40) == 0x100);
  CHECK(doorbell_value(DoorbellQueueKind::Aql, 32) == 1);
  CHECK_THROWS_AS(doorbell_value(DoorbellQueueKind::Aql, 17), wavescope::Error);
}

TEST_CASE("am pm4: §12.8 header formula") {
  CHECK(pm4_header(pm4::kReleaseMem, 7) == 0xC006'4900);
  CHECK(pm4_header(pm4::kWaitRegMem, 6) == 0xC005'3C00);
  CHECK(pm4_header(pm4::kIndirectBuffer, 3) == 0xC002'3F00);
  CHECK(pm4_header(pm4::kNop, 0) == 0xFFFF'1000);  // the kernel's one-dword NOP
  CHECK(std::string(pm4_opcode_name(0x58)) == "ACQUIRE_MEM");
  CHECK(pm4_generation_for_gc(9) == Pm4Generation::Gfx9);
  CHECK(pm4_generation_for_gc(12) == Pm4Generation::Gfx10Plus);
}

TEST_CASE("am pm4: the runtime's packets on gfx10+ and gfx9") {
  const std::uint64_t va = 0x2000'0000'1230;
  Pm4Stream nv(Pm4Generation::Gfx10Plus);
  nv.signal(va, 7);
  CHECK(nv.dwords() == Dwords{0xC006'4900, 0x0070'F514, 0x2000'0000, 0x1230, 0x2000, 7, 0, 0});
  Pm4Stream nv_write(Pm4Generation::Gfx10Plus);
  nv_write.write(va, 0x1'0000'0002, true);
  CHECK(nv_write.dwords() == Dwords{0xC006'4900, 0x514, 0x4000'0000, 0x1230, 0x2000, 2, 1, 0});
  CHECK_THROWS_WITH(Pm4Stream(Pm4Generation::Gfx10Plus).write(va, 0x1'0000'0000),
                    Contains("0x100000000"));

  Pm4Stream g9(Pm4Generation::Gfx9);
  g9.signal(va, 7);
  CHECK(g9.dwords() == Dwords{0xC006'4900, 0x0008'8514, 0x2000'0000, 0x1230, 0x2000, 7, 0, 0});

  Pm4Stream wait(Pm4Generation::Gfx10Plus);
  wait.wait(va, 5);
  CHECK(wait.dwords() == Dwords{0xC005'3C00, 0x15, 0x1230, 0x2000, 5, 0xFFFF'FFFF, 4});

  Pm4Stream barrier(Pm4Generation::Gfx10Plus);
  barrier.memory_barrier(0x1234, 0x1235);
  CHECK(barrier.dwords() == Dwords{0xC005'3C00, 0x45, 0x1234, 0x1235, 0xFFFF'FFFF, 0xFFFF'FFFF, 4,
                                   0xC006'5800, 0, 0xFFFF'FFFF, 0xFFFF'FFFF, 0, 0, 0, 0xC3F1});
  Pm4Stream acq9(Pm4Generation::Gfx9);
  acq9.acquire_mem();
  CHECK(acq9.dwords() == Dwords{0xC005'5800, 0x28C4'0000, 0xFFFF'FFFF, 0xFFFF'FFFF, 0, 0, 0xA});

  Pm4Stream ib(Pm4Generation::Gfx10Plus);
  ib.indirect_buffer(0x2000'0010'0000, 0x40).nop(2).nop();
  CHECK(ib.dwords() == Dwords{0xC002'3F00, 0x10'0000, 0x2000, 0x40 | pm4::kIndirectBufferValid,
                              0xC001'1000, 0, 0, 0xFFFF'1000});
  CHECK_THROWS_WITH(Pm4Stream(Pm4Generation::Gfx9).indirect_buffer(0x1002, 4), Contains("0x1002"));

  Pm4Stream regs(Pm4Generation::Gfx10Plus);
  const std::uint32_t vals[] = {1, 2};
  regs.set_sh_reg(0x2E00, vals).set_uconfig_reg(0xC040, vals);
  CHECK(regs.dwords() == Dwords{0xC002'7600, 0x200, 1, 2, 0xC002'7900, 0x40, 1, 2});
  CHECK_THROWS_WITH(Pm4Stream(Pm4Generation::Gfx10Plus).set_sh_reg(0x2FFF, vals),
                    Contains("0x2fff"));

  Pm4Stream ts(Pm4Generation::Gfx10Plus);
  ts.timestamp(va);
  CHECK(ts.size() == 8 + 8 + 8);
  CHECK(ts.dwords()[2] == 0x0200'0000);   // int_sel 2 on the first, flushing RELEASE_MEM
  CHECK(ts.dwords()[10] == 0x6000'0000);  // data_sel 3: the GPU clock
}

TEST_CASE("am pm4: the decoder splits what the builder wrote") {
  Pm4Stream s(Pm4Generation::Gfx10Plus);
  s.nop()
      .signal(0x2000'0000'0040, 9)
      .wait(0x2000'0000'0040, 9)
      .indirect_buffer(0x2000'0001'0000, 8);
  s.dispatch_direct(4, 1, 1, 0x21).event_write(0x7, 4).pred_exec(1, 3);
  const auto packets = decode_pm4(s.dwords());
  REQUIRE(packets.size() == 7);
  CHECK(packets[0].name == "NOP");
  CHECK(packets[0].payload.empty());
  CHECK(packets[1].name == "RELEASE_MEM");
  CHECK(packets[1].offset == 1);
  CHECK(packets[1].description == "event=0x14 data_sel=1 int_sel=0 va=0x200000000040 data=0x9 "
                                  "ctx_id=0x0");
  CHECK(packets[2].description == "mem va=0x200000000040 func=5 value=0x9 mask=0xffffffff");
  CHECK(packets[3].description == "va=0x200000010000 size=0x8 dwords");
  CHECK(packets[4].description == "4x1x1 initiator=0x21");
  CHECK(packets[5].description == "event=0x7 index=4");
  CHECK(packets[6].description == "xcc_mask=0x1 dwords=3");

  const Dwords truncated = {0xC006'4900, 0, 0};
  CHECK_THROWS_WITH(decode_pm4(truncated), Contains("dword 0x0") && Contains("0xc0064900"));
  const Dwords type0 = {0x0000'1234};
  CHECK_THROWS_WITH(decode_pm4(type0), Contains("type-0"));
  const Dwords type2 = {0x8000'0000, 0xC000'1000, 0};
  const auto filler = decode_pm4(type2);
  REQUIRE(filler.size() == 2);
  CHECK(filler[0].name == "TYPE2");
  CHECK(filler[1].payload.size() == 1);
  const Dwords unknown = {0xC000'9900, 5};
  CHECK(decode_pm4(unknown)[0].name == "OP_0x99");
}

TEST_CASE("am sdma: the runtime's packets on SDMA 6/7 and 4.x") {
  SdmaStream s(SdmaGeneration::Sdma6);
  s.copy(0x2000'0020'0000, 0x2000'0010'0000, 0x1000);
  CHECK(s.dwords() == Dwords{0x1, 0xFFF, 0, 0x10'0000, 0x2000, 0x20'0000, 0x2000});
  SdmaStream big(SdmaGeneration::Sdma6);
  big.copy(0x1'0000'0000, 0, 0x4000'0000 + 0x10);
  REQUIRE(big.size() == 14);
  CHECK(big.dwords()[1] == 0x3FFF'FFFF);
  CHECK(big.dwords()[8] == 0xF);
  CHECK(big.dwords()[12] == 0x4000'0000);  // dst lo of the second packet
  SdmaStream small(SdmaGeneration::Sdma4);
  small.copy(0, 0, 0x40'0001);
  CHECK(small.size() == 14);
  CHECK(small.dwords()[1] == 0x3F'FFFF);
  CHECK(sdma_max_copy_bytes(SdmaGeneration::Sdma4) == 0x40'0000);

  SdmaStream w(SdmaGeneration::Sdma6);
  w.write(0x2000'0000'0010, 0xAB).write(0x2000'0000'0018, 0x1'0000'0002, true);
  CHECK(w.dwords() == Dwords{2, 0x10, 0x2000, 0, 0xAB, 2, 0x18, 0x2000, 1, 2, 1});

  SdmaStream f(SdmaGeneration::Sdma6);
  f.fence(0x2000'0000'0020, 5).trap(3).timestamp(0x2000'0000'0030).poll_memory(0x2000'0000'0020, 5);
  CHECK(f.dwords() == Dwords{0x3'0005, 0x20, 0x2000, 5, 6, 3, 0x20D, 0x30, 0x2000, 0xD000'0008,
                             0x20, 0x2000, 5, 0xFFFF'FFFF, 0x0FFF'0004});
  SdmaStream f4(SdmaGeneration::Sdma4);
  f4.fence(0x20, 5);
  CHECK(f4.dwords()[0] == 5);  // no MTYPE on gfx9

  SdmaStream ib(SdmaGeneration::Sdma6);
  ib.indirect(0x2000'0003'0000, 0x10, 5);  // ring at dword 5: 5 + 5 NOPs + 6 = 16
  CHECK(ib.dwords() == Dwords{0, 0, 0, 0, 0, 4, 0x3'0000, 0x2000, 0x10, 0, 0});
  SdmaStream ib0(SdmaGeneration::Sdma6);
  ib0.indirect(0x2000'0003'0000, 0x10, 2);  // 2 + 6 = 8: no padding
  CHECK(ib0.size() == 6);
  CHECK_THROWS_WITH(SdmaStream(SdmaGeneration::Sdma6).indirect(0x1010, 4), Contains("0x1010"));
  CHECK_THROWS_WITH(SdmaStream(SdmaGeneration::Sdma6).write(0x1002, 1), Contains("0x1002"));
  CHECK_THROWS_AS(SdmaStream(SdmaGeneration::Sdma6).copy(0, 0, 0), wavescope::Error);
  CHECK_THROWS_WITH(sdma_generation_for(5), Contains("SDMA 5.x"));
}

TEST_CASE("am sdma: the decoder splits what the builder wrote") {
  SdmaStream s(SdmaGeneration::Sdma6);
  s.nop(2).write(0x2000'0000'0010, 0xAB).copy(0x30, 0x20, 0x10).fence(0x40, 1).trap();
  s.poll_memory(0x40, 1).timestamp(0x48).indirect(0x2000'0000'0100, 8, 0);
  const auto packets = decode_sdma(s.dwords());
  std::vector<std::string> names;
  for (const auto &p : packets) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"NOP", "NOP", "WRITE", "COPY", "FENCE", "TRAP",
                                          "POLL_REGMEM", "TIMESTAMP", "NOP", "NOP", "NOP", "NOP",
                                          "NOP", "INDIRECT"});
  CHECK(packets[2].description == "va=0x200000000010 value=0xab");
  CHECK(packets[3].description == "src=0x20 dst=0x30 bytes=0x10");
  CHECK(packets[4].description == "va=0x40 value=0x1 mtype=3");
  CHECK(packets[6].description == "mem va=0x40 func=5 value=0x1 mask=0xffffffff");
  CHECK(packets.back().offset + 6 == s.size());
  CHECK(s.size() % 8 == 0);

  const Dwords unknown = {0x0000'0011};
  CHECK_THROWS_WITH(decode_sdma(unknown), Contains("opcode 17"));
  const Dwords truncated = {1, 0, 0};
  CHECK_THROWS_WITH(decode_sdma(truncated), Contains("COPY") && Contains("needs 7"));
  const Dwords nop_count = {0x0002'0000, 0, 0, 2, 0, 0, 0, 0};
  const auto p = decode_sdma(nop_count);
  REQUIRE(p.size() == 2);
  CHECK(p[0].dwords.size() == 3);
}
