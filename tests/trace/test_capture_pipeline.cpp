// analyze_capture, the one analysis of a capture: what a request selects and computes, that the
// parts it does not ask for stay empty, that per-kernel statistics merge the blobs', and that a
// CancelToken stops it with ErrorKind::Interrupted, over every corpus capture.

#include <catch2/catch.hpp>

#include <algorithm>

#include "sqtt_support/corpus.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/timeline/capture_pipeline.hpp"
#include "wavescope/trace/timeline/waves_report.hpp"

using namespace wavescope::trace::timeline;
using wavescope::testing::sqtt::corpus_captures;

TEST_CASE("analyze_capture computes the parts asked for, and only those") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t captures = 0, blobs = 0;
  for (const auto &c : corpus_captures()) {
    INFO(c.dir.string());
    const auto counts_only = analyze_capture(c.capture, {});
    REQUIRE(counts_only.blobs.size() == c.capture.blobs.size());
    for (const auto &b : counts_only.blobs) {
      CHECK(b.waves.empty());
      CHECK(b.timeline.rows.empty());
      CHECK(b.pc_stats == nullptr);
    }
    for (const auto &k : counts_only.kernels) CHECK(k.pc_stats == nullptr);

    AnalysisRequest all;
    all.waves = all.pc_stats = all.blob_pc_stats = all.timeline = all.pmc = true;
    const auto full = analyze_capture(c.capture, all);
    REQUIRE(full.blobs.size() == counts_only.blobs.size());
    std::size_t counters = 0;
    for (const auto &k : full.kernels) {
      REQUIRE(k.pc_stats);
      std::uint64_t hits = 0, waves = 0;
      std::int64_t gap = 0;
      for (const auto index : k.blobs) {
        const auto &b = full.blobs[index];
        CHECK(b.blob->kernel_tag == k.tag);
        REQUIRE(b.pc_stats);
        hits += b.pc_stats->total_hits();
        gap += b.pc_stats->total_gap();
        waves += b.report.waves;
      }
      CHECK(k.pc_stats->total_hits() == hits);
      CHECK(k.pc_stats->total_gap() == gap);
      CHECK(k.waves == waves);
      counters += k.counters.size();
    }
    CHECK(counters == c.capture.pmc.size());
    // The traced waves' state lanes are on the timeline's wave rows (CDNA's added from the walk).
    std::size_t rows_with_states = 0, traced_with_states = 0;
    for (const auto &b : full.blobs) {
      for (const auto &row : b.timeline.rows) rows_with_states += !row.states.empty();
      for (const auto &t : b.waves) traced_with_states += t.wave.traced && !t.states.empty();
    }
    if (traced_with_states) CHECK(rows_with_states > 0);
    if (full.cdna && c.dir.filename() == "gemm") CHECK(rows_with_states > 0);
    for (std::size_t i = 0; i < full.blobs.size(); ++i) {
      const auto &b = full.blobs[i];
      const auto &lean = counts_only.blobs[i];
      // Asking for more changes none of the counts.
      CHECK(b.report.decode.packets == lean.report.decode.packets);
      CHECK(b.report.waves == lean.report.waves);
      CHECK(b.clock_median_hz == lean.clock_median_hz);
      CHECK(b.mapped_instructions == lean.mapped_instructions);
      CHECK(b.waves.size() == b.report.waves);
      CHECK(b.timeline.waves.size() == b.report.waves);
      ++blobs;
    }
    ++captures;
  }
  CHECK(captures >= 9);
  CHECK(blobs >= captures);
}

TEST_CASE("analyze_capture selects blobs by kernel and by file") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t checked = 0;
  for (const auto &c : corpus_captures()) {
    if (c.capture.blobs.empty()) continue;
    INFO(c.dir.string());
    const auto &first = c.capture.blobs.front();
    AnalysisRequest by_file;
    by_file.blob = first.file_name;
    const auto one = analyze_capture(c.capture, by_file);
    CHECK(one.selection_found(by_file));
    REQUIRE(one.blobs.size() == 1);
    CHECK(one.blobs.front().blob == &first);

    AnalysisRequest by_kernel;
    by_kernel.kernel = first.program;
    std::size_t of_kernel = 0;
    for (const auto &b : c.capture.blobs) of_kernel += b.program == first.program;
    CHECK(analyze_capture(c.capture, by_kernel).blobs.size() == of_kernel);

    AnalysisRequest nothing;
    nothing.kernel = "no_such_kernel";
    const auto none = analyze_capture(c.capture, nothing);
    CHECK(none.blobs.empty());
    CHECK_FALSE(none.selection_found(nothing));
    ++checked;
  }
  CHECK(checked >= 9);
}

