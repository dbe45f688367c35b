// BlobAnalyzer's consumers: the ones named in AnalysisSinks are called directly, and with none
// that takes events the analyzer builds none (the counts of `sqtt stats`). Over every corpus
// blob, both ways give what the generic observer path (ObserverFanout) gives: the same counts
// and anomalies, the same per-PC statistics, wave traces and timeline.

#include <algorithm>
#include <memory>

#include <catch2/catch.hpp>

#include "sqtt_support/corpus.hpp"
#include "wavescope/trace/sqtt/blob_file.hpp"
#include "wavescope/trace/timeline/blob_analyzer.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/pc_stats.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"
#include "wavescope/trace/timeline/wave_trace.hpp"

using namespace wavescope::trace::timeline;
using wavescope::testing::sqtt::corpus_captures;

namespace {

void check_same_anomalies(const AnalysisAnomalies &a, const AnalysisAnomalies &b) {
  CHECK(a.wave_end_without_start == b.wave_end_without_start);
  CHECK(a.wave_start_on_busy_slot == b.wave_start_on_busy_slot);
  CHECK(a.waves_without_end == b.waves_without_end);
  CHECK(a.instructions_without_wave == b.instructions_without_wave);
  CHECK(a.pc_outside_text == b.pc_outside_text);
  CHECK(a.branch_without_jump == b.branch_without_jump);
  CHECK(a.exec_without_dispatch == b.exec_without_dispatch);
  CHECK(a.dropped_dispatches == b.dropped_dispatches);
  CHECK(a.marker_pairs_without_progress == b.marker_pairs_without_progress);
}

void check_same_stats(const PcStatsAccumulator &a, const PcStatsAccumulator &b) {
  const auto ra = a.rows(), rb = b.rows();
  REQUIRE(ra.size() == rb.size());
  for (std::size_t i = 0; i < ra.size(); ++i) {
    CHECK(ra[i].pc == rb[i].pc);
    CHECK(ra[i].hits == rb[i].hits);
    CHECK(ra[i].gap_total == rb[i].gap_total);
    CHECK(ra[i].exec_cycles == rb[i].exec_cycles);
    CHECK(ra[i].barrier_wait == rb[i].barrier_wait);
    CHECK(ra[i].stall_total == rb[i].stall_total);
    CHECK(ra[i].latency_total == rb[i].latency_total);
  }
  CHECK(a.total_gap() == b.total_gap());
}

void check_same_traces(const std::vector<WaveTrace> &a, const std::vector<WaveTrace> &b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].wave.start == b[i].wave.start);
    CHECK(a[i].wave.end == b[i].wave.end);
    CHECK(a[i].mapped == b[i].mapped);
    CHECK(a[i].states.size() == b[i].states.size());
    REQUIRE(a[i].instructions.size() == b[i].instructions.size());
    for (std::size_t k = 0; k < a[i].instructions.size(); ++k) {
      const auto &x = a[i].instructions[k], &y = b[i].instructions[k];
      CHECK(x.pc == y.pc);
      CHECK(x.time == y.time);
      CHECK(x.name == y.name);
      CHECK(x.stall == y.stall);
      CHECK(x.duration == y.duration);
      CHECK(x.bar_end == y.bar_end);
      CHECK(x.exec_count == y.exec_count);
      const auto ex = a[i].exec(x), ey = b[i].exec(y);
      CHECK(std::equal(
          ex.begin(), ex.end(), ey.begin(), ey.end(), [](const ExecSpan &p, const ExecSpan &q) {
            return p.row == q.row && p.name == q.name && p.start == q.start && p.end == q.end;
          }));
    }
  }
}

void check_same_timeline(const SeTimeline &a, const SeTimeline &b) {
  REQUIRE(a.rows.size() == b.rows.size());
  for (std::size_t r = 0; r < a.rows.size(); ++r) {
    CHECK(a.rows[r].name == b.rows[r].name);
    REQUIRE(a.rows[r].events.size() == b.rows[r].events.size());
    for (std::size_t e = 0; e < a.rows[r].events.size(); ++e) {
      CHECK(a.rows[r].events[e].start == b.rows[r].events[e].start);
      CHECK(a.rows[r].events[e].end == b.rows[r].events[e].end);
      CHECK(a.rows[r].events[e].category == b.rows[r].events[e].category);
      CHECK(a.rows[r].events[e].link_row == b.rows[r].events[e].link_row);
    }
    CHECK(a.rows[r].states.size() == b.rows[r].states.size());
  }
  CHECK(a.clock.size() == b.clock.size());
  CHECK(a.waves.size() == b.waves.size());
}

}  // namespace

