// tinygrad profile pickles through the profile model: VIZ's CLI events against cli.jsonl, the
// amd-sqtt pickles as captures against their capture folders, and refusals of bad files.

#include <catch2/catch.hpp>

#include <fstream>

#include <nlohmann/json.hpp>

#include "corpus_names.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/profile/open_profile.hpp"
#include "wavescope/trace/profile/profile_capture.hpp"
#include "wavescope/trace/profile/tinygrad_profile.hpp"
#include "wavescope/trace/profile/viz_cli_events.hpp"

using wavescope::testing::folder_of;
using wavescope::testing::kSqttPickles;

using namespace wavescope;
using namespace wavescope::trace;
using namespace wavescope::trace::profile;

namespace {

const char *const kWorkloads[] = {"matmul_relu_sum", "elementwise", "softmax"};
// "gfx1100_gemm" -> "gfx1100/gemm"
std::string error_of(const std::filesystem::path &file) {
  try {
    (void)open_profile(file);
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    return e.what();
  }
  FAIL("no error for " << file.string());
  return {};
}

}  // namespace

TEST_CASE("tinygrad profile: VIZ CLI events equal cli.jsonl on device, name, st_ms, dur_ms") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t compared = 0;
  for (const char *workload : kWorkloads) {
    INFO(workload);
    const auto events = viz_cli_events(read_tinygrad_profile(root / workload / "profile.pkl"));
    std::ifstream in(root / workload / "cli.jsonl");
    std::vector<nlohmann::json> expected;
    for (std::string line; std::getline(in, line);) expected.push_back(nlohmann::json::parse(line));
    REQUIRE(events.size() == expected.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      INFO("line " << i + 1);
      const auto &e = events[i];
      const auto &x = expected[i];
      CHECK(e.device == x["device"].get<std::string>());
      CHECK(e.name == x["name"].get<std::string>());
      CHECK(e.st_ms == Approx(x["st_ms"].get<double>()).margin(1e-6));
      CHECK(e.dur_ms.has_value() == x.contains("dur_ms"));
      if (e.dur_ms && x.contains("dur_ms"))
        CHECK(*e.dur_ms == Approx(x["dur_ms"].get<double>()).margin(1e-6));
      ++compared;
    }
  }
  CHECK(compared == 352 + 234 + 333);
}

TEST_CASE(
    "tinygrad profile: exact times differ from VIZ's packed ones by less than a microsecond") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/softmax/profile.pkl");
  const auto p = read_tinygrad_profile(file);
  const auto packed = viz_cli_events(p, VizTimes::Packed);
  const auto exact = viz_cli_events(p, VizTimes::Exact);
  REQUIRE(packed.size() == exact.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < packed.size(); ++i) {
    CHECK(exact[i].st_ms - packed[i].st_ms >= 0);
    CHECK(exact[i].st_ms - packed[i].st_ms < 1e-3);
    if (exact[i].st_ms != packed[i].st_ms) ++differ;
  }
  CHECK(differ > 0);
}

