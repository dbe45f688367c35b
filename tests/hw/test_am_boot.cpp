// The AM boot against the fake GPU (am-driver.md §5, §9, §10, §14, §19.3): boot allocations,
// block order, PSP bootloader loads and KM-ring commands, SMU messages and DPM reads, scratch
// markers, partial boot and its cancellation, fini, and the PSP/SMU error paths.

#include <catch2/catch.hpp>

#include <algorithm>

#include "sim/am/fake_gpu.hpp"
#include "sim/am/fake_gpu_pci_function.hpp"
#include "sim/am/psp_model.hpp"
#include "sim/am/smu_model.hpp"
#include "support_am/fake_gpu_rig.hpp"
#include "temp_dir.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/am_smi.hpp"
#include "wavescope/hw/am/firmware_set.hpp"
#include "wavescope/hw/am/memory_manager.hpp"
#include "wavescope/hw/am/psp.hpp"
#include "wavescope/hw/am/smu.hpp"
#include "wavescope/hw/device.hpp"
#include "wavescope/hw/sim/am_chip_commands.hpp"

using namespace wavescope;
using namespace wavescope::hw;
using namespace wavescope::hw::sim::am;

namespace {

struct Rig : wavescope::test::FakeGpuRig {
  using FakeGpuRig::FakeGpuRig;
  PspModel &psp() { return dynamic_cast<PspModel &>(*gpu.block("psp")); }
  SmuModel &smu() { return dynamic_cast<SmuModel &>(*gpu.block("smu")); }
  // A driver session: boot, optionally fini.
  am::BootRecord session(bool fini = true, am::AmGpuOptions options = {}) {
    am::AmDevice dev(fn, clock);
    am::AmGpu driver(dev, options);
    const auto record = driver.boot();
    if (fini) driver.fini();
    return record;
  }
};

std::uint64_t paddr_of(const am::MemoryManager &mm, const std::string &owner) {
  for (const auto &a : mm.allocations())
    if (a.owner == owner) return a.paddr;
  FAIL("no allocation for " << owner);
  return 0;
}

}  // namespace

TEST_CASE("AM boot on the mock: boot allocations are the §5.5 column") {
  Rig rig;
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpu driver(dev);
  const auto &mm = driver.mm();
  const std::pair<const char *, std::uint64_t> golden[] = {
      {"root page table", 0x0},        {"GMC memscratch page", 0x1000},
      {"GMC dummy page", 0x2000},      {"IH ring 0", 0x3000},
      {"IH ring 0 wptr", 0x43000},     {"IH ring 1", 0x44000},
      {"IH ring 1 wptr", 0x84000},     {"PSP message buffer (msg1)", 0x100000},
      {"PSP command buffer", 0x85000}, {"PSP fence buffer", 0x86000},
      {"PSP KM ring", 0x87000},        {"SMU driver table", 0x97000},
      {"GFX MQD queue 0", 0x9B000},    {"GFX MQD queue 1", 0x9C000}};
  REQUIRE(mm.allocations().size() == std::size(golden));  // RDNA4: boot-time TMR, none here
  for (std::size_t i = 0; i < std::size(golden); ++i) {
    INFO(golden[i].first);
    CHECK(mm.allocations()[i].owner == golden[i].first);
    CHECK(mm.allocations()[i].paddr == golden[i].second);
    CHECK(mm.allocations()[i].boot);
  }
  CHECK(driver.psp().boot_time_tmr());
}

