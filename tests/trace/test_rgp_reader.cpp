// .rgp files as captures: every file of ../shared/data/rgp (written by tinygrad's rgptool) against
// the capture folder it was made from, the reader's repairs, and refusals of bad files.

#include <catch2/catch.hpp>

#include <fstream>
#include <random>

#include "corpus_names.hpp"
#include "sqtt_support/analysis.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/rgp/rgp_capture.hpp"
#include "wavescope/trace/rgp/rgp_file.hpp"

using wavescope::testing::folder_of;
using wavescope::testing::kRgpFiles;

using namespace wavescope;
using namespace wavescope::trace;

namespace {

// Every wave of every blob: where it ran, when, and its mapped instructions (PC, time, packet,
// issue gap, exec cycles).
std::vector<std::string> waves_of(const Capture &c, std::size_t &instructions) {
  std::vector<std::string> lines;
  timeline::CaptureAnalyzer analyzer(c);
  for (const auto &b : c.blobs) {
    const auto a = testing::sqtt::analyze_blob(analyzer, b);
    lines.push_back(b.file_name + " " + b.program + " se " + std::to_string(b.se) + " waves " +
                    std::to_string(a.waves.size()) + " packets " +
                    std::to_string(a.report.decode.packets));
    for (const auto &w : a.waves) {
      std::string line = "  " + std::to_string(w.wave.cu) + "/" + std::to_string(w.wave.simd) +
                         "/" + std::to_string(w.wave.slot) + " " + std::to_string(w.wave.start) +
                         ".." + std::to_string(w.wave.end) + (w.mapped ? " mapped" : "");
      for (const auto &i : w.instructions) {
        line += " " + std::to_string(i.pc) + "@" + std::to_string(i.time) + ":" +
                std::to_string(static_cast<int>(i.packet)) + "+" + std::to_string(i.issue_gap) +
                "x" + std::to_string(w.exec_cycles(i));
        ++instructions;
      }
      lines.push_back(std::move(line));
    }
  }
  return lines;
}

std::string error_of(const std::filesystem::path &file) {
  try {
    (void)Capture::open(file);
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    return e.what();
  }
  FAIL("no error for " << file.string());
  return {};
}

void write(const std::filesystem::path &path, const std::vector<unsigned char> &bytes) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST_CASE("rgp: every rgptool file opens as the capture of its capture folder, same waves") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "rgp");
  WAVESCOPE_REQUIRE_TESTDATA(folders, "sqtt");
  std::size_t files = 0, blobs = 0, programs = 0, named = 0, instructions = 0, waves = 0;
  for (const std::string name : kRgpFiles) {
    INFO(name);
    const auto path = root / (name + ".rgp");
    const auto c = Capture::open(path);
    const auto f = Capture::open_folder(folders / folder_of(name));
    CHECK(c.source == path);
    CHECK(c.device.processor == f.device.processor);
    CHECK(c.device.gfx_target_version == f.device.gfx_target_version);
    CHECK(c.device.shader_engines() == f.device.shader_engines());
    CHECK(c.device.simd_count == f.device.simd_count);
    CHECK(c.device.cu_per_simd_array == f.device.cu_per_simd_array);
    CHECK(c.device.max_waves_per_simd == f.device.max_waves_per_simd);
    CHECK(c.device.lds_size_kb == f.device.lds_size_kb);
    REQUIRE(c.programs.size() == f.programs.size());
    for (std::size_t i = 0; i < c.programs.size(); ++i) {
      const auto &a = c.programs[i], &b = f.programs[i];
      CHECK(a.tag == b.tag);
      CHECK(a.file_name == b.file_name);
      CHECK(a.base == b.base);
      CHECK(a.text_address == b.text_address);
      CHECK(a.text_size == b.text_size);
      CHECK(a.entry_pc == b.entry_pc);
      CHECK(a.code.read_all() == b.code.read_all());
      CHECK(a.code.path() == path);  // a range of the .rgp, not a copy
      // tinygrad's own ELF packer writes no symbols, and rgptool no PSO name: "k<tag>" then.
      if (a.name == b.name)
        ++named;
      else
        CHECK(a.name == "k" + std::to_string(a.tag));
      ++programs;
    }
    REQUIRE(c.blobs.size() == f.blobs.size());
    for (std::size_t i = 0; i < c.blobs.size(); ++i) {
      const auto &a = c.blobs[i], &b = f.blobs[i];
      CHECK(a.file_name == b.file_name);
      CHECK(a.se == b.se);
      CHECK(a.kernel_tag == b.kernel_tag);
      CHECK(a.itrace == b.itrace);
      CHECK(a.size == b.size);
      CHECK(a.bytes.path() == path);
      CHECK(a.bytes.read_all() == b.bytes.read_all());
      ++blobs;
    }
    std::size_t ours = 0, theirs = 0;
    auto wa = waves_of(c, ours), wb = waves_of(f, theirs);
    // Program names aside (see above), the analyses are the same line for line.
    for (std::size_t i = 0; i < c.blobs.size(); ++i) {
      const auto &from = c.blobs[i].program, &to = f.blobs[i].program;
      for (auto &line : wa)
        if (auto at = line.find(" " + from + " se "); at != std::string::npos)
          line.replace(at + 1, from.size(), to);
    }
    CHECK(wa == wb);
    CHECK(ours == theirs);
    instructions += ours;
    waves += wa.size() - c.blobs.size();
    ++files;
  }
  CHECK(files == 9);
  CHECK(programs == 11);
  CHECK(named == 8);
  CHECK(blobs == 54);
  CHECK(waves > 0);
  CHECK(instructions > 0);
}

