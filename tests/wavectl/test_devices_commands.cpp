// wavectl devices: works with nothing present, lists simulated boards with their state.

#include <catch2/catch.hpp>

#include "../hw/support_flash/temp_dir.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::TempDir;
using wavescope::testing::wavectl;

TEST_CASE("wavectl devices works with no device at all") {
  TempDir dir;
  const auto r = wavectl({"devices", "--sim-root", (dir.path() / "none").string()});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("no devices") || Catch::Contains("DEVICE"));
  const auto j = wavectl({"devices", "--sim-root", (dir.path() / "none").string(), "--json"});
  CHECK(j.exit_code == 0);
}

TEST_CASE("wavectl devices lists simulated boards with their state") {
  TempDir dir;
  const std::vector<std::string> env = {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  REQUIRE(wavectl({"sim", "create", "alpha"}, env).exit_code == 0);
  REQUIRE(wavectl({"sim", "create", "beta", "--test-image"}, env).exit_code == 0);
  const auto r = wavectl({"devices", "--json"}, env);
  REQUIRE(r.exit_code == 0);
  std::vector<nlohmann::json> sims;
  for (const auto &line : json_lines(r.out))
    if (line["kind"] == "sim") sims.push_back(line);
  REQUIRE(sims.size() == 2);
  CHECK(sims[0]["id"] == "sim:alpha");
  CHECK(sims[0]["state"] == "bricked");
  CHECK(sims[1]["state"] == "booted");
  const auto text = wavectl({"devices"}, env);
  CHECK_THAT(text.out, Catch::Contains("sim:beta") && Catch::Contains("booted"));
}

TEST_CASE("without --device, flash commands never fall back to a simulator") {
  TempDir dir;
  const std::vector<std::string> env = {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  REQUIRE(wavectl({"sim", "create", "alpha"}, env).exit_code == 0);
  const auto r = wavectl({"flash", "info"}, env);
  CHECK(r.exit_code == 4);
  CHECK_THAT(r.err, Catch::Contains("no device found") && Catch::Contains("sim:NAME"));
}
