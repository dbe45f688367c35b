// Writing captures as .rgp: reading the export back gives the same capture (from capture folders,
// tinygrad pickles and rgptool's own files), and the export differs from rgptool's file for the
// same capture only where docs/rgp.md says it does.

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "corpus_names.hpp"
#include "sqtt_support/analysis.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/rgp/rgp_file.hpp"
#include "wavescope/trace/rgp/rgp_writer.hpp"

using wavescope::testing::folder_of;
using wavescope::testing::kRgpFiles;

using namespace wavescope;
using namespace wavescope::trace;

namespace {

std::vector<std::string> analysis_of(const Capture &c) {
  std::vector<std::string> lines;
  timeline::CaptureAnalyzer analyzer(c);
  for (const auto &b : c.blobs) {
    const auto a = testing::sqtt::analyze_blob(analyzer, b);
    std::string line = b.file_name + " " + b.program + " " + std::to_string(a.waves.size());
    for (const auto &w : a.waves) {
      line += " " + std::to_string(w.wave.start) + ".." + std::to_string(w.wave.end);
      for (const auto &i : w.instructions)
        line += " " + std::to_string(i.pc) + "@" + std::to_string(i.time);
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

// The same capture: device, programs (names too: the export carries them), blobs, analysis.
void check_same_capture(const Capture &a, const Capture &b) {
  CHECK(a.device.processor == b.device.processor);
  CHECK(a.device.gfx_target_version == b.device.gfx_target_version);
  CHECK(a.device.shader_engines() == b.device.shader_engines());
  CHECK(a.device.simd_count == b.device.simd_count);
  CHECK(a.device.max_waves_per_simd == b.device.max_waves_per_simd);
  CHECK(a.device.lds_size_kb == b.device.lds_size_kb);
  REQUIRE(a.programs.size() == b.programs.size());
  for (std::size_t i = 0; i < a.programs.size(); ++i) {
    const auto &x = a.programs[i], &y = b.programs[i];
    CHECK(x.tag == y.tag);
    CHECK(x.name == y.name);
    CHECK(x.file_name == y.file_name);
    CHECK(x.base == y.base);
    CHECK(x.text_address == y.text_address);
    CHECK(x.entry_pc == y.entry_pc);
    CHECK(x.code.read_all() == y.code.read_all());
    REQUIRE(x.exec_ranges.size() == y.exec_ranges.size());
    for (std::size_t r = 0; r < x.exec_ranges.size(); ++r) {
      CHECK(x.exec_ranges[r].start_us == Approx(y.exec_ranges[r].start_us).margin(1e-3));
      CHECK(x.exec_ranges[r].end_us == Approx(y.exec_ranges[r].end_us).margin(1e-3));
    }
  }
  REQUIRE(a.blobs.size() == b.blobs.size());
  for (std::size_t i = 0; i < a.blobs.size(); ++i) {
    CHECK(a.blobs[i].file_name == b.blobs[i].file_name);
    CHECK(a.blobs[i].se == b.blobs[i].se);
    CHECK(a.blobs[i].kernel_tag == b.blobs[i].kernel_tag);
    CHECK(a.blobs[i].program == b.blobs[i].program);
    CHECK(a.blobs[i].itrace == b.blobs[i].itrace);
    CHECK(a.blobs[i].bytes.read_all() == b.blobs[i].bytes.read_all());
  }
  CHECK(analysis_of(a) == analysis_of(b));
}

}  // namespace

TEST_CASE("rgp export: reading the export back gives the same capture, from every source") {
  WAVESCOPE_REQUIRE_TESTDATA(folders, "sqtt");
  WAVESCOPE_REQUIRE_TESTDATA(pickles, "tinygrad-viz/amd-sqtt");
  WAVESCOPE_REQUIRE_TESTDATA(rgps, "rgp");
  const testing::TempDir temp;
  std::size_t round_trips = 0;
  for (const std::string name : kRgpFiles) {
    for (const auto &source :
         {folders / folder_of(name), pickles / (name + ".pkl"), rgps / (name + ".rgp")}) {
      INFO(source.string());
      const auto original = Capture::open(source);
      const auto out = temp.path / (name + ".rgp");
      const auto stats = rgp::write_rgp(original, out);
      CHECK(stats.bytes == std::filesystem::file_size(out));
      const auto back = Capture::open(out);
      // Dispatch times too (rgptool's files record none, so neither does their export).
      check_same_capture(back, original);
      ++round_trips;
    }
  }
  CHECK(round_trips == 9 * 3);
}

TEST_CASE("rgp export: chunk by chunk against rgptool's file for the same capture") {
  WAVESCOPE_REQUIRE_TESTDATA(folders, "sqtt");
  WAVESCOPE_REQUIRE_TESTDATA(rgps, "rgp");
  std::size_t compared = 0;
  for (const std::string name : kRgpFiles) {
    INFO(name);
    const auto ours = rgp::read_rgp(
        ByteSource::owned(rgp::rgp_bytes(Capture::open(folders / folder_of(name)))), name);
    const auto theirs = rgp::read_rgp(rgps / (name + ".rgp"));
    CHECK(ours.notes.empty());
    // The same chunks in the same order, then our dispatch timing.
    std::vector<std::string> a, b;
    for (const auto &c : ours.chunks)
      a.push_back(
          fmt::format("{} {} {}.{}", rgp::chunk_type_name(c.type), c.index, c.major, c.minor));
    for (const auto &c : theirs.chunks)
      b.push_back(
          fmt::format("{} {} {}.{}", rgp::chunk_type_name(c.type), c.index, c.major, c.minor));
    b.push_back("QUEUE_EVENT_TIMINGS 0 1.1");
    b.push_back("CLOCK_CALIBRATION 0 0.0");
    CHECK(a == b);
    CHECK(ours.version_major == theirs.version_major);
    CHECK(ours.version_minor == theirs.version_minor);
    // ASIC_INFO: the device facts agree where rgptool takes them from the device.
    const auto &x = *ours.asic, &y = *theirs.asic;
    CHECK(x.device_id == y.device_id);
    CHECK(x.shader_engines == y.shader_engines);
    CHECK(x.cus_per_shader_engine == y.cus_per_shader_engine);
    CHECK(x.simds_per_cu == y.simds_per_cu);
    CHECK(x.waves_per_simd == y.waves_per_simd);
    CHECK(x.lds_size == y.lds_size);
    CHECK(x.gpu_timestamp_frequency == y.gpu_timestamp_frequency);
    const bool rdna4 = name.starts_with("gfx1200");
    // Listed differences: rgptool writes a 7900 XTX's name, level and SE mask for every device.
    CHECK(x.gpu_name == (rdna4 ? "NAVI48" : "NAVI31"));
    CHECK(y.gpu_name == "NAVI31");
    CHECK(x.gfxip_level == y.gfxip_level);
    for (unsigned se = 0; se < 32; ++se) {
      const bool used = se < static_cast<unsigned>(x.shader_engines);
      CHECK(x.cu_mask[se][0] == (used ? 0xff : 0));
    }
    // API_INFO: instruction tracing and its SE filter agree.
    CHECK(ours.api->instruction_trace_mode == theirs.api->instruction_trace_mode);
    CHECK(ours.api->instruction_trace_data == theirs.api->instruction_trace_data);
    // SQTT: the same SEs, versions (3.3 on gfx12) and bytes.
    REQUIRE(ours.traces.size() == theirs.traces.size());
    for (std::size_t i = 0; i < ours.traces.size(); ++i) {
      CHECK(ours.traces[i].shader_engine == theirs.traces[i].shader_engine);
      CHECK(ours.traces[i].sqtt_version == (rdna4 ? 0xcu : 0xbu));
      CHECK(ours.traces[i].sqtt_version == theirs.traces[i].sqtt_version);
      CHECK(ours.traces[i].data.read_all() == theirs.traces[i].data.read_all());
    }
    // Code objects, loads and PSO hashes are the same; our PSO records name the kernels.
    REQUIRE(ours.code_objects.size() == theirs.code_objects.size());
    for (std::size_t i = 0; i < ours.code_objects.size(); ++i)
      CHECK(ours.code_objects[i].elf.read_all() == theirs.code_objects[i].elf.read_all());
    REQUIRE(ours.loader_events.size() == theirs.loader_events.size());
    for (std::size_t i = 0; i < ours.loader_events.size(); ++i) {
      CHECK(ours.loader_events[i].base_address == theirs.loader_events[i].base_address);
      CHECK(ours.loader_events[i].code_object_hash == theirs.loader_events[i].code_object_hash);
    }
    REQUIRE(ours.pso_correlations.size() == theirs.pso_correlations.size());
    for (std::size_t i = 0; i < ours.pso_correlations.size(); ++i) {
      CHECK(ours.pso_correlations[i].pipeline_hash == theirs.pso_correlations[i].pipeline_hash);
      CHECK(!ours.pso_correlations[i].name.empty());
      CHECK(theirs.pso_correlations[i].name.empty());
    }
    CHECK(ours.queue_events.size() == ours.loader_events.size());
    ++compared;
  }
  CHECK(compared == 9);
}

TEST_CASE("rgp export: a CDNA capture is refused, and nothing is written") {
  WAVESCOPE_REQUIRE_TESTDATA(folder, "sqtt/gfx950/plus");
  const testing::TempDir temp;
  const auto out = temp.path / "out.rgp";
  CHECK_THROWS_WITH(rgp::write_rgp(Capture::open(folder), out),
                    Catch::Contains("RGP cannot show a gfx950 capture (CDNA)"));
  CHECK(!std::filesystem::exists(out));
  CHECK(std::filesystem::is_empty(temp.path));
}