TEST_CASE("rgp: rgptool's merged SE blobs are cut into their dispatches at LAYOUT_HEADER lines") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "rgp/gfx1100_sync.rgp");
  const auto rgp = rgp::read_rgp(file);
  REQUIRE(rgp.traces.size() == 6);
  for (const auto &t : rgp.traces) {
    const auto starts = rgp::dispatch_starts(t.data);
    REQUIRE(starts.size() == 2);
    CHECK(starts[0] == 0);
    CHECK(starts[1] % 32 == 0);
  }
}

TEST_CASE("rgp: the chunk stream, and rgptool's unpadded code objects read with a note") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "rgp");
  {
    const auto f = rgp::read_rgp(root / "gfx1100_gemm.rgp");
    CHECK(f.version_major == 1);
    CHECK(f.version_minor == 5);
    REQUIRE(f.chunks.size() == 18);
    CHECK(rgp::chunk_type_name(f.chunks[0].type) == "CPU_INFO");
    CHECK(rgp::chunk_type_name(f.chunks[1].type) == "ASIC_INFO");
    CHECK(f.chunks[1].minor == 5);
    CHECK(f.asic->device_id == 0x744c);
    CHECK(f.asic->shader_engines == 6);
    CHECK(f.api->instruction_trace_mode == 1);
    CHECK(f.code_objects.size() == 1);
    CHECK(f.loader_events.size() == 1);
    CHECK(f.notes.empty());
  }
  {
    // Code object 0 (1367 bytes) is declared as 1368: the next record starts a byte early.
    const auto f = rgp::read_rgp(root / "gfx1100_sync.rgp");
    REQUIRE(f.code_objects.size() == 2);
    CHECK(f.code_objects[0].elf.size() == 1367);
    CHECK(f.code_objects[1].elf.size() == 4176);
    REQUIRE(f.notes.size() == 1);
    CHECK_THAT(f.notes[0], Catch::Contains("declares 1368 bytes but 1367 were written"));
    CHECK(f.chunks.back().offset + f.chunks.back().size == f.bytes.size());
    CHECK(f.loader_events.size() == 2);
  }
}

TEST_CASE("rgp: chunks of other minor versions and sizes, and unknown chunks, are tolerated") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "rgp/gfx1100_gemm.rgp");
  const auto bytes = testing::read_file(file);
  auto put32 = [](std::vector<unsigned char> &b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<unsigned char>(v >> (8 * i));
  };
  // An older, shorter ASIC_INFO (minor 4, without the last 20 bytes: GL1..MALL sizes), a newer
  // API_INFO (minor 9, 8 bytes longer), and a chunk of a type no writer we know uses.
  constexpr std::size_t asic = 168, api = 936, api_size = 560, first_sqtt = 1496;
  std::vector<unsigned char> skewed(bytes.begin(), bytes.begin() + asic + 748);
  put32(skewed, asic + 8, 748);
  skewed[asic + 4] = 4;
  skewed.insert(skewed.end(), bytes.begin() + api, bytes.begin() + api + api_size);
  const auto api_at = skewed.size() - api_size;
  put32(skewed, api_at + 8, api_size + 8);
  skewed[api_at + 4] = 9;
  skewed.insert(skewed.end(), 8, 0xee);
  std::vector<unsigned char> unknown(24, 0);
  unknown[0] = 200;
  unknown[8] = 24;
  skewed.insert(skewed.end(), unknown.begin(), unknown.end());
  skewed.insert(skewed.end(), bytes.begin() + first_sqtt, bytes.end());
  const auto f = rgp::read_rgp(ByteSource::owned({skewed.begin(), skewed.end()}), "skewed");
  CHECK(f.chunks[1].minor == 4);
  CHECK(f.asic->device_id == 0x744c);
  CHECK(f.asic->shader_engines == 6);
  CHECK(f.asic->gl1_cache_size == 0);  // past the shorter chunk
  CHECK(f.api->instruction_trace_mode == 1);
  CHECK(rgp::chunk_type_name(f.chunks[3].type) == "UNKNOWN");
  // Notes: the unknown chunk, and SQTT_DATA offsets that now point 12 bytes early.
  REQUIRE(f.notes.size() == 1 + 6);
  CHECK_THAT(f.notes[0], Catch::Contains("skipped a chunk of unknown type 200"));
  WAVESCOPE_REQUIRE_TESTDATA(folder, "sqtt/gfx1100/gemm");
  const auto a = rgp::capture_of(f);
  const auto b = Capture::open_folder(folder);
  REQUIRE(a.blobs.size() == b.blobs.size());
  for (std::size_t i = 0; i < a.blobs.size(); ++i)
    CHECK(a.blobs[i].bytes.read_all() == b.blobs[i].bytes.read_all());
  std::size_t x = 0, y = 0;
  CHECK(waves_of(a, x) == waves_of(b, y));
  CHECK(x == y);
}

