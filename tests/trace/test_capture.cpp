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

TEST_CASE(
    "meta.json's sqtt entries: read straight from the parser, odd ones get the reader's errors") {
  // The entries are read without a DOM object each; anything the reader would not take as it
  // is (a member of another type, a missing one, a non-object entry, a second "sqtt") makes the
  // document parse again the old way, so the errors stay the reader's.
  const wavescope::testing::TempDir temp;
  const auto &dir = temp.path;
  std::ofstream(dir / "p.elf") << "abc";
  std::ofstream(dir / "se0.bin") << "0123456789";
  const std::string head =
      R"({"format":"sqtt-corpus/1","device":{"props":{"gfx_target_version":110000}},"programs":[{"tag":7,"name":"k","file":"p.elf","base":"0x1000","size":3,"text":{"addr":"0x100","size":4},"entry_pc":"0x100"}],)";
  auto open_with = [&](const std::string &sqtt) {
    std::ofstream(dir / "meta.json") << head << sqtt << "}";
    return Capture::open(dir);
  };
  auto error = [&](const std::string &sqtt) -> std::string {
    try {
      open_with(sqtt);
    } catch (const wavescope::Error &e) {
      CHECK(e.kind() == wavescope::ErrorKind::BadInput);
      return e.what();
    }
    return "no error";
  };
  const std::string meta = (dir / "meta.json").string() + ": ";
  // Well-formed entries, with members nothing reads (nested too), in any order.
  const auto c = open_with(
      R"("sqtt":[{"packets":{"n":[1,2]},"size":10,"file":"se0.bin","se":2,"kern":7,"itrace":true,"program":"k","sha256":"ab","order":5},)"
      R"({"file":"se0.bin","se":0,"kern":7,"size":10,"synthetic_header":true,"waves":[[1]]}])");
  REQUIRE(c.blobs.size() == 2);
  CHECK(c.blobs[0].file_name == "se0.bin");
  CHECK(c.blobs[0].se == 2);
  CHECK(c.blobs[0].kernel_tag == 7);
  CHECK(c.blobs[0].itrace);
  CHECK(c.blobs[0].program == "k");
  CHECK(c.blobs[0].sha256 == "ab");
  CHECK(c.blobs[0].order == 5);
  CHECK(c.blobs[0].size == 10);
  CHECK(!c.blobs[0].synthetic_header);
  CHECK(c.blobs[1].order == 1);  // its index when not recorded
  CHECK(c.blobs[1].synthetic_header);
  CHECK(!c.blobs[1].itrace);
  CHECK(c.blobs[1].program.empty());
  // Odd entries: the reader's errors.
  CHECK(error(R"("sqtt":[{"file":"se0.bin","se":"2","kern":7,"size":10}])") ==
        meta + "sqtt[0].se has the wrong type");
  CHECK(error(R"("sqtt":[{"file":"se0.bin","se":2,"size":10}])") ==
        meta + "sqtt[0] has no \"kern\"");
  CHECK(error(R"("sqtt":[{"file":"se0.bin","se":2,"kern":7,"size":10,"itrace":1}])") ==
        meta + "sqtt[0].itrace has the wrong type");
  CHECK(error(R"("sqtt":[{"file":"se0.bin","se":2,"kern":7,"size":[10]}])") ==
        meta + "sqtt[0].size has the wrong type");
  CHECK(error(R"("sqtt":[5])") == meta + "sqtt[0] has no \"file\"");
  CHECK(error(R"("sqtt":[{"file":"../se0.bin","se":2,"kern":7,"size":10}])") ==
        meta + "sqtt[0].file \"../se0.bin\" is not a plain file name in the capture folder");
  CHECK(error(R"("sqtt":[{"file":"se0.bin","se":2,"kern":8,"size":10}])") ==
        meta + "sqtt[0].kern is 8, but no program has that tag");
  CHECK_THAT(error(R"("sqtt":[{"file":"se0.bin","se":2,"kern":7,"size":11}])"),
             Catch::Contains("is 10 bytes but meta.json records 11"));
  CHECK(error(R"("sqtt":[{"file":"se0.bin","se":2,"kern":7,"size":10}],"sqtt":{"se":0})") ==
        meta + "meta.sqtt is not an array");
  CHECK(error(R"("sqtt":{"se":0},"sqtt":[])") == "no error");
}