TEST_CASE("AM boot on the mock: block order, PSP loads and commands, SMU init, scratch markers") {
  Rig rig;
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpu driver(dev);
  const auto &record = driver.boot();
  CHECK(record.mode == am::BootMode::Full);
  CHECK_FALSE(record.mode1_reset);  // a cold GPU: no SOS, no SMU probe
  // Block order of the hardware init.
  std::vector<std::string> inits;
  for (const auto &s : record.steps)
    if (s.rfind("init_hw ", 0) == 0) inits.push_back(s.substr(8));
  CHECK(inits == std::vector<std::string>{"SOC", "GMC", "IH", "PSP", "SMU", "GFX", "SDMA"});
  // PSP: 7 bootloader loads (no RAS_DRV in psp_14_0_2_sos), C2PMSG_36 = 1 (msg1 at 1 MiB).
  const auto &loads = driver.psp().bootloader_loads();
  REQUIRE(loads.size() == 7);
  const std::uint32_t commands[] = {0x8'0000, 0x1000'0000, 0x1'0000, 0xB'0000,
                                    0xD'0000, 0xC'0000,    0x2'0000};
  for (std::size_t i = 0; i < 7; ++i) {
    CHECK(loads[i].command == commands[i]);
    CHECK(loads[i].msg1_reg == 1);
  }
  CHECK(loads[1].component == am::psp_fw::kSpl);  // MP0 14: the SPL component
  // The fake saw every component with the expected bytes, in that order.
  REQUIRE(rig.psp().loads().size() == 7);
  for (const auto &l : rig.psp().loads()) CHECK(l.verified);
  // KM ring at 0x87000, 0x10000 bytes; 15 frames: TOC, SMU, 12 IP images, AUTOLOAD_RLC.
  CHECK(rig.psp().ring_base() == 0x87000);
  CHECK(rig.psp().ring_size() == 0x10000);
  const auto &cmds = driver.psp().commands();
  REQUIRE(cmds.size() == 15);
  for (std::size_t i = 0; i < cmds.size(); ++i) CHECK(cmds[i].wptr == 0x10 * (i + 1));
  CHECK(cmds.front().cmd_id == am::psp_cmd::kLoadToc);
  CHECK(cmds[1].cmd_id == am::psp_cmd::kLoadIpFw);
  CHECK(cmds[1].fw_type == am::gfx_fw::kSmu);
  CHECK(cmds.back().cmd_id == am::psp_cmd::kAutoloadRlc);
  std::vector<std::uint32_t> types;
  for (std::size_t i = 2; i + 1 < cmds.size(); ++i) {
    CHECK(cmds[i].cmd_id == am::psp_cmd::kLoadIpFw);
    types.push_back(cmds[i].fw_type);
  }
  namespace fw = am::gfx_fw;
  CHECK(types == std::vector<std::uint32_t>{fw::kSdmaUcodeTh0, fw::kRs64Pfp, fw::kRs64PfpP0Stack,
                                            fw::kRs64Me, fw::kRs64MeP0Stack, fw::kRs64Mec,
                                            fw::kRs64MecP0Stack, fw::kImuI, fw::kImuD, fw::kRlcIram,
                                            fw::kRlcDramBoot, fw::kRlcG});
  REQUIRE(rig.psp().commands().size() == 15);
  for (const auto &c : rig.psp().commands()) {
    CHECK(c.status == 0);
    if (c.cmd_id == am::psp_cmd::kLoadIpFw) CHECK(c.verified);
  }
  // SMU init: 0xE(0), 0xF(0x97000), 0x6(0).
  const auto &msgs = driver.smu().messages();
  REQUIRE(msgs.size() >= 3);
  CHECK((msgs[0].msg == 0xE && msgs[0].arg == 0));
  CHECK((msgs[1].msg == 0xF && msgs[1].arg == 0x97000));
  CHECK((msgs[2].msg == 0x6 && msgs[2].arg == 0));
  CHECK(rig.smu().features_enabled());
  CHECK(rig.smu().driver_table() == 0x97000);
  // The markers.
  CHECK(dev.rreg("gc.SCRATCH_REG7") == 0xA0000008);
  CHECK(dev.rreg("gc.SCRATCH_REG6") == 1);
  CHECK(rig.gpu.bus_master());
  driver.fini();
  CHECK(dev.rreg("gc.SCRATCH_REG6") == 0);
}

TEST_CASE("AM boot: SMU DPM reads and set_clocks(-1) end at the top level of every clock") {
  Rig rig;
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpu driver(dev);
  driver.boot();
  const auto &ids = driver.smu().ids();
  // Order of the clocks in messages: UCLK (2), FCLK (3), SOCCLK (1), GFXCLK (0).
  CHECK(driver.smu().driven_clocks() == std::vector<std::uint32_t>{2, 3, 1, 0});
  std::vector<std::uint32_t> count_queries;
  std::size_t level_queries = 0;
  for (const auto &m : driver.smu().messages()) {
    if (m.msg != ids.get_dpm_freq_by_index) continue;
    if ((m.arg & 0xFFFF) == 0xFF)
      count_queries.push_back(m.arg >> 16);
    else
      ++level_queries;
  }
  CHECK(count_queries == std::vector<std::uint32_t>{2, 3, 1, 0});
  std::size_t levels = 0;
  for (const auto clock : driver.smu().driven_clocks()) {
    const auto expected = rig.smu().levels(clock);
    CHECK(driver.smu().dpm_levels(clock) == expected);
    levels += expected.size();
    const auto &limits = rig.smu().soft_limits().at(clock);
    CHECK(limits.first == expected.back());
    CHECK(limits.second == expected.back());
  }
  CHECK(level_queries == levels);
  CHECK(levels == 4 + 4 + 3 + 2);
  driver.fini();  // level 0
  for (const auto clock : driver.smu().driven_clocks())
    CHECK(rig.smu().soft_limits().at(clock).first == rig.smu().levels(clock).front());
}

TEST_CASE("AM boot: a second boot after a clean fini is partial with the same boot memory") {
  Rig rig;
  rig.session(true);
  const auto loads_before = rig.psp().loads().size();
  const auto commands_before = rig.psp().commands().size();
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpu driver(dev);
  const auto first_allocations = driver.mm().allocations();
  const auto &record = driver.boot();
  CHECK(record.mode == am::BootMode::Partial);
  for (const auto &s : record.steps) {
    INFO(s);
    CHECK(s.find("init_hw PSP") == std::string::npos);
    CHECK(s.find("init_hw SOC") == std::string::npos);
  }
  CHECK(rig.psp().loads().size() == loads_before);        // no bootloader traffic
  CHECK(rig.psp().commands().size() == commands_before);  // no KM-ring commands
  CHECK(driver.psp().commands().empty());
  CHECK(paddr_of(driver.mm(), "PSP KM ring") == 0x87000);
  CHECK(first_allocations.size() == 14);
  CHECK(dev.rreg("gc.SCRATCH_REG6") == 1);
}

TEST_CASE("AM boot: SCRATCH_REG6 != 0 or a VM fault cancels the partial boot: full boot with a "
          "mode-1 reset") {
  SECTION("previous session without fini") {
    Rig rig;
    rig.session(false);
    const auto record = rig.session(true);
    CHECK(record.mode == am::BootMode::Full);
    CHECK(record.reason.find("SCRATCH_REG6 = 0x1") != std::string::npos);
    CHECK(record.mode1_reset);
    // MP0 14: the debug mailbox's Mode1Reset (2); the PSP then starts again from its bootloader.
    CHECK(std::count(rig.gpu.notes().begin(), rig.gpu.notes().end(), "smu: debug Mode1Reset") == 1);
    CHECK(rig.psp().loads().size() == 7);
  }
  SECTION("a GC VM fault status") {
    Rig rig;
    rig.session(true);
    rig.gpu.registers().poke(rig.gpu.key("gc.GCVM_L2_PROTECTION_FAULT_STATUS_LO32"), 0x40);
    const auto record = rig.session(true);
    CHECK(record.mode == am::BootMode::Full);
    CHECK(record.reason.find("GCVM_L2_PROTECTION_FAULT_STATUS_LO32 = 0x40") != std::string::npos);
    CHECK(record.mode1_reset);
  }
  SECTION("a reset asked for") {
    Rig rig;
    rig.session(true);
    am::AmGpuOptions o;
    o.force_reset = true;
    const auto record = rig.session(true, o);
    CHECK(record.mode == am::BootMode::Full);
    CHECK(record.mode1_reset);
  }
}

TEST_CASE("AM boot: PSP faults become timeouts and firmware errors with names and values") {
  SECTION("a command status") {
    Rig rig;
    rig.gpu.arm_fault("psp:status,cmd=6,value=0x9,nth=3");
    CHECK_THROWS_WITH(rig.session(), Catch::Contains("PSP command failed LOAD_IP_FW (0x6) status "
                                                     "0x9 loading RS64_PFP"));
  }
  SECTION("SOS never alive") {
    Rig rig;
    rig.gpu.arm_fault("psp:sos-never-alive");
    try {
      rig.session();
      FAIL("booted");
    } catch (const Error &e) {
      CHECK(e.kind() == ErrorKind::Timeout);
      CHECK_THAT(e.what(), Catch::Contains("sOS failed to start") &&
                               Catch::Contains("MPASP_SMN_C2PMSG_81 reads 0"));
    }
  }
  SECTION("bootloader never ready") {
    Rig rig;
    rig.gpu.arm_fault("psp:bootloader-not-ready");
    CHECK_THROWS_WITH(rig.session(), Catch::Contains("BL not ready") &&
                                         Catch::Contains("mp0.MPASP_SMN_C2PMSG_35 (0x16063)"));
  }
  SECTION("a fence never written") {
    Rig rig;
    rig.gpu.arm_fault("psp:fence-lost,cmd=0x20");
    CHECK_THROWS_WITH(rig.session(), Catch::Contains("sOS ring not responding (LOAD_TOC fence "
                                                     "0x1)"));
  }
  SECTION("a component with other bytes leaves the bootloader busy") {
    Rig rig;
    // The expected KDB differs from what the driver sends when the fake checks against another
    // firmware set.
    rig.gpu.mutable_config().settings["psp.fwdir"] = "/nonexistent";
    CHECK_THROWS_WITH(rig.session(), Catch::Contains("BL not ready"));
    CHECK_FALSE(rig.psp().loads().front().verified);
  }
}

TEST_CASE("AM boot: SMU errors are decoded, timeouts name the message") {
  SECTION("unknown message") {
    Rig rig;
    rig.gpu.arm_fault("smu:response,msg=0x6,value=0xFE");
    try {
      rig.session();
      FAIL("booted");
    } catch (const Error &e) {
      CHECK(e.kind() == ErrorKind::Firmware);
      CHECK_THAT(e.what(), Catch::Contains("SMU EnableAllSmuFeatures (0x6, argument 0x0): the "
                                           "SMU answered 0xFE (unknown message)"));
    }
  }
  SECTION("timeout") {
    Rig rig;
    rig.gpu.arm_fault("smu:timeout,msg=0xF");
    try {
      rig.session();
      FAIL("booted");
    } catch (const Error &e) {
      CHECK(e.kind() == ErrorKind::Timeout);
      CHECK_THAT(e.what(), Catch::Contains("SMU msg 0xF (SetDriverDramAddrLow, argument 0x97000)"));
    }
  }
  SECTION("the soft-min timeout AM ignores") {
    Rig rig;
    rig.gpu.arm_fault("smu:timeout,msg=0x19,nth=0");
    CHECK_NOTHROW(rig.session());
  }
}

TEST_CASE("AM boot on navi31: KDB twice, SETUP_TMR at 0x200000, SDMA TH1 before TH0, RLC v2.3") {
  Rig rig("navi31");
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpu driver(dev);
  CHECK(paddr_of(driver.mm(), "PSP TMR") == 0x200000);
  driver.boot();
  const auto &loads = driver.psp().bootloader_loads();
  REQUIRE(loads.size() == 4);  // KDB, KDB (as SPL), SYS_DRV, SOS
  CHECK(loads[0].component == am::psp_fw::kKdb);
  CHECK(loads[1].component == am::psp_fw::kKdb);
  CHECK(loads[1].command == am::psp_bl::kLoadTosSplTable);
  const auto &cmds = driver.psp().commands();
  REQUIRE(cmds.size() >= 4);
  CHECK(cmds[0].cmd_id == am::psp_cmd::kLoadToc);
  CHECK(cmds[1].fw_type == am::gfx_fw::kSmu);
  CHECK(cmds[2].cmd_id == am::psp_cmd::kSetupTmr);
  CHECK(cmds[2].address == 0x200000);
  CHECK(cmds[3].fw_type == am::gfx_fw::kSdmaUcodeTh1);
  CHECK(cmds[4].fw_type == am::gfx_fw::kSdmaUcodeTh0);
  CHECK(driver.fw().ucode_start().at("MEC") == 0x7'0000'3000);
  CHECK(rig.psp().commands()[2].status == 0);
  // RDNA3 (13.0.0): the debug mailbox resets a GPU found initialised.
  rig.session(false);
  CHECK(rig.session().mode1_reset);
}

TEST_CASE("AM boot on mi300x: NBIO 7.9 doorbell fence through PCIE INDEX2, SETUP_TMR 0/0, the "
          "register list last, GfxDriverReset") {
  Rig rig("mi300x");
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpu driver(dev);
  CHECK(driver.xcc_count() == 8);
  CHECK(driver.mm().allocations().back().size == 0x8000);  // MQD: 4 KiB x 8 XCCs
  driver.boot();
  const auto fence = dev.address("nbio.XCC_DOORBELL_FENCE");
  CHECK(rig.gpu.registers().peek(fence) == 0);  // all eight XCCs live
  for (unsigned aid = 1; aid < 4; ++aid)
    CHECK(rig.gpu.registers().peek(fence | std::uint64_t{aid} << 32) != 0);
  const auto &cmds = driver.psp().commands();
  REQUIRE(!cmds.empty());
  CHECK(cmds[0].cmd_id == am::psp_cmd::kSetupTmr);  // no TOC in psp_13_0_6_sos
  CHECK(cmds[0].size == 0);
  CHECK(cmds[0].address == 0);
  // The register list is the last firmware load; GFX init on 8 XCCs then asks for one spatial
  // partition (§12.3 step 7).
  REQUIRE(cmds.size() >= 2);
  CHECK(cmds[cmds.size() - 2].fw_type == am::gfx_fw::kRegList);
  CHECK(cmds.back().cmd_id == am::psp_cmd::kSriovSpatialPart);
  CHECK(cmds[1].fw_type == am::gfx_fw::kP2sTable);
  CHECK(driver.smu().driven_clocks().size() == 3);  // no GFXCLK on MI
  rig.session(false);
  CHECK(rig.session().mode1_reset);
  CHECK(std::count(rig.gpu.notes().begin(), rig.gpu.notes().end(), "smu: mode-1 reset") >= 1);
}

TEST_CASE("AM boot through the store: boot, clean exit, boot again takes the partial path, "
          "directly and through the USB bridge") {
  testing::TempDir tmp;
  sim::AmChipStore store(tmp.path);
  sim::create_am_chip(store, "g", {"tinygrad-mock", {}});
  device::OpenOptions options;
  options.sim_root = tmp.path;
  auto run = [&](const char *spec, bool fini) {
    auto dev = device::open_device(device::parse_device_spec(spec), options);
    am::AmDevice device(dev->function(), dev->clock());
    am::AmGpu driver(device);
    const auto record = driver.boot();
    if (fini) driver.fini();
    dev->close();
    return record;
  };
  CHECK(run("sim-am:g", true).mode == am::BootMode::Full);
  CHECK(run("sim-am-usb:g", true).mode == am::BootMode::Partial);
  CHECK(run("sim-am:g", false).mode == am::BootMode::Partial);
  const auto unclean = run("sim-am:g", true);
  CHECK(unclean.mode == am::BootMode::Full);
  CHECK(unclean.mode1_reset);
}

TEST_CASE("AMSMI: clocks, activity, temperatures and VRAM use from the scripted metrics table") {
  Rig rig("navi31", {"smu.metrics.gfx_activity=42", "smu.metrics.temp.HOTSPOT=77",
                     "smu.metrics.socket_power=250"});
  rig.session(false);
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpuOptions o;
  o.attach = true;
  am::AmGpu driver(dev, o);
  const auto r = am::am_smi(driver, "sim-am:test");
  CHECK(r.metrics.gfx_activity == 42);
  CHECK(r.metrics.socket_power == 250);
  CHECK(r.metrics.power_limit == 355);
  CHECK(std::find(r.metrics.temperatures.begin(), r.metrics.temperatures.end(),
                  std::pair<std::string, std::uint16_t>{"HOTSPOT", 77}) !=
        r.metrics.temperatures.end());
  CHECK(r.activity_threshold == 15);
  CHECK(r.gfxclk == 2526);  // busy: pre-deep-sleep clock = the soft minimum set at boot
  CHECK(r.memclk == 1249);
  CHECK(r.vram_size == 24576ull << 20);
  CHECK(r.vram_used == 0);  // the basic GMC maps nothing
  // A GPU AM did not boot is refused.
  Rig cold;
  am::AmDevice cold_dev(cold.fn, cold.clock);
  CHECK_THROWS_WITH(am::AmGpu(cold_dev, o), Catch::Contains("not a GPU booted by AM"));
}

TEST_CASE("AM recovery and fini in error state (§14.1, §14.2)") {
  Rig rig;
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpu driver(dev);
  driver.boot();
  CHECK_FALSE(driver.recover());  // nothing to recover
  driver.set_err_state(true);
  CHECK(driver.recover());
  CHECK_FALSE(driver.err_state());
  CHECK(driver.record().steps.back() == "recovered: interrupts handled, MEC reset");
  driver.set_err_state(true);
  driver.fini();
  CHECK(dev.rreg("gc.SCRATCH_REG6") == 1);  // the next boot is a full one
  CHECK(rig.session().mode == am::BootMode::Full);
}

TEST_CASE("AM memory: palloc phases, valloc chunks and mappings, vfree") {
  Rig rig;
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpu driver(dev);
  auto &mm = driver.mm();
  CHECK_THROWS_WITH(mm.palloc(0x1000, 0x1000, false, false, "early"),
                    Catch::Contains("general memory asked for while booting"));
  driver.boot();
  CHECK_THROWS_WITH(mm.palloc(0x1000, 0x1000, false, true, "late"),
                    Catch::Contains("boot memory asked for after booting"));
  // 3 MiB + 4 KiB: a 2 MiB chunk, a 1 MiB chunk, a 4 KiB chunk (greedy powers of two).
  const auto m = mm.valloc(0x30'1000);
  REQUIRE(m.chunks.size() == 3);
  CHECK(m.chunks[0].size == 0x20'0000);
  CHECK(m.chunks[0].address % 0x20'0000 == 0);
  CHECK(m.chunks[1].size == 0x10'0000);
  CHECK(m.chunks[2].size == 0x1000);
  CHECK(m.va >= am::VaAllocator::kBase);
  const auto t = mm.page_table().translate(m.va + 0x20'0010);
  CHECK(t.mapped);
  CHECK(t.address == m.chunks[1].address + 0x10);
  // The general pool starts after boot memory; the reserved top is never handed out.
  CHECK(m.chunks[0].address >= am::MemoryManager::kBootSize);
  mm.vfree(m);
  CHECK_FALSE(mm.page_table().translate(m.va).mapped);
  CHECK_THROWS_WITH(mm.valloc(0x2000'0000), Catch::Contains("exhausted"));
}

TEST_CASE("AM boot: a slow SMU answer is waited for, one slower than the timeout is an error") {
  SECTION("within the timeout") {
    Rig rig("tinygrad-mock", {"smu.latency_us=3000"});
    const auto start = rig.clock.now();
    CHECK(rig.session().mode == am::BootMode::Full);
    CHECK(rig.clock.now() - start > std::chrono::milliseconds(30 * 3));
  }
  SECTION("beyond it") {
    Rig rig;
    rig.gpu.arm_fault("smu:slow,us=20000000,msg=0x6");
    CHECK_THROWS_WITH(rig.session(), Catch::Contains("SMU msg 0x6 (EnableAllSmuFeatures, "
                                                     "argument 0x0): no answer (timeout after "
                                                     "10.000 s"));
  }
}

TEST_CASE("AM boot: the driver's register trace names every access and the fake saw the same "
          "writes in the same order") {
  Rig rig;
  rig.gpu.registers().take_trace();
  am::AmDevice dev(rig.fn, rig.clock);
  am::AmGpu driver(dev);
  driver.boot();
  const auto text = dev.trace_text();
  CHECK(text.find("R RCC_CONFIG_MEMSIZE[0] 0xDE3 = 0x00000200") != std::string::npos);
  CHECK(text.find("W mp0.MPASP_SMN_C2PMSG_35[0] 0x16063 = 0x00080000") != std::string::npos);
  CHECK(text.find("W mp0.MPASP_SMN_C2PMSG_36[0] 0x16064 = 0x00000001") != std::string::npos);
  CHECK(text.find("W mp1.MP1_SMN_C2PMSG_66[0] 0x16282 = 0x0000000E") != std::string::npos);
  CHECK(text.find("W nbio.RCC_DEV0_EPF2_STRAP2[0] rsmu 0x404D102") != std::string::npos);
  CHECK(text.find("W gc.SCRATCH_REG7[0] 0xC047 = 0xA0000008") != std::string::npos);
  // Every write is named but the HDP flush, whose target is wherever the remap register points
  // (register 0 on the bare core; an HDP model may point it at the MMIO hole).
  const auto hdp_flush = dev.read_dword(dev.address("nbio.BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL")) / 4;
  std::size_t unnamed = 0, writes = 0, flushes = 0;
  for (const auto &a : dev.trace()) {
    if (!a.write) continue;
    ++writes;
    if (a.address == hdp_flush)
      ++flushes;
    else if (dev.namer().name(a.address).name.empty())
      ++unnamed;
  }
  CHECK(writes > 100);
  CHECK(flushes == 21);  // one per msg1 fill: 7 bootloader loads, TOC, SMU, 12 images
  CHECK(unnamed == 0);
  // Every driver write reached the fake in order (the fake also sees RSMU's INDEX/DATA).
  std::vector<std::pair<std::uint64_t, std::uint32_t>> driver_writes, fake_writes;
  for (const auto &a : dev.trace())
    if (a.write) driver_writes.emplace_back(a.address, a.value);
  for (const auto &a : rig.gpu.registers().trace())
    if (a.write) fake_writes.emplace_back(a.address, a.value);
  std::size_t at = 0;
  for (const auto &w : fake_writes)
    if (at < driver_writes.size() && w == driver_writes[at]) ++at;
  CHECK(at == driver_writes.size());
}

TEST_CASE("AM boot on navi48: SDMA 7.0.1 and MP0 14.0.3 with RAS_DRV, 8 bootloader loads") {
  Rig rig("navi48");
  am::AmDevice dev(rig.fn, rig.clock);
  CHECK(dev.ip_version("SDMA0") == regs::IpVersion{7, 0, 1});
  am::AmGpu driver(dev);
  driver.boot();
  const auto &loads = driver.psp().bootloader_loads();
  REQUIRE(loads.size() == 8);
  CHECK(loads[6].command == am::psp_bl::kLoadRasDrv);
  CHECK(driver.psp().commands().size() == 15);  // TOC, SMU, 12 images, AUTOLOAD_RLC
  for (const auto &c : rig.psp().commands()) CHECK(c.status == 0);
}
