// wavectl sim ...: creating, inspecting, power-cycling, faulting, exporting and removing simulated
// boards in a simulator root given through $WAVESCOPE_SIM_ROOT or --sim-root.

#include <catch2/catch.hpp>

#include <filesystem>

#include "../hw/support_flash/temp_dir.hpp"
#include "testdata.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::TempDir;
using wavescope::testing::wavectl;

namespace {
constexpr const char *kTestImageSha =
    "b5596d9a2fe5f20f94973677b7a8f8fcb113e52cb00236f77ef1103d7bf40cf9";
std::vector<std::string> env(const TempDir &dir) {
  return {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
}
}  // namespace

TEST_CASE("wavectl sim create, status, export and remove round-trip a board") {
  TempDir dir;
  const auto created = wavectl({"sim", "create", "b1", "--test-image", "--json"}, env(dir));
  REQUIRE(created.exit_code == 0);
  const auto c = json_lines(created.out).at(0);
  CHECK(c["state"] == "booted");
  CHECK(c["booted_slot"] == "A");
  CHECK(c["flash_sha256"] == kTestImageSha);

  const auto status = wavectl({"sim", "status", "b1", "--json"}, env(dir));
  REQUIRE(status.exit_code == 0);
  CHECK(json_lines(status.out).at(0)["state"] == "booted");

  const auto out = (dir.path() / "export.bin").string();
  const auto exported = wavectl({"sim", "export", "b1", out, "--json"}, env(dir));
  REQUIRE(exported.exit_code == 0);
  CHECK(json_lines(exported.out).at(0)["sha256"] == kTestImageSha);
  CHECK(std::filesystem::file_size(out) == 0x200000);

  CHECK(wavectl({"sim", "remove", "b1"}, env(dir)).exit_code == 0);
  const auto gone = wavectl({"sim", "status", "b1"}, env(dir));
  CHECK(gone.exit_code == 4);
  CHECK_THAT(gone.err, Catch::Contains("no simulated board 'b1'"));
}

TEST_CASE("wavectl sim create checks names, states and duplicates") {
  TempDir dir;
  CHECK(wavectl({"sim", "create", "b1"}, env(dir)).exit_code == 0);
  const auto dup = wavectl({"sim", "create", "b1"}, env(dir));
  CHECK(dup.exit_code == 2);
  CHECK_THAT(dup.err, Catch::Contains("already exists"));
  const auto blank_booted = wavectl({"sim", "create", "b2", "--state", "booted"}, env(dir));
  CHECK(blank_booted.exit_code == 2);
  CHECK_THAT(blank_booted.err, Catch::Contains("does not boot"));
  CHECK(wavectl({"sim", "create", "../evil"}, env(dir)).exit_code == 2);
  const auto sos =
      wavectl({"sim", "create", "b3", "--test-image", "--state", "sos", "--json"}, env(dir));
  REQUIRE(sos.exit_code == 0);
  CHECK(json_lines(sos.out).at(0)["state"] == "sos");
  const auto cmp = wavectl({"sim", "create", "b4", "--cmp", "--json"}, env(dir));
  CHECK(json_lines(cmp.out).at(0)["protected"] == "whole array");
  const auto bad_setting = wavectl({"sim", "create", "b5", "--set", "rx_lag=7"}, env(dir));
  CHECK(bad_setting.exit_code == 2);
}

TEST_CASE("wavectl sim fault arms, lists and clears faults, bad specs are refused") {
  TempDir dir;
  REQUIRE(wavectl({"sim", "create", "b1"}, env(dir)).exit_code == 0);
  const auto armed = wavectl({"sim", "fault", "b1", "power-loss:op=erase,nth=3",
                              "usb:transfer=bulk-in,nth=5,effect=stall", "--json"},
                             env(dir));
  REQUIRE(armed.exit_code == 0);
  const auto faults = json_lines(armed.out).at(0)["faults"];
  REQUIRE(faults.size() == 2);
  CHECK(faults[0]["spec"] == "power-loss:op=erase,nth=3");
  CHECK(wavectl({"sim", "fault", "b1", "meteor"}, env(dir)).exit_code == 2);
  CHECK(wavectl({"sim", "fault", "b1", "usb:effect=explode"}, env(dir)).exit_code == 2);
  const auto cleared = wavectl({"sim", "fault", "b1", "--clear", "--json"}, env(dir));
  CHECK(json_lines(cleared.out).at(0)["faults"].empty());
}

TEST_CASE("wavectl sim power-cycle, load-driver and configure change the board") {
  TempDir dir;
  REQUIRE(
      wavectl({"sim", "create", "b1", "--test-image", "--state", "bricked"}, env(dir)).exit_code ==
      0);
  const auto cycled = wavectl({"sim", "power-cycle", "b1", "--json"}, env(dir));
  CHECK(json_lines(cycled.out).at(0)["state"] == "booted");
  const auto sos = wavectl({"sim", "load-driver", "b1", "--json"}, env(dir));
  CHECK(json_lines(sos.out).at(0)["state"] == "sos");
  const auto again = wavectl({"sim", "load-driver", "b1"}, env(dir));
  CHECK(again.exit_code == 5);
  const auto lag = wavectl({"sim", "configure", "b1", "rx_lag=0", "--json"}, env(dir));
  CHECK(json_lines(lag.out).at(0)["rx_lag"] == 0);
  // --sim-root wins over the environment.
  TempDir other;
  CHECK(wavectl({"sim", "status", "b1", "--sim-root", other.path().string()}, env(dir)).exit_code ==
        4);
}
