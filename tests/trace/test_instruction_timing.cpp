// Per-instruction stall and duration as rocprof-trace-decoder defines them, wave-state
// timelines, waves on SEs without instruction tracing and RDNA4 split barriers, over every RDNA
// capture of the corpus (spec §11, §12.3; docs/sqtt-analysis.md).

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include <fmt/format.h>

#include "sqtt_support/analysis.hpp"
#include "sqtt_support/corpus.hpp"
#include "wavescope/trace/timeline/instruction_stats.hpp"
#include "wavescope/trace/timeline/waves_report.hpp"

using namespace wavescope::trace::timeline;
using wavescope::testing::sqtt::analyze_blob;
using wavescope::testing::sqtt::corpus_captures;
using wavescope::testing::sqtt::jsonl_by_blob;

namespace {

// The cycle count at the end of a category name ("VALUB_16" -> 16), 1 if there is none.
std::int64_t category_cycles(std::string_view name) {
  const auto underscore = name.rfind('_');
  if (underscore == std::string_view::npos) return 1;
  std::int64_t value = 0;
  for (char c : name.substr(underscore + 1)) {
    if (c < '0' || c > '9') return 1;
    value = value * 10 + (c - '0');
  }
  return underscore + 1 == name.size() ? 1 : value;
}

bool is_immediate(const InstructionTiming &i) {
  return i.name == "IMMEDIATE" || i.name == "BARRIER" || i.name == "BARRIER_WAIT";
}

struct Counts {
  std::size_t waves = 0, instructions = 0, with_exec = 0, stalled = 0, immediates_waiting = 0,
              barriers = 0, inserted = 0;
};

}  // namespace

TEST_CASE("stall and duration of every traced RDNA instruction agree with its exec events") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::map<std::string, Counts> per_capture;
  for (const auto &c : corpus_captures()) {
    if (c.capture.arch == "gfx950") continue;  // CDNA: see the CDNA test
    CaptureAnalyzer analyzer(c.capture);
    auto &n = per_capture[c.capture.arch + "/" + c.capture.example];
    for (const auto &b : c.capture.blobs) {
      INFO(c.dir.string() << " " << b.file_name);
      for (const auto &t : analyze_blob(analyzer, b).waves) {
        if (!t.mapped) continue;
        ++n.waves;
        std::int64_t previous_first = t.wave.start;
        for (std::size_t k = 0; k < t.instructions.size(); ++k) {
          const auto &i = t.instructions[k];
          INFO("wave at " << t.wave.start << " instruction " << k << " " << i.name << " at "
                          << i.time);
          if (i.is_wave_end) {
            CHECK(k + 1 == t.instructions.size());
            CHECK(i.stall == -1);
            CHECK(i.time == t.wave.end);
            continue;
          }
          ++n.instructions;
          REQUIRE(i.stall >= 0);
          REQUIRE(i.duration >= 0);
          // rocprof's time (the first issue attempt) is ours minus the stall, never before the
          // wave started nor before the previous instruction's first attempt.
          const std::int64_t first = i.time - i.stall;
          CHECK(first >= previous_first);
          previous_first = first;
          if (i.inserted) {
            ++n.inserted;
            CHECK(i.stall == 0);
            continue;
          }
          if (i.stall > 0) ++n.stalled;
          if (i.name == "BARRIER") {
            // RDNA3: the barrier runs from its first attempt to the wave's next event.
            ++n.barriers;
            CHECK(i.duration >= i.stall + 1);
            CHECK(first + i.duration <= i.bar_end);
          } else if (is_immediate(i)) {
            CHECK(i.duration - i.stall == 1);
            if (i.stall > 0) ++n.immediates_waiting;
          } else if (i.exec_count) {
            // duration - stall is the length of the linked execution-unit event.
            ++n.with_exec;
            const auto &e = t.exec(i).front();
            CHECK(i.duration - i.stall == e.end - e.start);
          } else {
            CHECK(i.duration - i.stall == category_cycles(i.name));
          }
        }
        // The state timeline covers the wave from start to end and begins IDLE.
        std::int64_t covered = 0;
        for (const auto &s : t.states) {
          CHECK(s.duration > 0);
          covered += s.duration;
        }
        if (!t.instructions.empty()) {
          REQUIRE_FALSE(t.states.empty());
          CHECK(t.states.front().state == WaveState::Idle);
        }
        CHECK(covered == t.wave.end - t.wave.start);
      }
    }
  }
  // What the corpus holds (mapped waves, instructions without the wave-end records, ...).
  for (const auto &[name, n] : per_capture)
    WARN(fmt::format("{}: {} waves, {} instructions, {} with exec events, {} stalled, "
                     "{} waiting immediates, {} barriers, {} s_barrier_wait",
                     name, n.waves, n.instructions, n.with_exec, n.stalled, n.immediates_waiting,
                     n.barriers, n.inserted));
  Counts total;
  for (const auto &[name, n] : per_capture) {
    total.waves += n.waves;
    total.instructions += n.instructions;
    total.with_exec += n.with_exec;
    total.stalled += n.stalled;
    total.barriers += n.barriers;
    total.inserted += n.inserted;
  }
  CHECK(per_capture.size() == 9);
  CHECK(total.waves == 74);
  CHECK(total.instructions == 2712);
  CHECK(total.with_exec == 2360);
  CHECK(total.stalled == 446);
  CHECK(total.barriers == 2);
  CHECK(total.inserted == 2);
}

