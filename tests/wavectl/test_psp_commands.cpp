// wavectl psp ...: probe on each board state, ifwi-all on a booted board (scenario 3), and the
// commands that stay disabled.

#include <catch2/catch.hpp>

#include "../hw/support_flash/temp_dir.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::TempDir;
using wavescope::testing::wavectl;

TEST_CASE(
    "wavectl psp probe: the requested item when booted, gating under SOS, refusal when bricked") {
  TempDir dir;
  const std::vector<std::string> env = {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  REQUIRE(wavectl({"sim", "create", "booted", "--test-image"}, env).exit_code == 0);
  REQUIRE(wavectl({"sim", "create", "sos", "--test-image", "--state", "sos"}, env).exit_code == 0);
  REQUIRE(wavectl({"sim", "create", "bricked"}, env).exit_code == 0);
  const auto ok = wavectl({"psp", "probe", "--device", "sim:booted", "--json"}, env);
  REQUIRE(ok.exit_code == 0);
  const auto j = json_lines(ok.out).at(0);
  CHECK(j["transfer_type"] == 1);
  CHECK(j["entries"].size() == 4);
  CHECK(j["entries"][2]["response"] == 0x001560C8);
  const auto sos = wavectl({"psp", "probe", "--device", "sim-pci:sos"}, env);
  REQUIRE(sos.exit_code == 0);
  CHECK_THAT(sos.out,
             Catch::Contains("0x0A partition update error") && Catch::Contains("power-cycled"));
  const auto bricked = wavectl({"psp", "probe", "--device", "sim:bricked"}, env);
  CHECK(bricked.exit_code == 5);
  CHECK_THAT(bricked.err, Catch::Contains("PSP mailbox not ready"));
}

TEST_CASE("wavectl psp ifwi-all streams the image, then the PSP is gated until a power cycle boots "
          "slot B") {
  TempDir dir;
  const std::vector<std::string> env = {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  const auto image = (dir.path() / "image.bin").string();
  REQUIRE(wavectl({"sim", "create", "b", "--test-image"}, env).exit_code == 0);
  REQUIRE(wavectl({"sim", "export", "b", image}, env).exit_code == 0);
  const auto refused = wavectl({"psp", "ifwi-all", image, "--device", "sim:b"}, env);
  CHECK(refused.exit_code == 2);
  const auto r = wavectl(
      {"psp", "ifwi-all", image, "--yes", "--fast-mailbox", "--device", "sim-pci:b", "--json"},
      env);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = json_lines(r.out).at(0);
  CHECK(j["completed"] == true);
  CHECK(j["items"].size() == 18);
  CHECK(j["power_cycle_required"] == true);
  const auto gated = wavectl({"psp", "probe", "--device", "sim-pci:b", "--json"}, env);
  CHECK(json_lines(gated.out).at(0)["update_gated"] == true);
  const auto cycled = wavectl({"sim", "power-cycle", "b", "--json"}, env);
  CHECK(json_lines(cycled.out).at(0)["booted_slot"] == "B");
}

TEST_CASE("wavectl psp stream, ifwi-step and live-flash stay disabled") {
  for (const char *name : {"stream", "ifwi-step", "live-flash"}) {
    const auto without = wavectl({"psp", name, "x", "--device", "sim:none"});
    CHECK(without.exit_code == 2);
    CHECK_THAT(without.err, Catch::Contains("needs --yes"));
    const auto with = wavectl({"psp", name, "x", "--yes", "--device", "sim:none"});
    CHECK(with.exit_code == 2);
    CHECK_THAT(with.err, Catch::Contains("is disabled") && Catch::Contains("flash write"));
  }
}