TEST_CASE("tinygrad profile: every amd-sqtt pickle opens as the capture of its capture folder") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz/amd-sqtt");
  WAVESCOPE_REQUIRE_TESTDATA(folders, "sqtt");
  std::size_t pickles = 0, blobs = 0, pmc = 0, programs = 0;
  for (const std::string name : kSqttPickles) {
    INFO(name);
    const auto c = Capture::open(root / (name + ".pkl"));
    const auto f = Capture::open_folder(folders / folder_of(name));
    CHECK(c.source == root / (name + ".pkl"));
    CHECK(c.device.gfx_target_version == f.device.gfx_target_version);
    CHECK(c.device.processor == f.device.processor);
    CHECK(c.device.num_xcc == f.device.num_xcc);
    CHECK(c.device.shader_engines() == f.device.shader_engines());
    CHECK(c.device.max_waves_per_simd == f.device.max_waves_per_simd);
    CHECK(c.device.lds_size_kb == f.device.lds_size_kb);
    REQUIRE(c.programs.size() == f.programs.size());
    for (std::size_t i = 0; i < c.programs.size(); ++i) {
      const auto &a = c.programs[i], &b = f.programs[i];
      CHECK(a.tag == b.tag);
      CHECK(a.name == b.name);
      CHECK(a.file_name == b.file_name);
      CHECK(a.base == b.base);
      CHECK(a.text_address == b.text_address);
      CHECK(a.text_size == b.text_size);
      CHECK(a.entry_pc == b.entry_pc);
      CHECK(a.code.read_all() == b.code.read_all());
      REQUIRE(a.exec_ranges.size() == b.exec_ranges.size());
      for (std::size_t r = 0; r < a.exec_ranges.size(); ++r) {
        CHECK(a.exec_ranges[r].start_us == Approx(b.exec_ranges[r].start_us).margin(1e-3));
        CHECK(a.exec_ranges[r].end_us == Approx(b.exec_ranges[r].end_us).margin(1e-3));
      }
      ++programs;
    }
    REQUIRE(c.blobs.size() == f.blobs.size());
    for (std::size_t i = 0; i < c.blobs.size(); ++i) {
      const auto &a = c.blobs[i], &b = f.blobs[i];
      CHECK(a.file_name == b.file_name);
      CHECK(a.order == b.order);
      CHECK(a.se == b.se);
      CHECK(a.kernel_tag == b.kernel_tag);
      CHECK(a.program == b.program);
      CHECK(a.itrace == b.itrace);
      CHECK(a.size == b.size);
      CHECK(a.synthetic_header == b.synthetic_header);
      CHECK(a.bytes.in_memory());  // a view of the mapped pickle
      CHECK(a.bytes.read_all() == b.bytes.read_all());
      ++blobs;
    }
    REQUIRE(c.pmc.size() == f.pmc.size());
    for (std::size_t i = 0; i < c.pmc.size(); ++i) {
      const auto &a = c.pmc[i], &b = f.pmc[i];
      CHECK(a.file_name == b.file_name);
      CHECK(a.kernel_tag == b.kernel_tag);
      CHECK(a.program == b.program);
      CHECK(a.size == b.size);
      CHECK(a.used_bytes == b.used_bytes);
      CHECK(a.bytes.read_all() == b.bytes.read_all());
      REQUIRE(a.schedule.size() == b.schedule.size());
      for (std::size_t k = 0; k < a.schedule.size(); ++k) {
        const auto &x = a.schedule[k], &y = b.schedule[k];
        CHECK(x.name == y.name);
        CHECK(x.block == y.block);
        CHECK(std::tie(x.xcc, x.inst, x.se, x.sa, x.wgp) ==
              std::tie(y.xcc, y.inst, y.se, y.sa, y.wgp));
        CHECK(x.offset == y.offset);
        CHECK(x.size == y.size);
        CHECK(x.sample_register == y.sample_register);
        CHECK(x.perf_sel == y.perf_sel);
      }
      ++pmc;
    }
    ++pickles;
  }
  CHECK(pickles == 12);
  CHECK(programs == 14);
  CHECK(blobs == 150);
  CHECK(pmc == 14);
}