TEST_CASE("waves on SEs without instruction tracing report no instructions") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t untraced_waves = 0, traced_waves = 0, entry_endpgm = 0;
  for (const auto &c : corpus_captures()) {
    if (c.capture.arch == "gfx950") continue;
    CaptureAnalyzer analyzer(c.capture);
    const auto reference = jsonl_by_blob(c.dir / "waves.jsonl.gz");
    for (const auto &b : c.capture.blobs) {
      INFO(c.dir.string() << " " << b.file_name);
      const auto waves = analyze_blob(analyzer, b).waves;
      const auto it = reference.find(b.file_name);
      for (std::size_t w = 0; w < waves.size(); ++w) {
        const auto &t = waves[w];
        if (!t.mapped) continue;
        if (b.itrace) {
          ++traced_waves;
          INFO("wave at " << t.wave.start);
          REQUIRE_FALSE(t.instructions.empty());
          CHECK(t.instructions.back().is_wave_end);
          continue;
        }
        ++untraced_waves;
        if (!t.instructions.empty()) {
          // The entry is the s_endpgm (the empty kernel): that instruction did run.
          REQUIRE(t.instructions.size() == 1);
          CHECK(t.instructions[0].is_wave_end);
          REQUIRE(t.instructions[0].instruction);
          CHECK(t.instructions[0].instruction->is_endpgm);
          ++entry_endpgm;
        }
        // tinygrad reports its own s_endpgm at the entry PC there.
        REQUIRE(it != reference.end());
        const auto &insts = it->second.at(w).at("insts");
        REQUIRE(insts.size() == 1);
        CHECK(insts[0].at("pkt").get<std::string>().rfind("WAVEEND", 0) == 0);
      }
    }
  }
  CHECK(untraced_waves == 38);
  CHECK(entry_endpgm == 0);
  CHECK(traced_waves == 36);
}

TEST_CASE("RDNA4 split barriers: s_barrier_wait is an instruction of its own") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t waits = 0, signals = 0;
  for (const auto &c : corpus_captures()) {
    if (c.capture.arch != "gfx1200") continue;
    CaptureAnalyzer analyzer(c.capture);
    for (const auto &b : c.capture.blobs) {
      INFO(c.dir.string() << " " << b.file_name);
      for (const auto &t : analyze_blob(analyzer, b).waves) {
        const auto &v = t.instructions;
        for (std::size_t k = 0; k < v.size(); ++k) {
          if (v[k].name == "BARRIER_SIGNAL") ++signals;
          if (!v[k].inserted) continue;
          ++waits;
          INFO("instruction " << k);
          REQUIRE(v[k].instruction);
          CHECK(v[k].instruction->mnemonic == "s_barrier_wait");
          CHECK(v[k].pc == v[k].instruction->address);
          // Right after the signal, from its end to the next instruction's first attempt.
          REQUIRE(k > 0);
          REQUIRE(k + 1 < v.size());
          const auto &signal = v[k - 1], &next = v[k + 1];
          CHECK(signal.name == "BARRIER_SIGNAL");
          CHECK(signal.pc + signal.instruction->size == v[k].pc);
          CHECK(v[k].time == signal.time - signal.stall + signal.duration);
          CHECK(v[k].time + v[k].duration == next.time - next.stall);
          CHECK(v[k].duration > 1);
        }
      }
    }
  }
  CHECK(signals == 2);
  CHECK(waits == signals);
}

TEST_CASE("CDNA waves on the traced CU have instruction streams, s_waitcnt and s_nop included") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t streams = 0, instructions = 0, immediates = 0, immediate_pcs = 0;
  for (const auto &c : corpus_captures()) {
    if (c.capture.arch != "gfx950") continue;
    const auto waves = collect_waves(c.capture, "");
    for (const auto &[blob, t] : waves.waves) {
      INFO(c.dir.string() << " " << blob->file_name << " wave at " << t.wave.start);
      if (t.instructions.empty()) continue;
      ++streams;
      CHECK(t.mapped);
      CHECK(t.wave.cu == 0);
      // From the entry to the s_endpgm (which issues an OTHER_MSG on CDNA), in time order.
      CHECK(t.instructions.front().pc == c.capture.programs.front().entry_pc);
      REQUIRE(t.instructions.back().instruction);
      CHECK(t.instructions.back().instruction->is_endpgm);
      for (std::size_t k = 0; k < t.instructions.size(); ++k) {
        const auto &i = t.instructions[k];
        ++instructions;
        CHECK(i.time >= t.wave.start);
        CHECK(i.time <= t.wave.end);
        if (k) CHECK(i.time >= t.instructions[k - 1].time);
        if (i.name == "IMMED") {
          ++immediates;
          REQUIRE(i.instruction);
          const std::string_view m = i.instruction->mnemonic;
          CHECK((m.starts_with("s_waitcnt") || m == "s_nop"));
        }
      }
    }
    const auto stats = collect_instruction_stats(c.capture, "");
    for (const auto &[kernel, tag, acc] : stats.kernels)
      for (const auto &r : acc->rows())
        if (r.instruction && (r.instruction->mnemonic.starts_with("s_waitcnt") ||
                              r.instruction->mnemonic == "s_nop"))
          ++immediate_pcs;
  }
  CHECK(streams == 4);
  CHECK(instructions == 232);  // the 200 CDNA_INSTs and 32 immediates
  CHECK(immediates == 32);
  CHECK(immediate_pcs == 8);
}
