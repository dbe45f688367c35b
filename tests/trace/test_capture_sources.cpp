// A capture analyses the same wherever its bytes live: the files of its folder, ranges of one
// other file (as a profile pickle or an .rgp holds them), or memory.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "sqtt_support/analysis.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/pmc/pmc_decoder.hpp"

using namespace wavescope;
using trace::Capture;

namespace {

// The capture with every byte source replaced by a copy in memory.
Capture in_memory(Capture c) {
  for (auto &p : c.programs) p.code = ByteSource::owned(p.code.read_all());
  for (auto &b : c.blobs) b.bytes = ByteSource::owned(b.bytes.read_all());
  for (auto &p : c.pmc) p.bytes = ByteSource::owned(p.bytes.read_all());
  return c;
}

// The capture with all its bytes packed into one file (with gaps) and read as ranges of it.
Capture in_one_file(Capture c, const std::filesystem::path &file) {
  std::ofstream out(file, std::ios::binary);
  std::uint64_t at = 0;
  auto pack = [&](ByteSource &source) {
    const auto bytes = source.read_all();
    out.write("gap!", 4);
    at += 4;
    out.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    source = ByteSource::file_range(file, at, bytes.size());
    at += bytes.size();
  };
  for (auto &p : c.programs) pack(p.code);
  for (auto &b : c.blobs) pack(b.bytes);
  for (auto &p : c.pmc) pack(p.bytes);
  return c;
}

struct Summary {
  std::vector<std::string> lines;
  bool operator==(const Summary &) const = default;
};

Summary summarize(const Capture &c) {
  Summary s;
  trace::timeline::CaptureAnalyzer analyzer(c);
  for (const auto &b : c.blobs) {
    const auto a = testing::sqtt::analyze_blob(analyzer, b);
    std::string line = b.file_name + " packets " + std::to_string(a.report.decode.packets) +
                       " waves " + std::to_string(a.waves.size()) + " rows " +
                       std::to_string(a.timeline.rows.size());
    for (const auto &w : a.waves)
      line += " " + std::to_string(w.wave.start) + ":" + std::to_string(w.wave.end) + "/" +
              std::to_string(w.instructions.size());
    s.lines.push_back(std::move(line));
  }
  for (const auto &e : c.pmc) {
    const auto d = trace::pmc::decode_event(c, e);
    std::string line = d.file + " " + d.kernel;
    for (const auto &counter : d.counters)
      line += " " + counter.name + "=" + std::to_string(counter.sum);
    s.lines.push_back(std::move(line));
  }
  return s;
}

}  // namespace

TEST_CASE("capture sources: every corpus capture analyses the same from memory and from ranges") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  const auto dirs = testing::sqtt_capture_dirs();
  REQUIRE(dirs.size() == 12);
  const testing::TempDir temp;
  std::size_t blobs = 0;
  for (const auto &dir : dirs) {
    INFO(dir.string());
    const auto folder = Capture::open_folder(dir);
    const auto expected = summarize(folder);
    const auto memory = in_memory(folder);
    for (const auto &b : memory.blobs) CHECK(b.bytes.in_memory());
    memory.verify_checksums();
    CHECK(summarize(memory) == expected);
    const auto ranges = in_one_file(folder, temp.path / "packed.bin");
    ranges.verify_checksums();
    CHECK(summarize(ranges) == expected);
    blobs += folder.blobs.size();
  }
  CHECK(blobs == 150);
}

TEST_CASE("capture sources: a blob range past the end of its file is refused naming it") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/plus");
  auto c = Capture::open_folder(dir);
  const testing::TempDir temp;
  const auto file = temp.path / "short.bin";
  std::ofstream(file, std::ios::binary) << "tiny";
  c.blobs[0].bytes = ByteSource::file_range(file, 2, 4096);
  trace::timeline::CaptureAnalyzer analyzer(c);
  trace::timeline::WaveCounter counter;
  CHECK_THROWS_WITH(analyzer.analyze(c.blobs[0], counter),
                    Catch::Contains("short.bin") && Catch::Contains("past the end"));
}

TEST_CASE("capture sources: a blob file cut short after the capture was opened is refused") {
  // A capture's blobs are not stat'ed again when they are read (Capture::open checked their
  // sizes): a file that shrank in between fails the read, naming the file and the bytes.
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/plus");
  const testing::TempDir temp;
  namespace fs = std::filesystem;
  for (const auto &entry : fs::directory_iterator(dir)) {
    fs::copy_file(entry.path(), temp.path / entry.path().filename());
    fs::permissions(temp.path / entry.path().filename(),
                    fs::perms::owner_read | fs::perms::owner_write);
  }
  const auto c = Capture::open_folder(temp.path);
  REQUIRE(!c.blobs.empty());
  const auto &blob = c.blobs[0];
  REQUIRE(blob.size > 100);
  fs::resize_file(temp.path / blob.file_name, 100);
  trace::timeline::CaptureAnalyzer analyzer(c);
  trace::timeline::WaveCounter counter;
  CHECK_THROWS_WITH(analyzer.analyze(blob, counter),
                    Catch::Contains(blob.file_name) &&
                        Catch::Contains(fmt::format("bytes 0..{} is past the end", blob.size)) &&
                        Catch::Contains("ends at byte 100"));
}