TEST_CASE("AnalysisSinks give what the observer fan-out gives, and counts need no consumer") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t blobs = 0, with_mapped = 0;
  for (const auto &c : corpus_captures()) {
    CaptureAnalyzer analyzer(c.capture);
    for (const auto &blob : c.capture.blobs) {
      INFO(c.dir.string() << " " << blob.file_name);
      const ProgramMap &program = analyzer.program(blob.kernel_tag);

      // Counts only: no consumer at all.
      const auto counts = analyzer.analyze(blob, AnalysisSinks{}, {});

      // Every consumer through the generic path.
      WaveCounter counter;
      PcStatsAccumulator stats_a(program);
      WaveTraceCollector traces_a;
      TimelineBuilder timeline_a(blob.se, blob.file_name);
      ClockSummary clock_a;
      ObserverFanout fanout({&counter, &stats_a, &traces_a, &timeline_a, &clock_a});
      const auto generic = analyzer.analyze(blob, fanout);

      // The same consumers named in AnalysisSinks.
      PcStatsAccumulator stats_b(program);
      WaveTraceCollector traces_b;
      TimelineBuilder timeline_b(blob.se, blob.file_name);
      ClockSummary clock_b;
      AnalysisSinks sinks;
      sinks.pc_stats = &stats_b;
      sinks.waves = &traces_b;
      sinks.timeline = &timeline_b;
      sinks.clock = &clock_b;
      const auto direct = analyzer.analyze(blob, sinks, {});

      for (const auto *r : {&counts, &direct}) {
        CHECK(r->waves == generic.waves);
        CHECK(r->traced_waves == generic.traced_waves);
        CHECK(r->mapped_instructions == generic.mapped_instructions);
        check_same_anomalies(r->anomalies, generic.anomalies);
      }
      CHECK(generic.waves == counter.waves);
      CHECK(generic.traced_waves == counter.traced_waves);
      CHECK(generic.mapped_instructions == counter.mapped_instructions);
      check_same_stats(stats_a, stats_b);
      check_same_traces(traces_a.take(), traces_b.take());
      check_same_timeline(timeline_a.finish(), timeline_b.finish());
      CHECK(clock_a.points() == clock_b.points());
      CHECK(clock_a.median_hz() == clock_b.median_hz());
      ++blobs;
      with_mapped += counter.mapped_instructions > 0;
    }
  }
  CHECK(blobs == 150);
  CHECK(with_mapped > 0);
}

TEST_CASE("BlobAnalyzer::decode gives what the decoder's per-packet path gives") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t blobs = 0, mapped = 0;
  for (const auto &c : corpus_captures()) {
    CaptureAnalyzer capture_analyzer(c.capture);
    for (const auto &blob : c.capture.blobs) {
      INFO(c.dir.string() << " " << blob.file_name);
      const ProgramMap &program = capture_analyzer.program(blob.kernel_tag);
      const auto bytes = wavescope::testing::sqtt::blob_bytes(blob.bytes);
      struct Run {
        Run(const ProgramMap &program, unsigned se, const std::string &name)
            : stats(program), timeline(se, name) {}
        PcStatsAccumulator stats;
        WaveTraceCollector traces;
        TimelineBuilder timeline;
        ClockSummary clock;
        wavescope::trace::sqtt::DecodeSummary summary;
        std::uint64_t waves = 0, traced = 0, mapped = 0;
        AnalysisAnomalies anomalies;
      };
      // 0: one packet at a time; 1: decode(), in memory; 2: decode() from a BlobFile.
      std::vector<std::unique_ptr<Run>> runs;
      for (int way = 0; way < 3; ++way) {
        auto run = std::make_unique<Run>(program, blob.se, blob.file_name);
        AnalysisSinks sinks;
        sinks.pc_stats = &run->stats;
        sinks.waves = &run->traces;
        sinks.timeline = &run->timeline;
        sinks.clock = &run->clock;
        BlobAnalyzer analyzer(&program, blob.se, sinks);
        wavescope::trace::sqtt::PacketDecoder decoder;
        if (way == 0)
          run->summary = decoder.decode(
              bytes, [&](const wavescope::trace::sqtt::Packet &p) { analyzer.on_packet(p); });
        else if (way == 1)
          run->summary = analyzer.decode(bytes);
        else
          run->summary = analyzer.decode(
              wavescope::trace::sqtt::BlobFile(wavescope::ByteSource::owned(bytes)), {});
        analyzer.finish();
        run->waves = analyzer.waves();
        run->traced = analyzer.traced_waves();
        run->mapped = analyzer.mapped_instructions();
        run->anomalies = analyzer.anomalies();
        runs.push_back(std::move(run));
      }
      const Run &a = *runs[0];
      for (std::size_t k = 1; k < runs.size(); ++k) {
        INFO("way " << k);
        Run &b = *runs[k];
        CHECK(b.summary.packets == a.summary.packets);
        CHECK(b.summary.decoded_nibbles == a.summary.decoded_nibbles);
        CHECK(b.summary.last_time == a.summary.last_time);
        CHECK(b.waves == a.waves);
        CHECK(b.traced == a.traced);
        CHECK(b.mapped == a.mapped);
        check_same_anomalies(b.anomalies, a.anomalies);
        check_same_stats(b.stats, a.stats);
        CHECK(b.clock.points() == a.clock.points());
      }
      // The traces and timeline are taken once each.
      const auto traces0 = runs[0]->traces.take();
      const auto timeline0 = runs[0]->timeline.finish();
      for (std::size_t k = 1; k < runs.size(); ++k) {
        INFO("way " << k);
        check_same_traces(runs[k]->traces.take(), traces0);
        check_same_timeline(runs[k]->timeline.finish(), timeline0);
      }
      ++blobs;
      mapped += a.mapped;
    }
  }
  CHECK(blobs == 150);
  CHECK(mapped > 0);
}
