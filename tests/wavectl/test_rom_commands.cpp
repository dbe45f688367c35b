// wavectl rom dump: the ROM_DATA aperture on a booted board, restoring ROM_CNTL and ROM_INDEX;
// a mirrored 1 MiB aperture and an absent ROM controller are refused without writing a file.

#include <catch2/catch.hpp>

#include <filesystem>

#include "../hw/support_flash/temp_dir.hpp"
#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::TempDir;
using wavescope::testing::wavectl;

TEST_CASE("wavectl rom dump reads a booted board's flash and restores the registers it touched") {
  TempDir dir;
  const std::vector<std::string> env = {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  REQUIRE(wavectl({"sim", "create", "b", "--test-image"}, env).exit_code == 0);
  const auto out = (dir.path() / "rom.bin").string();
  const auto r = wavectl({"rom", "dump", out, "--device", "sim:b", "--json"}, env);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = json_lines(r.out).at(0);
  CHECK(j["sha256"] == "b5596d9a2fe5f20f94973677b7a8f8fcb113e52cb00236f77ef1103d7bf40cf9");
  CHECK(j["restored"]["rom_cntl"] == 1);
  const auto status = json_lines(wavectl({"sim", "status", "b", "--json"}, env).out).at(0);
  CHECK(status["last_run"]["findings"].empty());  // I1 and I5 hold
}

TEST_CASE("wavectl rom dump refuses a mirrored aperture and an absent ROM controller") {
  TempDir dir;
  const std::vector<std::string> env = {"WAVESCOPE_SIM_ROOT=" + dir.path().string()};
  REQUIRE(wavectl({"sim", "create", "m", "--test-image", "--set", "aperture_size=0x100000"}, env)
              .exit_code == 0);
  REQUIRE(wavectl({"sim", "create", "a", "--test-image"}, env).exit_code == 0);
  REQUIRE(wavectl({"sim", "fault", "a", "aperture:mode=absent"}, env).exit_code == 0);
  const auto out = (dir.path() / "rom.bin").string();
  const auto mirrored = wavectl({"rom", "dump", out, "--device", "sim-pci:m"}, env);
  CHECK(mirrored.exit_code == 7);
  CHECK_THAT(mirrored.err, Catch::Contains("halves"));
  const auto absent = wavectl({"rom", "dump", out, "--device", "sim-pci:a"}, env);
  CHECK(absent.exit_code == 5);
  CHECK_THAT(absent.err, Catch::Contains("ROM_CNTL 0x5A380 reads 0xFFFFFFFF"));
  CHECK_FALSE(std::filesystem::exists(out));
}