TEST_CASE("a CancelToken stops analyze_capture with ErrorKind::Interrupted") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  const auto captures = corpus_captures();
  const auto several = std::find_if(captures.begin(), captures.end(),
                                    [](const auto &c) { return c.capture.blobs.size() >= 2; });
  REQUIRE(several != captures.end());
  const auto &capture = several->capture;

  wavescope::CancelToken before;
  before.request();
  AnalysisRequest request;
  request.waves = true;
  request.cancel = &before;
  const auto interrupted = [](const wavescope::Error &e) {
    return e.kind() == wavescope::ErrorKind::Interrupted;
  };
  CHECK_THROWS_MATCHES(analyze_capture(capture, request), wavescope::Error,
                       Catch::Predicate<wavescope::Error>(interrupted));

  // Requested while the first blob is analysed: it stops before the next report.
  wavescope::CancelToken during;
  request.cancel = &during;
  std::size_t reports_after_request = 0;
  const wavescope::ProgressSink progress = [&](const wavescope::ProgressUpdate &) {
    if (during.stop_requested()) ++reports_after_request;
    during.request();
  };
  CHECK_THROWS_MATCHES(analyze_capture(capture, request, progress), wavescope::Error,
                       Catch::Predicate<wavescope::Error>(interrupted));
  CHECK(reports_after_request == 0);
}

TEST_CASE("realtime pairs: every marker of every blob, and the clock points tinygrad's VIZ draws") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t pairs = 0, points = 0, blobs_with_pairs = 0, rdna3_blobs = 0, rdna3_pairs = 0;
  for (const auto &c : wavescope::testing::sqtt::corpus_captures()) {
    INFO(c.dir.string());
    AnalysisRequest request;
    request.realtime = true;
    const auto analysis = analyze_capture(c.capture, request);
    const auto reference = wavescope::testing::sqtt::jsonl_by_blob(c.dir / "timeline.jsonl.gz");
    for (const auto &b : analysis.blobs) {
      INFO(b.blob->file_name);
      // The reference's shader-clock line, point for point.
      std::vector<std::pair<std::int64_t, std::int64_t>> want;
      if (const auto it = reference.find(b.blob->file_name); it != reference.end())
        for (const auto &e : it->second)
          if (e.at("kind") == "point")
            want.emplace_back(e.at("ts").get<std::int64_t>(), e.at("value").get<std::int64_t>());
      REQUIRE(b.clock.size() == want.size());
      for (std::size_t i = 0; i < want.size(); ++i) {
        CHECK(b.clock[i].time == want[i].first);
        CHECK(b.clock[i].freq_hz == want[i].second);
      }
      CHECK(b.clock.size() == b.clock_points);
      // A point per pair of consecutive markers whose realtime advanced.
      std::size_t advancing = 0;
      for (std::size_t i = 1; i < b.realtime.size(); ++i) {
        CHECK(b.realtime[i].realtime >= b.realtime[i - 1].realtime);
        CHECK(b.realtime[i].shader_clock >= b.realtime[i - 1].shader_clock);
        advancing += b.realtime[i].realtime != b.realtime[i - 1].realtime;
      }
      CHECK(b.clock.size() == advancing);
      pairs += b.realtime.size();
      points += b.clock.size();
      blobs_with_pairs += !b.realtime.empty();
      if (c.capture.arch == "gfx1100" && b.blob->itrace) {
        ++rdna3_blobs;
        rdna3_pairs += b.realtime.size();
      }
    }
  }
  CHECK(blobs_with_pairs > 0);
  CHECK(points > 0);
  CHECK(points < pairs);
  // About 40 per traced RX 7900 XTX blob.
  if (rdna3_blobs) CHECK(rdna3_pairs >= 30 * rdna3_blobs);
}

