// The fake AMD GPU's core (am-driver.md §19.2 items 1-3, 12): BARs, the register file with hooks
// and its trace, fixed registers, the MM_INDEX window, RSMU and PCIE INDEX2 indirection,
// doorbells, config space, the discovery ROM, persistence, and both ways to reach it.

#include <catch2/catch.hpp>

#include "sim/am/fake_gpu.hpp"
#include "sim/am/fake_gpu_pci_function.hpp"
#include "support_am/fake_gpu_rig.hpp"
#include "temp_dir.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/device.hpp"
#include "wavescope/hw/sim/am_chip_commands.hpp"
#include "wavescope/hw/sim/am_chip_store.hpp"

using namespace wavescope;
using namespace wavescope::hw;
using namespace wavescope::hw::sim::am;

namespace {

using Rig = wavescope::test::FakeGpuRig;

}  // namespace

TEST_CASE("fake GPU: BARs, fixed registers and the discovery ROM at VRAM top - 64 KiB") {
  Rig rig;
  auto &bar5 = rig.fn.map_bar(5);
  CHECK(bar5.size() == 2u << 20);
  CHECK(rig.fn.map_bar(0).size() == 512u << 20);  // resized to its largest Resizable-BAR size
  CHECK(rig.fn.map_bar(2).size() == 8u << 10);
  CHECK(bar5.read32(0xDE3 * 4) == 512);  // RCC_CONFIG_MEMSIZE in MiB
  CHECK(bar5.read32(0xDE5 * 4) == 0);    // RCC_IOV_FUNC_IDENTIFIER: not a VF
  const std::uint64_t top = (512ull << 20) - (64 << 10);
  CHECK(rig.fn.map_bar(0).read32(top) == 0x28211407);  // binary signature
  CHECK(rig.fn.config_read(0, 4) == 0x74A11002);
  CHECK_THROWS_AS(rig.fn.map_bar(4), Error);
  Rig vf("tinygrad-mock", {"vf=1"});
  CHECK(vf.fn.map_bar(5).read32(0xDE5 * 4) == 0x80000001);
}