TEST_CASE("rgp: truncated, corrupt and wrong-kind files are refused naming file and byte") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "rgp/gfx1100_plus.rgp");
  WAVESCOPE_REQUIRE_TESTDATA(pickle, "tinygrad-viz/amd-sqtt/gfx1100_plus.pkl");
  const testing::TempDir temp;
  const auto bytes = testing::read_file(file);

  const auto truncated = temp.path / "truncated.rgp";
  write(truncated, {bytes.begin(), bytes.begin() + 20000});
  CHECK_THAT(error_of(truncated), Catch::StartsWith(truncated.string() + ": byte 15688: ") &&
                                      Catch::Contains("runs past the end of the file"));

  const auto header_only = temp.path / "header.rgp";
  write(header_only, {bytes.begin(), bytes.begin() + 40});
  CHECK_THAT(error_of(header_only), Catch::StartsWith(header_only.string() + ": byte 0: ") &&
                                        Catch::Contains("shorter than the 56-byte file header"));

  auto corrupt = bytes;
  corrupt[1496 + 8] = 4;  // SQTT_DESC 0 declares 4 bytes
  corrupt[1496 + 9] = corrupt[1496 + 10] = corrupt[1496 + 11] = 0;
  const auto bad_size = temp.path / "bad_size.rgp";
  write(bad_size, corrupt);
  CHECK_THAT(error_of(bad_size), Catch::StartsWith(bad_size.string() + ": byte 1504: ") &&
                                     Catch::Contains("less than its own header"));

  auto magic = bytes;
  magic[0] ^= 0xff;
  const auto bad_magic = temp.path / "bad_magic.rgp";
  write(bad_magic, magic);
  CHECK_THAT(error_of(bad_magic), Catch::Contains("not a capture"));
  CHECK_THROWS_WITH(rgp::read_rgp(bad_magic), Catch::Contains(": byte 0: not an .rgp file"));
  CHECK_THROWS_WITH(rgp::read_rgp(pickle), Catch::StartsWith(pickle.string() + ": byte 0: "));
}

TEST_CASE("rgp: random corruption of real files is read or refused as bad input, never more") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "rgp");
  std::mt19937 random(20261202);
  std::size_t read = 0, refused = 0;
  for (const std::string name : kRgpFiles) {
    const auto bytes = testing::read_file(root / (name + ".rgp"));
    for (int round = 0; round < 60; ++round) {
      auto copy = bytes;
      const int edits = 1 + static_cast<int>(random() % 8);
      for (int e = 0; e < edits; ++e) {
        // Mostly the headers, where the structure is.
        const auto at = random() % 2 ? random() % std::min<std::size_t>(copy.size(), 2048)
                                     : random() % copy.size();
        copy[at] = static_cast<unsigned char>(random());
      }
      if (round % 10 == 0) copy.resize(random() % copy.size());
      try {
        const auto f = rgp::read_rgp(ByteSource::owned({copy.begin(), copy.end()}), name);
        (void)rgp::capture_of(f);
        ++read;
      } catch (const Error &e) {
        CHECK(e.kind() == ErrorKind::BadInput);
        CHECK_THAT(e.what(), Catch::StartsWith(name + ": "));
        ++refused;
      }
    }
  }
  CHECK(read + refused == 9 * 60);
  CHECK(refused > 0);
}
