// The CDNA (gfx950) clock stage and CDNA instruction timing (docs/sqtt-analysis.md, "CDNA
// (gfx950): which wave end is right" and "CDNA instruction timing"), over every gfx950 corpus
// capture.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "sqtt_support/analysis.hpp"
#include "sqtt_support/corpus.hpp"
#include "wavescope/trace/sqtt/decoder.hpp"
#include "wavescope/trace/timeline/cdna_clock.hpp"
#include "wavescope/trace/timeline/instruction_stats.hpp"
#include "wavescope/trace/timeline/waves_report.hpp"

using namespace wavescope::trace::timeline;
using wavescope::testing::sqtt::analyze_blob;
using wavescope::testing::sqtt::blob_bytes;
using wavescope::testing::sqtt::corpus_captures;
using wavescope::testing::sqtt::jsonl_by_blob;
using wavescope::trace::sqtt::Packet;
using wavescope::trace::sqtt::PacketType;

namespace {

std::vector<Packet> decoded_packets(const wavescope::trace::CaptureBlob &blob) {
  std::vector<Packet> out;
  wavescope::trace::sqtt::PacketDecoder decoder;
  decoder.decode(blob_bytes(blob.bytes), [&](const Packet &p) { out.push_back(p); });
  return out;
}

// The packets between each TIME_RESET and the CDNA_TIMESTAMP that closes its window, by index,
// with that timestamp's (decoded) time.
std::map<std::uint64_t, std::int64_t> window_times(const std::vector<Packet> &packets,
                                                   std::size_t &windows) {
  std::map<std::uint64_t, std::int64_t> out;
  std::vector<std::uint64_t> open;
  bool in_window = false;
  for (const auto &p : packets) {
    if (p.in_tail) continue;
    if (CdnaClockStage::is_anchor(p) && in_window) {
      for (auto i : open) out[i] = p.time;
      ++windows;
      open.clear();
      in_window = false;
    } else if (CdnaClockStage::is_reset(p)) {
      open.clear();
      in_window = true;
    } else if (in_window) {
      open.push_back(p.index);
    }
  }
  return out;
}

const std::vector<nlohmann::json> &
waves_of(const std::map<std::string, std::vector<nlohmann::json>> &reference,
         const std::string &blob) {
  static const std::vector<nlohmann::json> none;
  const auto it = reference.find(blob);
  return it == reference.end() ? none : it->second;
}

bool is_gfx950(const wavescope::testing::sqtt::CorpusCapture &c) {
  return c.capture.arch == "gfx950";
}

// Consecutive issues (CDNA_ISSUE status 2 or 3) of one wave that fall into the same 4-cycle step.
std::size_t same_step_issues(const std::vector<Packet> &packets, std::size_t &pairs) {
  std::map<unsigned, std::int64_t> last;
  std::size_t same = 0;
  for (const auto &p : packets) {
    if (p.type != PacketType::CdnaIssue || p.in_tail) continue;
    const unsigned simd = (p.raw >> 5) & 3;
    for (unsigned w = 0; w < 10; ++w) {
      const unsigned status = (p.raw >> (8 + 2 * w)) & 3;
      if (status < 2) continue;
      const auto [it, fresh] = last.try_emplace(simd * 16 + w, p.time);
      if (!fresh) {
        ++pairs;
        same += it->second == p.time;
        it->second = p.time;
      }
    }
  }
  return same;
}

}  // namespace