TEST_CASE("fake GPU: register hooks run, plain registers store, unknown ones read 0 and are "
          "noted") {
  Rig rig;
  auto &regs = rig.gpu.registers();
  int writes = 0;
  regs.on_read(
      0x1234, [](RegisterKey, std::uint32_t stored) { return stored | 0x8000'0000u; }, "test");
  regs.on_write(
      0x1234,
      [&](RegisterKey, std::uint32_t v, std::uint32_t old) {
        CHECK(old == 0);
        CHECK(v == 5);
        ++writes;
      },
      "test");
  auto &bar5 = rig.fn.map_bar(5);
  bar5.write32(0x1234 * 4, 5);
  CHECK(writes == 1);
  CHECK(bar5.read32(0x1234 * 4) == 0x8000'0005u);
  CHECK(regs.owner(0x1234) == "test");
  bar5.write32(0x2000 * 4, 0xABCD);
  CHECK(bar5.read32(0x2000 * 4) == 0xABCD);
  CHECK(regs.unmodelled().count(0x2000) == 0);
  CHECK(bar5.read32(0x2001 * 4) == 0);
  CHECK(regs.unmodelled().count(0x2001) == 1);
  // The trace names what it can and folds a repeated read.
  (void)bar5.read32(0x2001 * 4);
  const auto &t = regs.trace();
  REQUIRE(t.size() >= 2);
  CHECK(t.back().count == 2);
  CHECK(rig.gpu.trace_text().find(" 0x2001 = 0x00000000 x2") != std::string::npos);
}

TEST_CASE("fake GPU: RSMU INDEX/DATA reach a register beyond BAR5 (the §2 example)") {
  Rig rig;
  am::AmDevice dev(rig.fn, rig.clock);
  rig.gpu.registers().take_trace();
  dev.write_dword(0x404D102, 0x1234);  // RCC_DEV0_EPF2_STRAP2 on the mock
  const auto t = rig.gpu.registers().take_trace();
  REQUIRE(t.size() == 3);
  CHECK(t[0].write);
  CHECK(t[0].address == 0x14);
  CHECK(t[0].value == 0x10134408);
  CHECK(t[1].address == 0x15);
  CHECK(t[2].address == 0x404D102);
  CHECK(t[2].path == am::RegisterAccessPath::Rsmu);
  CHECK(rig.gpu.registers().peek(0x404D102) == 0x1234);
  CHECK(dev.read_dword(0x404D102) == 0x1234);
  CHECK(dev.trace().back().path == am::RegisterAccessPath::Rsmu);
  CHECK(dev.namer().name(0x404D102).name == "nbio.RCC_DEV0_EPF2_STRAP2");
}

TEST_CASE("fake GPU: PCIE INDEX2 with an AID reaches that AID's register (mi300x)") {
  Rig rig("mi300x");
  am::AmDevice dev(rig.fn, rig.clock);
  dev.write_dword_index2(0x1234, 0x77, 2);
  CHECK(rig.gpu.registers().peek(0x1234 | 2ull << 32) == 0x77);
  CHECK(dev.read_dword_index2(0x1234, 2) == 0x77);
  CHECK(dev.read_dword(0x1234 | 2ull << 32) == 0x77);  // an AID in the address: INDEX2 too
  CHECK(rig.gpu.registers().peek(0x1234) == 0);
}

TEST_CASE("fake GPU: small BAR: discovery through MM_INDEX/MM_DATA, byte addresses (§2)") {
  Rig rig("tinygrad-mock", {"small_bar=1"});
  CHECK(rig.fn.map_bar(0).size() == 256u << 20);
  am::AmDevice dev(rig.fn, rig.clock);
  CHECK_FALSE(dev.large_bar());
  CHECK(dev.vram_size() == 512u << 20);
  // The first two writes for the discovery table of a 512 MiB board: 6 <- 0, 0 <- 0x9FFF_0000.
  const auto &t = dev.trace();
  REQUIRE(t.size() > 4);
  CHECK(t[1].write);
  CHECK(t[1].address == 0x6);
  CHECK(t[1].value == 0);
  CHECK(t[2].address == 0x0);
  CHECK(t[2].value == 0x9FFF0000);
  CHECK(t[3].address == 0x1);
  CHECK(t[3].value == 0x28211407);
  CHECK(dev.discovery().dies.size() == 1);
  // A VRAM write beyond BAR0 goes through the window too.
  dev.write_vram32(0x1000'0000 + 8, 0xFEEDu);
  CHECK(rig.gpu.vram().read32(0x1000'0008) == 0xFEEDu);
}

TEST_CASE("fake GPU: doorbells are recorded and handed to subscribers") {
  Rig rig;
  std::vector<DoorbellWrite> seen;
  rig.gpu.on_doorbell([&](const DoorbellWrite &w) { seen.push_back(w); });
  auto &bar2 = rig.fn.map_bar(2);
  const std::uint32_t qword[2] = {0x40, 0};
  bar2.write_block(0x18, qword);
  REQUIRE(rig.gpu.doorbells().size() == 2);
  CHECK(seen.size() == 2);
  CHECK(seen[0].offset == 0x18);
  CHECK(seen[0].value == 0x40);
  CHECK(bar2.read32(0x18) == 0x40);
}

TEST_CASE("fake GPU: config space observes the bus-master bit") {
  Rig rig;
  am::AmDevice dev(rig.fn, rig.clock);
  CHECK_FALSE(rig.gpu.bus_master());
  dev.set_bus_master(true);
  CHECK(rig.gpu.bus_master());
  dev.set_bus_master(false);
  CHECK_FALSE(rig.gpu.bus_master());
  CHECK(std::count(rig.gpu.notes().begin(), rig.gpu.notes().end(),
                   "core: config COMMAND bus master on") == 1);
}

TEST_CASE("fake GPU: faults go to the block named, or are refused with the blocks listed") {
  Rig rig;
  CHECK_THROWS_WITH(rig.gpu.arm_fault("nosuch:thing"), Catch::Contains("no block 'nosuch'"));
  CHECK_THROWS_WITH(rig.gpu.arm_fault("garbage"), Catch::Contains("BLOCK:KIND"));
  const auto f = parse_fault_request("psp:status,cmd=6,value=0x9");
  CHECK(f.block == "psp");
  CHECK(f.kind == "status");
  CHECK(f.number("cmd", 0) == 6);
  CHECK(f.number("value", 0) == 9);
  CHECK(f.number("absent", 42) == 42);
}

TEST_CASE("AM device: register access by name on the mock's bases (§19.3 addresses)") {
  Rig rig;
  am::AmDevice dev(rig.fn, rig.clock);
  CHECK(dev.vram_size() == 0x2000'0000);
  CHECK(dev.large_bar());
  CHECK(dev.reserved_vram_size() == 0x400'0000);
  const std::pair<const char *, std::uint64_t> golden[] = {
      {"gc.SCRATCH_REG7", 0xC047},
      {"gc.SCRATCH_REG6", 0xC046},
      {"mp0.MPASP_SMN_C2PMSG_81", 0x16091},
      {"mp0.MPASP_SMN_C2PMSG_35", 0x16063},
      {"mp0.MPASP_SMN_C2PMSG_64", 0x16080},
      {"mp0.MPASP_SMN_C2PMSG_67", 0x16083},
      {"mp1.MP1_SMN_C2PMSG_66", 0x16282},
      {"mp1.MP1_SMN_C2PMSG_82", 0x16292},
      {"mp1.MP1_SMN_C2PMSG_90", 0x1629A},
      {"osssys.IH_RB_CNTL", 0x1120},
      {"osssys.IH_RB_BASE", 0x1123},
      {"mmhub.MMVM_CONTEXT0_CNTL", 0x1A564},
      {"gc.GCVM_CONTEXT0_CNTL", 0x2884},
      {"gc.GCVM_INVALIDATE_ENG17_REQ", 0x28B8},
      {"gc.CP_MQD_BASE_ADDR", 0x3209},
      {"gc.CP_HQD_ACTIVE", 0x320B},
      {"gc.CP_HQD_PQ_WPTR_HI", 0x3240},
      {"gc.GRBM_GFX_CNTL", 0xA900},
      {"gc.SDMA0_QUEUE0_RB_CNTL", 0x12E0},
      {"nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL", 0xE4D},
      {"nbio.RCC_DEV0_EPF2_STRAP2", 0x404D102},
  };
  for (const auto &[name, address] : golden) {
    INFO(name);
    CHECK(dev.address(name) == address);
  }
  dev.wreg("gc.SCRATCH_REG7", 0xA0000008);
  CHECK(rig.gpu.registers().peek(0xC047) == 0xA0000008);
  CHECK(dev.rreg("gc.SCRATCH_REG7") == 0xA0000008);
  CHECK(dev.update("gc.GRBM_GFX_CNTL", {{"vmid", 3}, {"pipeid", 1}}) == 0x31);
  CHECK(dev.rfield("gc.GRBM_GFX_CNTL", "vmid") == 3);
  CHECK(dev.trace_text().find("W gc.SCRATCH_REG7[0] 0xC047 = 0xA0000008") != std::string::npos);
  CHECK_THROWS_WITH(dev.rreg("gc.NO_SUCH_REG"), Catch::Contains("unknown register"));
}

TEST_CASE("AM device: a wait that never holds times out naming the register and values") {
  Rig rig;
  am::AmDevice dev(rig.fn, rig.clock);
  const auto start = rig.clock.now();
  try {
    dev.wait_reg("gc.SCRATCH_REG6", 0x1, 0x1, std::chrono::seconds(10), "the test flag");
    FAIL("no timeout");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::Timeout);
    CHECK_THAT(e.what(), Catch::Contains("the test flag (timeout after 10.000 s") &&
                             Catch::Contains("gc.SCRATCH_REG6 (0xC046)") &&
                             Catch::Contains("last read 0x00000000"));
  }
  CHECK(rig.clock.now() - start >= std::chrono::seconds(10));
  // The poll is one folded trace entry, not 100 000.
  CHECK(dev.trace().back().count > 1000);
}

TEST_CASE("AM device: a device whose memory size reads all ones is refused") {
  Rig rig;
  rig.gpu.registers().on_read(
      0xDE3, [](RegisterKey, std::uint32_t) { return 0xFFFF'FFFFu; }, "test");
  CHECK_THROWS_WITH(am::AmDevice(rig.fn, rig.clock), Catch::Contains("RCC_CONFIG_MEMSIZE"));
}

TEST_CASE("fake GPU store: a chip keeps its registers, VRAM and time across opens") {
  testing::TempDir tmp;
  sim::AmChipStore store(tmp.path);
  const auto created = sim::create_am_chip(store, "g", {"tinygrad-mock", {}});
  CHECK(created.vram_size == 512u << 20);
  CHECK(store.list() == std::vector<std::string>{"g"});
  CHECK_THROWS_WITH(sim::create_am_chip(store, "g", {"tinygrad-mock", {}}),
                    Catch::Contains("already exists"));
  {
    device::OpenOptions options;
    options.sim_root = tmp.path;
    auto dev = device::open_device(device::parse_device_spec("sim-am:g"), options);
    REQUIRE(dev->fake_gpu());
    am::AmDevice gpu(dev->function(), dev->clock());
    gpu.wreg("gc.SCRATCH_REG7", 0xA0000008);
    gpu.write_vram32(0x1000, 0xCAFEF00D);
    // Locked while open.
    CHECK_THROWS_WITH(store.open("g"), Catch::Contains("in use"));
    dev->close(R"({"done":true})");
  }
  auto loaded = store.open("g");
  CHECK(loaded.gpu->registers().peek(0xC047) == 0xA0000008);
  CHECK(loaded.gpu->vram().read32(0x1000) == 0xCAFEF00D);
  CHECK(loaded.clock->now().time_since_epoch().count() > 0);
  CHECK(loaded.last_run_json.find("\"done\":true") != std::string::npos);
  loaded = {};
  const auto status = sim::power_cycle_am_chip(store, "g");
  CHECK(status.chip == "tinygrad-mock");
  CHECK(store.open("g").gpu->registers().peek(0xC047) == 0);
  store.remove("g");
  CHECK(store.list().empty());
}

TEST_CASE("fake GPU through the simulated USB bridge: discovery and registers as on the direct "
          "path") {
  testing::TempDir tmp;
  sim::AmChipStore store(tmp.path);
  sim::create_am_chip(store, "u", {"tinygrad-mock", {}});
  device::OpenOptions options;
  options.sim_root = tmp.path;
  auto dev = device::open_device(device::parse_device_spec("sim-am-usb:u"), options);
  CHECK(dev->function().kind() == TransportKind::UsbAsm24);
  am::AmDevice gpu(dev->function(), dev->clock());
  CHECK(gpu.large_bar());
  CHECK(gpu.ip_version("GC") == regs::IpVersion{12, 0, 0});
  gpu.wreg("gc.SCRATCH_REG6", 1);
  CHECK(dev->fake_gpu()->registers().peek(0xC046) == 1);
  CHECK(gpu.rreg("mp1.MP1_SMN_C2PMSG_90") == 0);
}

TEST_CASE("device specs: sim-am and sim-am-usb") {
  const auto a = device::parse_device_spec("sim-am:x");
  CHECK(a.kind == device::DeviceSpec::Kind::SimAm);
  CHECK(a.fake_gpu());
  CHECK(a.text() == "sim-am:x");
  CHECK(device::parse_device_spec("sim-am-usb:y").kind == device::DeviceSpec::Kind::SimAmUsb);
  CHECK_THROWS_WITH(device::parse_device_spec("sim-amx:y"), Catch::Contains("sim-am:NAME"));
}
