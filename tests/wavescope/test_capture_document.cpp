// Every capture folder of the corpus opened as the app opens it: the document and the models
// built on it against meta.json and against an independent pass of libtrace.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QJsonArray>

#include <set>

#include "app/selection.hpp"
#include "capture_fixtures.hpp"
#include "gui_test_app.hpp"
#include "models/instruction_timing_model.hpp"
#include "models/navigator_model.hpp"
#include "models/wave_timeline_model.hpp"
#include "testdata.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"

using namespace wavescope::gui;
using wavescope::testing::engine_of_blob;
using wavescope::testing::open_corpus_capture;
using wavescope::testing::read_meta;
using wavescope::testing::sqtt_capture_dirs;

namespace {

std::vector<std::filesystem::path> corpus_or_skip() {
  auto dirs = sqtt_capture_dirs();
  if (dirs.empty() && wavescope::testing::running_in_ci()) FAIL("SQTT corpus missing under CI");
  if (dirs.empty()) WARN("skipped: SQTT corpus not found (set WAVESCOPE_TESTDATA)");
  return dirs;
}

std::size_t timeline_events(const wavescope::trace::timeline::SeTimeline &tl) {
  std::size_t n = tl.clock.size();
  for (const auto &row : tl.rows) n += row.events.size();
  return n;
}

}  // namespace

TEST_CASE("every corpus capture opens with the programs, blobs and PMC events of its meta.json") {
  wavescope::testing::gui_app();
  for (const auto &dir : corpus_or_skip()) {
    INFO(dir.string());
    const auto doc = open_corpus_capture(dir);
    const QJsonObject meta = read_meta(dir);
    REQUIRE(doc->kernel_count() == meta["programs"].toArray().size());
    std::size_t engines = 0, samples = 0;
    for (int k = 0; k < doc->kernel_count(); ++k) {
      const auto &d = *doc->dispatch(k);
      engines += d.engines.size();
      samples += d.counters.size();
      CHECK(d.code.name ==
            meta["programs"].toArray()[k].toObject()["name"].toString().toStdString());
      CHECK(!d.code.instructions.empty());
      CHECK(!d.code.cfg.blocks.empty());
    }
    CHECK(engines == static_cast<std::size_t>(meta["sqtt"].toArray().size()));
    CHECK(samples == static_cast<std::size_t>(meta["pmc"].toArray().size()));
    CHECK(doc->notes.empty());
  }
}

TEST_CASE("wave counts, mapped instructions and timeline events equal meta.json per blob") {
  wavescope::testing::gui_app();
  std::size_t blobs = 0;
  for (const auto &dir : corpus_or_skip()) {
    const auto doc = open_corpus_capture(dir);
    for (const auto &value : read_meta(dir)["sqtt"].toArray()) {
      const QJsonObject entry = value.toObject();
      const auto blob = entry["file"].toString().toStdString();
      INFO(dir.string() << " " << blob);
      const ShaderEngineTrace *se = engine_of_blob(*doc, blob);
      REQUIRE(se);
      CHECK(se->timeline.waves.size() == static_cast<std::size_t>(entry["waves"].toInt()));
      CHECK(se->mapped_instructions ==
            static_cast<std::uint64_t>(entry["mapped_instructions"].toInt()));
      CHECK(timeline_events(se->timeline) ==
            static_cast<std::size_t>(entry["timeline_events"].toInt()));
      CHECK(se->report.decode.packets == static_cast<std::uint64_t>(entry["packets"].toInt()));
      CHECK(se->report.anomalies.total() == 0);
      ++blobs;
    }
  }
}

TEST_CASE("the timing table's totals equal libtrace's per-PC statistics for every kernel and SE") {
  wavescope::testing::gui_app();
  using namespace wavescope::trace;
  for (const auto &dir : corpus_or_skip()) {
    INFO(dir.string());
    const auto doc = open_corpus_capture(dir);
    // Another pass: every blob decoded again into one accumulator per program, as `wavectl sqtt
    // insts` asks for it (CDNA through CdnaMapper).
    const auto capture = Capture::open(dir);
    timeline::AnalysisRequest request;
    request.pc_stats = true;
    const auto analysis = timeline::analyze_capture(capture, request);
    const bool cdna = analysis.cdna;
    for (int k = 0; k < doc->kernel_count(); ++k) {
      const auto &dispatch = *doc->dispatch(k);
      REQUIRE(analysis.kernel(dispatch.program->tag));
      const auto &expected = *analysis.kernel(dispatch.program->tag)->pc_stats;

      Focus focus;
      focus.document = 0;
      focus.kernel = k;
      InstructionTimingModel model;
      QAbstractItemModelTester tester(&model,
                                      QAbstractItemModelTester::FailureReportingMode::Fatal);
      model.set_table(timing_table_for(*doc, focus), &dispatch.code);
      const auto &table = model.table();
      CHECK(table.total_gap == expected.total_gap());
      CHECK(table.total_hits == expected.total_hits());
      const auto rows = expected.rows();
      REQUIRE(model.rowCount() == static_cast<int>(rows.size()));
      double hits = 0, cost = 0;
      std::int64_t exec = 0;
      for (int r = 0; r < model.rowCount(); ++r) {
        const auto &want = rows[static_cast<std::size_t>(r)];
        CHECK(model.index(r, 0).data(InstructionTimingModel::AddressRole).toULongLong() == want.pc);
        hits += model.index(r, InstructionTimingModel::HitsColumn)
                    .data(InstructionTimingModel::SortRole)
                    .toDouble();
        cost += model.index(r, 0).data(InstructionTimingModel::CostShareRole).toDouble();
        exec += want.exec_cycles;
      }
      CHECK(hits == Approx(static_cast<double>(expected.total_hits())));
      CHECK(table.total_exec == exec);
      if (expected.total_gap()) CHECK(cost == Approx(1.0));

      // Per SE, and per wave: the waves of an SE add up to its table.
      std::uint64_t se_hits = 0;
      for (int s = 0; s < static_cast<int>(dispatch.engines.size()); ++s) {
        focus.shader_engine = s;
        focus.wave = -1;
        const TimingTable se_table = timing_table_for(*doc, focus);
        se_hits += se_table.total_hits;
        std::int64_t wave_gap = 0;
        std::uint64_t wave_hits = 0;
        const auto &waves = dispatch.engines[static_cast<std::size_t>(s)].timeline.waves;
        for (int w = 0; w < static_cast<int>(waves.size()); ++w) {
          focus.wave = w;
          const TimingTable wave_table = timing_table_for(*doc, focus);
          wave_gap += wave_table.total_gap;
          wave_hits += wave_table.total_hits;
        }
        // The waves carry RDNA instruction streams only (CDNA's walk feeds the statistics).
        if (!cdna) {
          CHECK(wave_gap == se_table.total_gap);
          CHECK(wave_hits == se_table.total_hits);
        }
      }
      CHECK(se_hits == expected.total_hits());
    }
  }
}