TEST_CASE("CDNA reset windows: the waves ending inside one move to its timestamp, no other wave "
          "moves") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::map<std::string, std::size_t> moved_ends, moved_starts;
  std::map<std::string, std::int64_t> max_shift;
  std::size_t waves = 0, windows = 0, blobs = 0;
  std::int64_t unmoved_min = 1 << 30, moved_min = 1 << 30, moved_max = 0, moved_tinygrad_max = 0;
  for (const auto &c : corpus_captures()) {
    if (!is_gfx950(c)) continue;
    const std::string example = c.dir.filename().string();
    CaptureAnalyzer analyzer(c.capture, {CdnaClock::ResetWindows});
    const auto reference = jsonl_by_blob(c.dir / "waves.jsonl.gz");
    for (const auto &b : c.capture.blobs) {
      INFO(example << " " << b.file_name);
      ++blobs;
      std::size_t blob_windows = 0;
      const auto window = window_times(decoded_packets(b), blob_windows);
      const auto result = analyze_blob(analyzer, b);
      CHECK(result.report.cdna_clock.windows == blob_windows);
      CHECK(result.report.cdna_clock.open_windows == 0);
      CHECK(result.report.cdna_clock.ticks == 0);
      CHECK(result.report.cdna_clock.window_packets == window.size());
      windows += blob_windows;
      const auto &ref = waves_of(reference, b.file_name);
      REQUIRE(result.waves.size() == ref.size());
      for (std::size_t i = 0; i < ref.size(); ++i) {
        const auto &w = result.waves[i].wave;
        const auto expect = [&](const char *key, const char *index_key) {
          const auto it = window.find(ref[i].at(index_key).get<std::uint64_t>());
          return it == window.end() ? ref[i].at(key).get<std::int64_t>() : it->second;
        };
        CHECK(w.start == expect("start", "start_i"));
        CHECK(w.end == expect("end", "end_i"));
        const std::int64_t tinygrad_end = ref[i].at("end");
        const std::int64_t tinygrad_start = ref[i].at("start");
        moved_starts[example] += w.start != tinygrad_start;
        if (w.end != tinygrad_end) {
          ++moved_ends[example];
          max_shift[example] = std::max(max_shift[example], w.end - tinygrad_end);
          if (example == "gemm") {
            moved_min = std::min(moved_min, w.end - w.start);
            moved_max = std::max(moved_max, w.end - w.start);
            moved_tinygrad_max = std::max(moved_tinygrad_max, tinygrad_end - tinygrad_start);
          }
        } else if (example == "gemm") {
          unmoved_min = std::min(unmoved_min, w.end - w.start);
        }
        ++waves;
      }
    }
  }
  CHECK(blobs == 96);
  CHECK(waves == 1026);
  CHECK(windows == 1562);  // every TIME_RESET's window is closed by the next timestamp
  CHECK(moved_starts == std::map<std::string, std::size_t>{{"empty", 0}, {"gemm", 0}, {"plus", 0}});
  CHECK(moved_ends == std::map<std::string, std::size_t>{{"empty", 1}, {"gemm", 11}, {"plus", 1}});
  CHECK(max_shift ==
        std::map<std::string, std::int64_t>{{"empty", 36}, {"gemm", 2456}, {"plus", 2116}});
  // gemm's 1024 waves run the same code: the 11 that end in a window last far too short by
  // tinygrad's clock, and as long as the others by the timestamp.
  CHECK(moved_tinygrad_max < unmoved_min / 2);
  CHECK(moved_min >= unmoved_min);
  CHECK(moved_max <= 4536);
}

TEST_CASE("CDNA ticked clock (the default): bit-4 ticks, no wave issues twice in one 4-cycle "
          "step, and the clock never runs back") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t tinygrad_same = 0, ticked_same = 0, tinygrad_pairs = 0, ticked_pairs = 0, ticks = 0,
              ticked_packets = 0, blobs = 0;
  std::map<std::string, std::size_t> moved_starts, moved_ends;
  std::int64_t max_start_shift = 0, max_end_shift = 0, packet_shift = 0;
  for (const auto &c : corpus_captures()) {
    if (!is_gfx950(c)) continue;
    const std::string example = c.dir.filename().string();
    CaptureAnalyzer tinygrad(c.capture, {CdnaClock::Tinygrad});
    CaptureAnalyzer ticked(c.capture);
    REQUIRE(ticked.options().cdna_clock == CdnaClock::Ticked);
    const auto reference = jsonl_by_blob(c.dir / "waves.jsonl.gz");
    for (const auto &b : c.capture.blobs) {
      INFO(example << " " << b.file_name);
      ++blobs;
      std::vector<Packet> before, after;
      AnalysisObserver nothing;
      tinygrad.analyze(b, nothing, [&](const Packet &p) { before.push_back(p); });
      const auto report = ticked.analyze(b, nothing, [&](const Packet &p) { after.push_back(p); });
      // The tinygrad clock hands on the decoded packets; the stage keeps every packet, in order.
      const auto decoded = decoded_packets(b);
      std::vector<Packet> decoded_non_nop;
      for (const auto &p : decoded)
        if (p.type != PacketType::Nop) decoded_non_nop.push_back(p);
      REQUIRE(before.size() == decoded_non_nop.size());
      for (std::size_t i = 0; i < before.size(); ++i) {
        CHECK(before[i].index == decoded_non_nop[i].index);
        CHECK(before[i].time == decoded_non_nop[i].time);
      }
      REQUIRE(before.size() == after.size());
      std::map<std::uint64_t, std::int64_t> ticked_time;
      std::size_t blob_ticks = 0;
      for (std::size_t i = 0; i < before.size(); ++i) {
        REQUIRE(before[i].index == after[i].index);
        ticked_time[after[i].index] = after[i].time;
        CHECK(before[i].raw == after[i].raw);
        if (!after[i].in_tail && CdnaClockStage::has_tick(after[i])) ++blob_ticks;
        if (i && !after[i].in_tail) CHECK(after[i].time >= after[i - 1].time);
      }
      CHECK(report.cdna_clock.ticks == blob_ticks);
      ticks += blob_ticks;
      ticked_packets += report.cdna_clock.retimed;
      packet_shift = std::max(packet_shift, report.cdna_clock.max_shift);
      tinygrad_same += same_step_issues(before, tinygrad_pairs);
      ticked_same += same_step_issues(after, ticked_pairs);
      // The waves: ticked times of their start and end packets.
      const auto waves = analyze_blob(ticked, b).waves;
      const auto &ref = waves_of(reference, b.file_name);
      REQUIRE(waves.size() == ref.size());
      for (std::size_t i = 0; i < ref.size(); ++i) {
        const auto &w = waves[i].wave;
        CHECK(w.start == ticked_time.at(w.start_index));
        CHECK(w.end == ticked_time.at(w.end_index));
        CHECK(w.start >= ref[i].at("start").get<std::int64_t>());
        CHECK(w.end >= ref[i].at("end").get<std::int64_t>());
        max_start_shift =
            std::max(max_start_shift, w.start - ref[i].at("start").get<std::int64_t>());
        max_end_shift = std::max(max_end_shift, w.end - ref[i].at("end").get<std::int64_t>());
        moved_starts[example] += w.start != ref[i].at("start");
        moved_ends[example] += w.end != ref[i].at("end");
      }
    }
  }
  CHECK(blobs == 96);
  CHECK(ticks == 687);  // REG 134, REG_CS_PRIV 116, WAVESTART 300, ISSUE 19, INST 10, WAVEEND 108
  CHECK(tinygrad_pairs == 228);
  CHECK(ticked_pairs == 228);
  CHECK(tinygrad_same == 35);
  CHECK(ticked_same == 0);
  // gemm: 34 of 1024 waves keep both times (the issue's "34 of 1024"); every wave of plus and
  // empty ends in a reset window.
  CHECK(moved_starts ==
        std::map<std::string, std::size_t>{{"empty", 0}, {"gemm", 942}, {"plus", 0}});
  CHECK(moved_ends == std::map<std::string, std::size_t>{{"empty", 1}, {"gemm", 776}, {"plus", 1}});
  CHECK(max_start_shift == 56);
  CHECK(max_end_shift == 2456);
  // Packets in the reset windows of idle stretches move much further (up to the timestamp).
  WARN(ticked_packets << " packets re-timed by the ticked clock, by up to " << packet_shift);
}