TEST_CASE("tinygrad profile: devices, kernel spans, copies and memory of a real GPU profile") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/amd-sqtt/gfx1100_sync.pkl");
  const auto p = read_tinygrad_profile(file);
  CHECK(p.format == "tinygrad profile");
  REQUIRE(p.device("AMD"));
  CHECK(p.device("AMD")->gfx_target_version == 110000);
  CHECK(p.device("AMD")->clock_offset == 41'504'760'754'000);  // tdiff 41504760.754 us
  CHECK(p.device("AMD:SDMA:0")->clock_offset == 41'504'762'055'500);
  // Track order: host groups, then the device and its copy engine, memory last.
  std::vector<std::string> names;
  for (const auto &t : p.tracks) names.push_back(t.name);
  CHECK(names == std::vector<std::string>{"USER", "TINY", "AMD", "AMD:SDMA:0", "AMD Memory"});
  const auto *amd = p.track("AMD");
  REQUIRE(amd->spans.size() == 2);
  for (const auto &s : amd->spans) {
    REQUIRE(s.program >= 0);
    CHECK(p.programs[static_cast<std::size_t>(s.program)].name == p.str(s.name));
  }
  // The kernel ran 9.04 us (599648768122.02 .. 599648768131.06 on the device clock).
  CHECK(amd->spans[0].duration() == 9'040'000);
  // Copies carry the bytes they moved.
  const auto *sdma = p.track("AMD:SDMA:0");
  REQUIRE(!sdma->spans.empty());
  const auto *d = p.details(sdma->spans.front());
  REQUIRE(d);
  CHECK(d->bytes.value_or(0) > 0);
  // Memory: two 1024-float buffers, the peak is both.
  const auto *memory = p.track("AMD Memory");
  REQUIRE(memory->buffers.size() == 2);
  CHECK(memory->peak == 2 * 128 * 4.0);
  CHECK(p.memory_peak == memory->peak);
  for (const auto &b : memory->buffers) CHECK(b.freed >= b.allocated);
  CHECK(p.sqtt.size() == 12);
  CHECK(p.pmc.size() == 2);
  CHECK(p.programs.size() == 2);
}

TEST_CASE("tinygrad profile: buffer users come from the exec events, with argument and mode") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/matmul_relu_sum/profile.pkl");
  const auto p = read_tinygrad_profile(file);
  const auto *cpu = p.track("CPU Memory");
  REQUIRE(cpu);
  std::size_t users = 0;
  for (const auto &b : cpu->buffers)
    for (const auto &u : b.users) {
      // The user is an execution that lists this buffer as that argument, in that mode.
      const auto it = std::find_if(p.executions.begin(), p.executions.end(),
                                   [&](const Execution &x) { return x.run == u.exec; });
      REQUIRE(it != p.executions.end());
      REQUIRE(u.argument < it->buffers.size());
      CHECK(it->buffers[u.argument] == b.key);
      CHECK(it->modes[u.argument] == u.mode);
      CHECK(it->name == u.kernel);
      ++users;
    }
  CHECK(users > 0);
  // The peak is the largest running total.
  double largest = 0;
  for (const auto &s : cpu->usage) largest = std::max(largest, s.value);
  CHECK(cpu->peak == largest);
}

TEST_CASE("tinygrad profile: truncated, corrupt and wrong-kind files are refused naming the file") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/softmax/profile.pkl");
  const testing::TempDir temp;
  const auto bytes = testing::read_file(file);
  auto write = [&](const std::string &name, const std::vector<unsigned char> &data) {
    const auto path = temp.path / name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char *>(data.data()),
               static_cast<std::streamsize>(data.size()));
    return path;
  };
  const auto truncated = write("truncated.pkl", {bytes.begin(), bytes.begin() + 5000});
  CHECK_THAT(error_of(truncated), Catch::Contains(truncated.string()) && Catch::Contains("byte ") &&
                                      Catch::Contains("truncated"));
  auto corrupt_bytes = bytes;
  corrupt_bytes[12] = 0xff;  // the first opcode after PROTO and FRAME
  const auto corrupt = write("corrupt.pkl", corrupt_bytes);
  CHECK_THAT(error_of(corrupt), Catch::Contains("corrupt.pkl") && Catch::Contains("byte 12"));
  // A pickle of something else: a dict.
  const auto dict = write("dict.pkl", {0x80, 0x04, '}', '.'});
  CHECK_THAT(error_of(dict),
             Catch::Contains("a list of profile events") && Catch::Contains("Dict"));
  const auto text = write("notes.txt", {'h', 'e', 'l', 'l', 'o'});
  CHECK_THAT(error_of(text), Catch::Contains("not a profile"));
  // A profile without SQTT/PMC is not a capture.
  try {
    (void)Capture::open(file);
    FAIL("opened as a capture");
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    CHECK_THAT(std::string(e.what()), Catch::Contains("no SQTT or PMC events"));
  }
  CHECK_THROWS_WITH(Capture::open(text), Catch::Contains("not a capture"));
}
