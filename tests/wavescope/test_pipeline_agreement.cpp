// One analysis pipeline: every corpus capture opened as the app opens it and as `wavectl sqtt
// insts` reads it gives the same per-PC statistics (PCs, hits, issue gaps, stall, latency,
// execution and barrier cycles) and the same totals, CDNA included.

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "capture_fixtures.hpp"
#include "gui_test_app.hpp"
#include "testdata.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/timeline/instruction_stats.hpp"

using namespace wavescope;
using trace::timeline::PcStat;

namespace {

// Every folder of sqtt/<arch>/<example>, whether or not it looks like a capture: a folder the
// pipelines cannot open must fail the test, not drop out of it.
std::vector<std::filesystem::path> capture_folders() {
  std::vector<std::filesystem::path> dirs;
  const auto root = testing::testdata_root() / "sqtt";
  if (!std::filesystem::is_directory(root)) return dirs;
  for (const auto &arch : std::filesystem::directory_iterator(root))
    if (arch.is_directory())
      for (const auto &example : std::filesystem::directory_iterator(arch.path()))
        if (example.is_directory()) dirs.push_back(example.path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

void check_same_row(const PcStat &app, const PcStat &cli) {
  INFO("pc " << std::hex << cli.pc);
  CHECK(app.pc == cli.pc);
  // Each side has its own program maps: compare what the pointers name.
  REQUIRE((app.instruction != nullptr) == (cli.instruction != nullptr));
  if (cli.instruction) CHECK(app.instruction->text == cli.instruction->text);
  CHECK(app.hits == cli.hits);
  CHECK(app.gap_total == cli.gap_total);
  CHECK(app.gap_min == cli.gap_min);
  CHECK(app.gap_max == cli.gap_max);
  CHECK(app.exec_cycles == cli.exec_cycles);
  CHECK(app.exec_events == cli.exec_events);
  CHECK(app.barrier_wait == cli.barrier_wait);
  CHECK(app.timed == cli.timed);
  CHECK(app.stall_total == cli.stall_total);
  CHECK(app.latency_total == cli.latency_total);
}

}  // namespace

TEST_CASE("the app's capture loading and wavectl's library call give the same per-PC statistics") {
  testing::gui_app();
  const auto folders = capture_folders();
  if (folders.empty() && testing::running_in_ci()) FAIL("SQTT corpus missing under CI");
  if (folders.empty()) {
    WARN("skipped: SQTT corpus not found (set WAVESCOPE_TESTDATA)");
    return;
  }
  std::size_t captures_seen = 0, cdna_kernels_with_rows = 0;
  for (const auto &dir : folders) {
    INFO(dir.string());
    const auto doc = testing::open_corpus_capture(dir);
    const auto capture = trace::Capture::open(dir);
    const auto cli = trace::timeline::collect_instruction_stats(capture, "");
    REQUIRE(doc);
    std::map<std::uint32_t, const trace::timeline::KernelInstructionStats *> cli_by_tag;
    for (const auto &k : cli.kernels) cli_by_tag[k.tag] = &k;

    std::uint64_t app_hits = 0, cli_hits = 0;
    std::int64_t app_gap = 0, cli_gap = 0;
    for (int k = 0; k < doc->kernel_count(); ++k) {
      const auto &dispatch = *doc->dispatch(k);
      INFO("kernel " << dispatch.program->name);
      const auto app_rows = dispatch.stats->rows();
      app_hits += dispatch.stats->total_hits();
      app_gap += dispatch.stats->total_gap();
      const auto it = cli_by_tag.find(dispatch.program->tag);
      if (it == cli_by_tag.end()) {  // a program without blobs
        CHECK(app_rows.empty());
        continue;
      }
      const auto &cli_stats = *it->second->stats;
      CHECK(dispatch.stats->total_hits() == cli_stats.total_hits());
      CHECK(dispatch.stats->total_gap() == cli_stats.total_gap());
      const auto cli_rows = cli_stats.rows();
      REQUIRE(app_rows.size() == cli_rows.size());
      for (std::size_t r = 0; r < cli_rows.size(); ++r) check_same_row(app_rows[r], cli_rows[r]);
      if (cli.cdna && !cli_rows.empty()) ++cdna_kernels_with_rows;
    }
    for (const auto &k : cli.kernels) {
      cli_hits += k.stats->total_hits();
      cli_gap += k.stats->total_gap();
    }
    CHECK(app_hits == cli_hits);
    CHECK(app_gap == cli_gap);
    ++captures_seen;
  }
  CHECK(captures_seen > 0);
  CHECK(captures_seen == folders.size());
  // The CDNA mapping is part of both: gfx950 gemm and plus map instructions.
  if (std::any_of(folders.begin(), folders.end(),
                  [](const auto &d) { return d.parent_path().filename() == "gfx950"; }))
    CHECK(cdna_kernels_with_rows >= 1);
}