TEST_CASE("analyze_capture with on_blob hands each blob over and keeps none") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t captures = 0;
  for (const auto &c : corpus_captures()) {
    INFO(c.dir.string());
    const auto kept = analyze_capture(c.capture, {});
    std::vector<std::uint64_t> handed_packets;
    AnalysisRequest request;
    request.on_blob = [&](BlobAnalysis &&b) { handed_packets.push_back(b.report.decode.packets); };
    const auto streamed = analyze_capture(c.capture, request);
    CHECK(streamed.blobs.empty());
    REQUIRE(handed_packets.size() == kept.blobs.size());
    for (std::size_t i = 0; i < handed_packets.size(); ++i)
      CHECK(handed_packets[i] == kept.blobs[i].report.decode.packets);
    std::size_t indexed = 0;
    for (const auto &k : streamed.kernels) indexed += k.blobs.size();
    CHECK(indexed == handed_packets.size());
    CHECK(streamed.selection_found(request));
    ++captures;
  }
  CHECK(captures >= 9);
}

TEST_CASE("stream_waves_json writes to_json's lines as the blobs are analysed, byte for byte") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t captures = 0, lines = 0;
  for (const auto &c : corpus_captures())
    for (const bool instructions : {false, true}) {
      INFO(c.dir.string() << (instructions ? " with instructions" : ""));
      const auto kept = collect_waves(c.capture, "", {}, {}, instructions);
      const std::string expected = to_json(WavesReport{kept, instructions});
      std::string streamed;
      std::size_t pieces = 0;
      const auto summary = stream_waves_json(c.capture, "", instructions, [&](std::string_view s) {
        CHECK(!s.empty());
        CHECK(s.back() == '\n');  // pieces end at a line's end
        streamed += s;
        ++pieces;
      });
      CHECK(streamed == (expected.empty() ? expected : expected + '\n'));
      CHECK(summary.waves == kept.waves.size());
      CHECK(summary.blobs == kept.blobs);
      CHECK(summary.kernel_found);
      CHECK(pieces == (expected.empty() ? 0u : 1u));  // the corpus' output is under 1 MiB
      // In pieces of a line each: the same bytes.
      std::string by_line;
      std::size_t line_pieces = 0;
      stream_waves_json(
          c.capture, "", instructions,
          [&](std::string_view s) {
            CHECK(std::count(s.begin(), s.end(), '\n') == 1);
            by_line += s;
            ++line_pieces;
          },
          {}, {}, 1);
      CHECK(by_line == streamed);
      CHECK(line_pieces == summary.waves);
      lines += summary.waves;
      ++captures;
    }
  CHECK(captures >= 18);
  CHECK(lines > 1000);
  // A kernel no blob belongs to: nothing written, and the summary says so.
  const auto c = corpus_captures().front();
  std::size_t writes = 0;
  const auto none =
      stream_waves_json(c.capture, "no such kernel", false, [&](std::string_view) { ++writes; });
  CHECK(writes == 0);
  CHECK(none.waves == 0);
  CHECK(!none.kernel_found);
}

TEST_CASE("stream_waves_json escapes blob and kernel names as to_json does") {
  // The lines without instruction records are written by hand, names copied as they are when
  // JsonWriter would copy them; names it has nlohmann escape take its path.
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  // A capture with waves in two blobs: the first wave's blob gets the odd names, the other
  // keeps its own.
  std::size_t odd = 0, plain = 0;
  auto captures = corpus_captures();
  auto it = std::find_if(captures.begin(), captures.end(), [&](const auto &k) {
    const auto before = collect_waves(k.capture, "", {}, {}, false);
    if (before.waves.empty()) return false;
    odd = static_cast<std::size_t>(before.waves.front().blob - k.capture.blobs.data());
    for (const auto &w : before.waves)
      if (w.blob != before.waves.front().blob) {
        plain = static_cast<std::size_t>(w.blob - k.capture.blobs.data());
        return true;
      }
    return false;
  });
  REQUIRE(it != captures.end());
  auto &c = *it;
  c.capture.blobs[odd].file_name = "se\"0\\\xc3\xa9.bin";
  c.capture.blobs[odd].program = "k\tq";
  const auto kept = collect_waves(c.capture, "", {}, {}, false);
  const std::string expected = to_json(WavesReport{kept, false}) + '\n';
  std::string streamed;
  const auto summary =
      stream_waves_json(c.capture, "", false, [&](std::string_view s) { streamed += s; });
  CHECK(streamed == expected);
  CHECK(summary.waves == kept.waves.size());
  CHECK_THAT(streamed, Catch::Contains(R"({"blob":"se\"0\\)"));  // escaped by nlohmann
  CHECK_THAT(streamed, Catch::Contains(R"("kernel":"k\tq")"));
  CHECK_THAT(streamed, Catch::Contains(R"({"blob":")" + c.capture.blobs[plain].file_name + '"'));
}
