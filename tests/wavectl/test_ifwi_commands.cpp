// wavectl ifwi make-test-image / inspect: the synthesized image, its JSON description, refusals.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <random>

#include "wavectl_runner.hpp"

using wavescope::testing::json_lines;
using wavescope::testing::wavectl;

namespace {

// A fresh directory under the system temp dir, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::random_device rd;
    path = std::filesystem::temp_directory_path() / ("wavectl-ifwi-" + std::to_string(rd()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string &name) const { return (path / name).string(); }
};

}  // namespace

TEST_CASE("wavectl ifwi make-test-image writes the reference image") {
  TempDir dir;
  const auto out = dir.file("test.bin");
  const auto r = wavectl({"ifwi", "make-test-image", out, "--json"});
  REQUIRE(r.exit_code == 0);
  const auto j = json_lines(r.out).at(0);
  CHECK(j["sha256"] == "b5596d9a2fe5f20f94973677b7a8f8fcb113e52cb00236f77ef1103d7bf40cf9");
  CHECK(j["size"] == 2097152);
  CHECK(std::filesystem::file_size(out) == 2097152);
  // Only the final file: the atomic write leaves no temporary beside it.
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path), {}) == 1);
}

TEST_CASE("wavectl ifwi make-test-image takes the small profile in hex") {
  TempDir dir;
  const auto r = wavectl({"ifwi", "make-test-image", dir.file("s.bin"), "--slot-size", "0x40000"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out,
             Catch::Contains("91f56da49cf3aaf94e668bf477a33f1b56146f87ada352da8694fe63c06f966c"));
}

TEST_CASE("wavectl ifwi make-test-image refuses an unknown corruption and a bad slot size") {
  TempDir dir;
  const auto bad = wavectl({"ifwi", "make-test-image", dir.file("x.bin"), "--corrupt", "nope"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("unknown test image corruption 'nope'"));
  const auto size =
      wavectl({"ifwi", "make-test-image", dir.file("x.bin"), "--slot-size", "0x1000"});
  CHECK(size.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(dir.file("x.bin")));
}

TEST_CASE("wavectl ifwi inspect --json describes every structure and item") {
  TempDir dir;
  const auto image = dir.file("test.bin");
  REQUIRE(wavectl({"ifwi", "make-test-image", image}).exit_code == 0);
  const auto r = wavectl({"ifwi", "inspect", image, "--json"});
  REQUIRE(r.exit_code == 0);
  const auto j = json_lines(r.out).at(0);
  CHECK(j["accepted"] == true);
  CHECK(j["errors"] == 0);
  CHECK(j["efs"]["magic"] == 0x55AA55AA);
  REQUIRE(j["psp_directories"].size() == 2);
  CHECK(j["psp_directories"][0]["entries"][1]["type"] == 0x13D);
  CHECK(j["sgn"]["entries"].size() == 7);
  REQUIRE(j["image_slot_headers"].size() == 2);
  CHECK(j["image_slot_headers"][1]["slot_address"] == 0x100000);
  REQUIRE(j["partitions"].size() == 2);
  CHECK(j["partitions"][0]["vbios"]["device_id"] == 0x744C);
  REQUIRE(j["items"].size() == 18);
  CHECK(j["items"][7]["item"] == 8);
  CHECK(j["items"][7]["size"] == 0xC0000);
}

TEST_CASE(
    "wavectl ifwi inspect shows findings with offsets, and --check exits 3 on a refused image") {
  TempDir dir;
  const auto image = dir.file("bad.bin");
  REQUIRE(wavectl({"ifwi", "make-test-image", image, "--corrupt", "psp-entry-outside"}).exit_code ==
          0);
  const auto text = wavectl({"ifwi", "inspect", image});
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("error: 0x002020: primary $PSP entry 1"));
  CHECK_THAT(text.out, Catch::Contains("verdict: flash write would refuse this image"));
  const auto checked = wavectl({"ifwi", "inspect", image, "--check"});
  CHECK(checked.exit_code == 3);
  CHECK_THAT(checked.err, Catch::Contains("image rejected (1 problem): 0x002020"));
}

TEST_CASE("wavectl ifwi inspect of a missing file exits 3 naming it") {
  const auto r = wavectl({"ifwi", "inspect", "/nonexistent/image.bin"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains("cannot open /nonexistent/image.bin"));
}

TEST_CASE("wavectl ifwi subcommands have --help") {
  for (const char *sub : {"inspect", "make-test-image"}) {
    const auto r = wavectl({"ifwi", sub, "--help"});
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("--json"));
  }
}