TEST_CASE("CDNA instructions carry rocprof's stall and duration, waves their state timeline, and "
          "sqtt insts sums them") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t captures = 0, streams = 0, instructions = 0, immediates = 0, stalled = 0;
  std::int64_t stall_total = 0, duration_total = 0, immediate_stall = 0;
  std::int64_t pc_stall = 0, pc_latency = 0;
  std::uint64_t pc_timed = 0, stall_statuses = 0;
  std::map<WaveState, std::int64_t> state_cycles;
  for (const auto &c : corpus_captures()) {
    if (!is_gfx950(c)) continue;
    ++captures;
    const auto waves = collect_waves(c.capture, "");
    for (const auto &[blob, t] : waves.waves) {
      INFO(c.dir.string() << " " << blob->file_name << " wave at " << t.wave.start);
      if (!t.mapped) {
        CHECK(t.states.empty());
        continue;
      }
      ++streams;
      // The state timeline tiles the wave's lifetime.
      std::int64_t covered = 0;
      for (const auto &s : t.states) {
        CHECK(s.duration > 0);
        covered += s.duration;
        state_cycles[s.state] += s.duration;
      }
      CHECK(covered == t.wave.end - t.wave.start);
      REQUIRE(!t.states.empty());
      CHECK(t.states.front().state == WaveState::Idle);
      for (std::size_t k = 0; k < t.instructions.size(); ++k) {
        const auto &i = t.instructions[k];
        ++instructions;
        CHECK(i.stall >= 0);
        CHECK(i.duration >= i.stall);
        CHECK(i.duration >= 4);
        stall_total += i.stall;
        duration_total += i.duration;
        if (i.name == "IMMED") {
          ++immediates;
          immediate_stall += i.stall;
          CHECK(i.stall == i.duration);  // rocprof counts an immediate's whole duration as stall
        } else if (i.stall > 0) {
          ++stalled;
        }
      }
    }
    const auto stats = collect_instruction_stats(c.capture, "");
    stall_statuses += stats.cdna_mapping.stalls;
    CHECK(stats.cdna_mapping.without_issue == 0);
    CHECK(stats.cdna_mapping.unplaced_immediates == 0);
    for (const auto &k : stats.kernels)
      for (const auto &r : k.stats->rows()) {
        CHECK(r.timed == r.hits);
        pc_timed += r.timed;
        pc_stall += r.stall_total;
        pc_latency += r.latency_total;
      }
  }
  CHECK(captures == 3);
  CHECK(streams == 4);
  CHECK(instructions == 232);
  CHECK(immediates == 32);
  // Every stalled instruction had a stall status before it (19 in the corpus, one per stall).
  CHECK(stall_statuses == 19);
  CHECK(stalled <= stall_statuses);
  // sqtt insts (per-PC statistics) and sqtt waves agree on every cycle.
  CHECK(pc_timed == instructions);
  CHECK(pc_stall == stall_total);
  CHECK(pc_latency == duration_total);
  WARN(fmt::format("{} stalled instructions; stall {} cycles ({} of it immediates), duration {}; "
                   "states IDLE {} EXEC {} WAIT {} STALL {}",
                   stalled, stall_total, immediate_stall, duration_total,
                   state_cycles[WaveState::Idle], state_cycles[WaveState::Exec],
                   state_cycles[WaveState::Wait], state_cycles[WaveState::Stall]));
}
