// Opening capture folders through meta.json: every corpus capture, and malformed ones.

#include <catch2/catch.hpp>

#include <fstream>

#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/capture.hpp"

using wavescope::trace::Capture;

TEST_CASE("every corpus capture opens with its programs, blobs and PMC events") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  const auto dirs = wavescope::testing::sqtt_capture_dirs();
  REQUIRE(dirs.size() == 12);
  std::size_t blobs = 0;
  for (const auto &dir : dirs) {
    INFO(dir.string());
    const auto c = Capture::open(dir);
    CHECK(!c.programs.empty());
    CHECK(!c.blobs.empty());
    CHECK(!c.pmc.empty());
    for (const auto &b : c.blobs) CHECK(c.program(b.kernel_tag) != nullptr);
    for (const auto &p : c.pmc) CHECK(!p.schedule.empty());
    c.verify_checksums();
    blobs += c.blobs.size();
    if (c.arch == "gfx1100") {
      CHECK(c.device.processor == "gfx1100");
      CHECK(c.device.shader_engines() == 6);
    } else if (c.arch == "gfx1200") {
      CHECK(c.device.processor == "gfx1201");
      CHECK(c.device.shader_engines() == 4);
    } else {
      CHECK(c.device.processor == "gfx950");
      CHECK(c.device.num_xcc == 8);
      CHECK(c.device.shader_engines() == 4);
      for (const auto &b : c.blobs) CHECK(b.synthetic_header);
    }
  }
  CHECK(blobs == 30 + 24 + 96);
}

TEST_CASE("a two-kernel capture ties blobs to programs by tag") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/sync");
  const auto c = Capture::open(dir / "meta.json");
  REQUIRE(c.programs.size() == 2);
  CHECK(c.programs[0].name == "custom_lds_sync");
  CHECK(c.programs[0].base == 0x200001006000);
  CHECK(c.programs[0].entry_pc == 0x100);
  CHECK(c.programs[1].text_address == 0x1600);
  CHECK(c.blobs.size() == 12);
  CHECK(c.blobs[6].kernel_tag == 1);
  CHECK(c.program(1)->name == "E_32_4");
  CHECK(c.pmc.size() == 2);
  CHECK(c.pmc[0].schedule[0].name == "SQ_BUSY_CYCLES");
  CHECK(c.pmc[0].schedule[0].se == 6);
}

TEST_CASE("malformed captures are refused with the file and field named") {
  const wavescope::testing::TempDir temp;
  const auto &dir = temp.path;
  auto write_meta = [&](const std::string &text) { std::ofstream(dir / "meta.json") << text; };
  auto error = [&]() -> std::string {
    try {
      Capture::open(dir);
    } catch (const wavescope::Error &e) {
      CHECK(e.kind() == wavescope::ErrorKind::BadInput);
      return e.what();
    }
    return "no error";
  };
  CHECK_THAT(error(), Catch::Contains("not a capture folder"));
  write_meta("{not json");
  CHECK_THAT(error(), Catch::Contains("not valid JSON"));
  // A number beyond a double (fuzz_capture_meta): nlohmann's out_of_range, not a parse_error.
  write_meta(R"({"format":"sqtt-corpus/1","run":1e5012})");
  CHECK_THAT(error(), Catch::Contains("not valid JSON") && Catch::Contains("number overflow"));
  write_meta(R"({"format":"other"})");
  CHECK_THAT(error(), Catch::Contains("expected \"sqtt-corpus/1\""));
  const std::string device = R"("device":{"props":{"gfx_target_version":110000}})";
  write_meta(
      R"({"format":"sqtt-corpus/1",)" + device +
      R"(,"programs":[{"tag":0,"name":"k","file":"p.elf","base":"0x1000","size":4,"text":{"addr":"0x100","size":4},"entry_pc":"0x100"}],"sqtt":[]})");
  CHECK_THAT(error(), Catch::Contains("p.elf but it is missing"));
  std::ofstream(dir / "p.elf") << "abc";
  CHECK_THAT(error(), Catch::Contains("is 3 bytes but meta.json records 4"));
  write_meta(
      R"({"format":"sqtt-corpus/1",)" + device +
      R"(,"programs":[{"tag":0,"name":"k","file":"../p.elf","base":"0x1000","size":4,"text":{"addr":"0x100","size":4},"entry_pc":"0x100"}],"sqtt":[]})");
  CHECK_THAT(error(), Catch::Contains("not a plain file name"));
  write_meta(
      R"({"format":"sqtt-corpus/1",)" + device +
      R"(,"programs":[{"tag":0,"name":"k","file":"p.elf","base":"zz","size":3,"text":{"addr":"0x100","size":4},"entry_pc":"0x100"}],"sqtt":[]})");
  CHECK_THAT(error(), Catch::Contains("programs[0].base is not a hex number"));
  // Lists of the wrong type and unreadable times are the reader's errors too, not the JSON
  // library's exceptions.
  write_meta(R"({"format":"sqtt-corpus/1",)" + device + R"(,"programs":7,"sqtt":[]})");
  CHECK(error() == (dir / "meta.json").string() + ": meta.programs is not an array");
  const std::string program =
      R"({"tag":0,"name":"k","file":"p.elf","base":"0x1000","size":3,"text":{"addr":"0x100","size":4},"entry_pc":"0x100")";
  write_meta(R"({"format":"sqtt-corpus/1",)" + device + R"(,"programs":[)" + program +
             R"(}],"sqtt":{"se":0}})");
  CHECK(error() == (dir / "meta.json").string() + ": meta.sqtt is not an array");
  write_meta(R"({"format":"sqtt-corpus/1",)" + device + R"(,"programs":[)" + program +
             R"(}],"sqtt":[],"pmc":"none"})");
  CHECK(error() == (dir / "meta.json").string() + ": meta.pmc is not an array");
  write_meta(R"({"format":"sqtt-corpus/1",)" + device + R"(,"programs":[)" + program +
             R"(,"exec_ranges":[{"st_us":"soon","en_us":"1"}]}],"sqtt":[]})");
  CHECK(error() == (dir / "meta.json").string() +
                       ": programs[0].exec_ranges.st_us is not a decimal number: \"soon\"");
  write_meta(R"({"format":"sqtt-corpus/1",)" + device + R"(,"programs":[)" + program +
             R"(,"exec_ranges":{"st_us":"1"}}],"sqtt":[]})");
  CHECK(error() == (dir / "meta.json").string() + ": programs[0].exec_ranges is not an array");
}
