// wavectl sim-am / am boot|fini|smi / regs read|write --device: a whole AM session against the fake
// GPU kept in a simulator root, the register trace file (also after a failure), the real-hardware
// gates and their "untested on hardware" help.

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "../hw/support_flash/temp_dir.hpp"
#include "wavectl_runner.hpp"

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