TEST_CASE("the ISA and CFG heat is each PC's share of the kernel's issue-gap cycles") {
  wavescope::testing::gui_app();
  std::size_t kernels_with_heat = 0;
  for (const auto &dir : corpus_or_skip()) {
    const auto doc = open_corpus_capture(dir);
    for (int k = 0; k < doc->kernel_count(); ++k) {
      const auto *heat = doc->pc_heat(k);
      if (!heat) continue;
      ++kernels_with_heat;
      double total = 0;
      for (const auto &[pc, share] : *heat) {
        total += share;
        const auto &insts = doc->kernel(k)->instructions;
        CHECK(std::any_of(insts.begin(), insts.end(),
                          [&](const auto &i) { return i.address == pc; }));
      }
      CHECK(total == Approx(1.0));
    }
  }
  // Every kernel whose traced waves issued instructions (CDNA through CdnaMapper).
  if (!sqtt_capture_dirs().empty()) CHECK(kernels_with_heat >= 8);
}

TEST_CASE("the wave timeline model has a track per row, one per CU/SIMD and a bar per event") {
  wavescope::testing::gui_app();
  for (const auto &dir : corpus_or_skip()) {
    const auto doc = open_corpus_capture(dir);
    for (int k = 0; k < doc->kernel_count(); ++k)
      for (const auto &se : doc->dispatch(k)->engines) {
        INFO(dir.string() << " " << se.blob->file_name);
        WaveTimelineModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.set_timeline(&se.timeline, &doc->dispatch(k)->code);
        const auto &tl = se.timeline;
        std::size_t rows = 0, groups = 0, sections = 0, clocks = 0, events = 0;
        for (int t = 0; t < model.rowCount(); ++t) {
          switch (model.track(t).kind) {
          case TrackKind::Clock: ++clocks; break;
          case TrackKind::Section: ++sections; break;
          case TrackKind::Occupancy: ++groups; break;
          default:
            ++rows;
            events += model.index(t).data(WaveTimelineModel::EventCountRole).toULongLong();
          }
        }
        CHECK(clocks == 1);
        CHECK(rows == tl.rows.size());
        std::set<std::pair<unsigned, unsigned>> simds;
        for (const auto &w : tl.waves) simds.insert({w.cu, w.simd});
        CHECK(groups == simds.size());
        CHECK(model.bar_count() == events + tl.waves.size());
        CHECK(model.total_height() ==
              model.track_top(model.rowCount() - 1) + model.track(model.rowCount() - 1).height);
        // Every wave has its occupancy bar, pointing back at it.
        for (int w = 0; w < static_cast<int>(tl.waves.size()); ++w) {
          const auto *bar = model.bar(model.wave_bar(w));
          REQUIRE(bar);
          CHECK(bar->wave == static_cast<std::uint32_t>(w));
        }
      }
  }
}

TEST_CASE("the navigator lists capture -> kernel -> SE -> wave with the matching focus") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/sync");
  const auto doc = open_corpus_capture(dir);
  NavigatorModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const QModelIndex root = model.add_document(*doc, 2);
  REQUIRE(model.rowCount(root) == 2);  // custom_lds_sync, E_32_4
  const QModelIndex kernel = model.index(0, 0, root);
  CHECK(kernel.data().toString().startsWith("custom_lds_sync"));
  REQUIRE(model.rowCount(kernel) == 6);
  const QModelIndex se1 = model.index(1, 0, kernel);
  CHECK(se1.data().toString().startsWith("SE 1"));
  CHECK(model.rowCount(se1) == static_cast<int>(doc->engine(0, 1)->timeline.waves.size()));
  const QModelIndex wave = model.index(0, 0, se1);
  const auto focus = wave.data(NavigatorModel::FocusRole).value<Focus>();
  CHECK(focus.document == 2);
  CHECK(focus.kernel == 0);
  CHECK(focus.shader_engine == 1);
  CHECK(focus.wave == 0);
  CHECK(model.index_of(focus) == wave);
}
