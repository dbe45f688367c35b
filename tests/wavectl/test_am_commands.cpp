// wavectl sim-am / am boot|fini|smi / regs read|write --device: a whole AM session against the fake
// GPU kept in a simulator root, the register trace file (also after a failure), the real-hardware
// gates and their "untested on hardware" help.

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "../hw/support_flash/temp_dir.hpp"
#include "wavectl_runner.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/memory_manager.hpp"
#include "wavescope/hw/device.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::TempDir;
using wavescope::testing::wavectl;

namespace {
std::string slurp(const std::filesystem::path &p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("wavectl am: boot, smi, fini, boot again takes the partial path") {
  TempDir dir;
  const std::vector<std::string> env = {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  REQUIRE(wavectl({"sim-am", "create", "g"}, env).exit_code == 0);
  const auto trace = dir.path() / "boot.trace";
  const auto boot =
      wavectl({"am", "boot", "--device", "sim-am:g", "--json", "--trace", trace.string()}, env);
  REQUIRE(boot.exit_code == 0);
  const auto j = json_lines(boot.out).at(0);
  CHECK(j["mode"] == "full");
  CHECK(j["psp_bootloader"].size() == 7);
  CHECK(j["psp_commands"].size() == 15);
  CHECK(j["scratch_reg7"] == "0xA0000008");
  const auto text = slurp(trace);
  CHECK_THAT(text, Catch::Contains("W mp0.MPASP_SMN_C2PMSG_35[0] 0x16063 = 0x00020000") &&
                       Catch::Contains("W gc.SCRATCH_REG6[0] 0xC046 = 0x00000001"));
  const auto smi = wavectl({"am", "smi", "--device", "sim-am:g", "--json"}, env);
  REQUIRE(smi.exit_code == 0);
  CHECK(json_lines(smi.out).at(0)["gfxclk_mhz"] == 2970);
  REQUIRE(wavectl({"am", "fini", "--device", "sim-am:g"}, env).exit_code == 0);
  const auto again = wavectl({"am", "boot", "--device", "sim-am-usb:g", "--json"}, env);
  REQUIRE(again.exit_code == 0);
  CHECK(json_lines(again.out).at(0)["mode"] == "partial");
  const auto status = wavectl({"sim-am", "status", "g", "--json"}, env);
  CHECK(json_lines(status.out).at(0)["last_run"]["command"] == "am boot");
}

TEST_CASE("wavectl am boot: a failure still writes the trace and saves the chip") {
  TempDir dir;
  const std::vector<std::string> env = {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  REQUIRE(wavectl({"sim-am", "create", "g"}, env).exit_code == 0);
  REQUIRE(wavectl({"sim-am", "fault", "g", "psp:fence-lost,cmd=0x21"}, env).exit_code == 0);
  const auto trace = dir.path() / "t";
  const auto r = wavectl({"am", "boot", "--device", "sim-am:g", "--trace", trace.string()}, env);
  CHECK(r.exit_code == 8);
  CHECK_THAT(r.err, Catch::Contains("sOS ring not responding (AUTOLOAD_RLC fence 0xE1)"));
  CHECK_THAT(slurp(trace), Catch::Contains("W mp0.MPASP_SMN_C2PMSG_67[0] 0x16083 = 0x000000F0"));
  const auto status = wavectl({"sim-am", "status", "g", "--json"}, env);
  const auto s = json_lines(status.out).at(0);
  CHECK(s["blocks"]["psp"]["sos_alive"] == true);
  CHECK(s["last_run"]["command"] == "am boot");
}

TEST_CASE("wavectl: real-GPU writes need --yes, and the help says untested on hardware") {
  CHECK(wavectl({"am", "boot", "--device", "pci:0000:03:00.0"}).exit_code == 2);
  CHECK(wavectl({"am", "fini", "--device", "pci:0000:03:00.0"}).exit_code == 2);
  CHECK(wavectl({"am", "smi", "--device", "pci:0000:03:00.0"}).exit_code == 2);
  CHECK(wavectl({"regs", "write", "gc.SCRATCH_REG7", "1", "--device", "pci:0000:03:00.0"})
            .exit_code == 2);
  for (const char *cmd : {"boot", "fini", "smi", "discovery"}) {
    INFO(cmd);
    CHECK_THAT(wavectl({"am", cmd, "--help"}).out, Catch::Contains("untested on hardware"));
  }
  for (const char *cmd : {"read", "write"})
    CHECK_THAT(wavectl({"regs", cmd, "--help"}).out, Catch::Contains("untested on hardware"));
}

TEST_CASE("wavectl am vm map|walk --device: the VMID-0 page tables of a booted fake GPU") {
  namespace am = wavescope::hw::am;
  namespace device = wavescope::hw::device;
  TempDir dir;
  const std::vector<std::string> env = {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  REQUIRE(wavectl({"sim-am", "create", "g", "--chip", "navi31"}, env).exit_code == 0);
  REQUIRE(wavectl({"am", "boot", "--device", "sim-am:g"}, env).exit_code == 0);
  // A runtime's mapping, made through the driver in this process: 2 MiB + 4 KiB of VRAM at
  // paddr 0x4000000 (a 2 MiB leaf and a 4 KiB one), at VM base + 0x200000.
  constexpr std::uint64_t kVa = am::PageTable::kVmBase + 0x20'0000;
  {
    device::OpenOptions options;
    options.sim_root = dir.path();
    auto dev = device::open_device(device::parse_device_spec("sim-am:g"), options);
    am::AmDevice device(dev->function(), dev->clock());
    am::AmGpuOptions o;
    o.attach = true;
    am::AmGpu gpu(device, o);
    gpu.mm().map_range(kVa, 0x20'1000, {{0x400'0000, 0x20'1000}}, am::AddrSpace::Phys);
    dev->close();
  }
  const auto walk = wavectl(
      {"am", "vm", "walk", "--device", "sim-am:g", "+0x200000", "+0x400000", "+0x401000", "--json"},
      env);
  INFO(walk.err);
  INFO(walk.out);
  REQUIRE(walk.exit_code == 0);
  const auto j = json_lines(walk.out).at(0);
  REQUIRE(j["walks"].size() == 3);
  CHECK(j["generation"] == "gfx11");
  CHECK(j["walks"][0]["address"] == "0x4000000");
  CHECK(j["walks"][1]["address"] == "0x4200000");
  CHECK(j["walks"][2]["mapped"] == false);
  const auto tables = wavectl({"am", "vm", "map", "--device", "sim-am:g"}, env);
  REQUIRE(tables.exit_code == 0);
  CHECK_THAT(tables.out, Catch::Contains("gfx11 page tables"));
  // The device's tables are read, never built on: maps and a generation are refused.
  const auto refused =
      wavectl({"am", "vm", "map", "--device", "sim-am:g", "--map", "+0,0x1000,0x0"}, env);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains("nothing was written"));
  CHECK(wavectl({"am", "vm", "walk", "--device", "sim-am:g", "--generation", "gfx9", "+0"}, env)
            .exit_code == 2);
  // A GPU AM did not boot has no tables of AM's to read.
  REQUIRE(wavectl({"sim-am", "create", "cold"}, env).exit_code == 0);
  const auto cold = wavectl({"am", "vm", "walk", "--device", "sim-am:cold", "+0"}, env);
  CHECK(cold.exit_code != 0);
  CHECK_THAT(cold.err, Catch::StartsWith("error: "));
}
