// Wave timelines, PC mapping and the VIZ timeline model against the corpus' waves.jsonl and
// timeline.jsonl (spec §18 properties 7-14).

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sqtt_support/analysis.hpp"
#include "sqtt_support/corpus.hpp"
#include "wavescope/compiler/isa/assembler.hpp"
#include "wavescope/compiler/isa/gpu_target.hpp"
#include "wavescope/trace/timeline/cdna_mapper.hpp"

using namespace wavescope::trace::timeline;
using nlohmann::json;
using wavescope::testing::sqtt::analyze_blob;
using wavescope::testing::sqtt::corpus_captures;
using wavescope::testing::sqtt::jsonl_by_blob;

namespace {

// The instructions tinygrad reports too: not the RDNA4 s_barrier_waits wavescope inserts.
std::vector<const InstructionTiming *> packet_rows(const WaveTrace &t) {
  std::vector<const InstructionTiming *> rows;
  for (const auto &i : t.instructions)
    if (!i.inserted) rows.push_back(&i);
  return rows;
}

std::string compare_wave(const WaveTrace &t, const json &ref, bool cdna, bool itrace) {
  const auto &w = t.wave;
  auto field = [&](const char *k, std::int64_t v) -> std::string {
    return ref.at(k) == v ? "" : fmt::format("{} {} != {}", k, v, ref.at(k).dump());
  };
  std::string d;
  for (auto [k, v] : std::initializer_list<std::pair<const char *, std::int64_t>>{
           {"se", w.se},
           {"cu", w.cu},
           {"simd", w.simd},
           {"wave", w.slot},
           {"start", w.start},
           {"end", w.end},
           {"start_i", std::int64_t(w.start_index)},
           {"end_i", std::int64_t(w.end_index)}})
    if (d.empty()) d = field(k, v);
  if (!d.empty()) return d;
  if (cdna) {
    if (!(d = field("sh", w.sh)).empty()) return d;
  } else {
    for (auto [k, v] : std::initializer_list<std::pair<const char *, std::int64_t>>{
             {"sa", w.sa}, {"wgp", w.wgp}, {"id7", w.id7}})
      if (!(d = field(k, v)).empty()) return d;
  }
  if (ref.at("mapped") != t.mapped) return "mapped";
  if (!t.mapped) return {};
  const auto &insts = ref.at("insts");
  const auto rows = packet_rows(t);
  if (!itrace && rows.empty()) {
    // No instruction packets on this SE: tinygrad's only record is its s_endpgm at the entry.
    if (insts.size() != 1 || insts[0].at("pkt").get<std::string>().rfind("WAVEEND", 0) != 0)
      return "untraced SE: the reference has more than the wave end";
    return {};
  }
  if (insts.size() != rows.size())
    return fmt::format("{} instructions, reference {}", rows.size(), insts.size());
  for (std::size_t i = 0; i < insts.size(); ++i) {
    const auto &a = *rows[i];
    const auto &r = insts[i];
    const auto where = fmt::format("inst {} ({})", i, r.dump());
    if (r.at("pc") != a.pc) return where + fmt::format(": pc {:#x}", a.pc);
    if (r.at("time") != a.time) return where + ": time";
    if (r.at("pkt") != wavescope::trace::sqtt::to_string(a.packet)) return where + ": pkt";
    if (r.at("name") != a.name) return where + fmt::format(": name {}", a.name);
    if (r.at("viz") != json::array({a.bar_start, a.bar_end})) return where + ": viz";
    json exec = json::array();
    for (const auto &e : t.exec(a)) exec.push_back({e.row, e.name, e.start, e.end});
    if (r.value("exec", json::array()) != exec) return where + ": exec " + exec.dump();
  }
  return {};
}

}  // namespace

TEST_CASE("waves, mapped instructions and their timing equal waves.jsonl on every blob") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t waves = 0, mapped_instructions = 0, asm_equal = 0, wave_end_differ = 0,
              other_notation = 0, untraced_wave_ends = 0;
  std::map<std::string, std::vector<std::uint8_t>> assembled;  // tinygrad text -> its bytes
  for (const auto &c : corpus_captures()) {
    // tinygrad's CDNA clock: its waves.jsonl and timeline.jsonl are timed on it (the clock
    // stage's own test checks what the default clock moves).
    CaptureAnalyzer analyzer(c.capture, {CdnaClock::Tinygrad});
    const auto reference = jsonl_by_blob(c.dir / "waves.jsonl.gz");
    const bool cdna = c.capture.arch == "gfx950";
    const auto target = wavescope::compiler::isa::parse_gpu_target(c.capture.arch);
    std::map<std::string, std::size_t> per_example;
    for (const auto &b : c.capture.blobs) {
      const std::string file = b.file_name;
      INFO(c.dir.string() << " " << file);
      const auto result = analyze_blob(analyzer, b);
      const auto it = reference.find(file);
      const std::size_t expected = it == reference.end() ? 0 : it->second.size();
      REQUIRE(result.waves.size() == expected);
      CHECK(result.report.anomalies.total() == 0);
      CHECK(result.report.waves == expected);
      for (std::size_t i = 0; i < expected; ++i) {
        const auto d = compare_wave(result.waves[i], it->second[i], cdna, b.itrace);
        if (!d.empty()) FAIL_CHECK("wave " << i << ": " << d);
        const auto &t = result.waves[i];
        if (t.wave.end <= t.wave.start || t.wave.start <= 0) FAIL_CHECK("wave " << i << " span");
        const auto rows = packet_rows(t);
        if (t.mapped && rows.empty()) ++untraced_wave_ends;
        for (std::size_t k = 0; k < rows.size(); ++k) {
          const auto &inst = *rows[k];
          ++mapped_instructions;
          const auto &ref = it->second[i]["insts"][k];
          if (inst.instruction && inst.instruction->text == ref["asm"]) {
            ++asm_equal;
          } else if (ref["pkt"].get<std::string>().rfind("WAVEEND", 0) == 0) {
            ++wave_end_differ;  // a non-itrace SE's wave end: its PC is the entry
          } else {
            // tinygrad's other notation of the same instruction (as the disassembly corpus
            // test checks in detail): it assembles to the same bytes as LLVM's text.
            INFO("wave " << i << " instruction " << k << ": " << ref.dump());
            REQUIRE(inst.instruction);
            const auto &ours = *inst.instruction;
            const std::string theirs = ref["asm"];
            if (ours.mnemonic == "v_cndmask_b32_e32" && ours.text == theirs + ", vcc_lo") {
              ++other_notation;  // tinygrad omits the implicit vcc_lo operand
            } else {
              auto bytes = [&](const std::string &text) -> const std::vector<std::uint8_t> & {
                auto [known, fresh] = assembled.try_emplace(c.capture.arch + " " + text);
                if (fresh) known->second = wavescope::compiler::isa::assemble(text, target);
                return known->second;
              };
              CHECK(bytes(theirs) == bytes(ours.text));
              ++other_notation;
            }
          }
        }
      }
      CHECK(c.blob_meta(file).at("waves") == expected);
      waves += expected;
    }
  }
  CHECK(waves == 1031 + 1035 + 1026);
  // The mapped instruction counts of the corpus README (wave-end records included), less the
  // s_endpgm records tinygrad invents at the entry of waves on SEs without instruction tracing
  // (wavescope reports those waves with no instructions).
  CHECK(untraced_wave_ends == 38);
  CHECK(mapped_instructions == 654 + 2130 - untraced_wave_ends);
  // LLVM's and tinygrad's assembly text agree except for tinygrad's other notations: every
  // mapped instruction is one of the two.
  CHECK(wave_end_differ == 0);
  INFO("assembly text equal on " << asm_equal << " of " << mapped_instructions << ", "
                                 << wave_end_differ << " wave ends, " << other_notation
                                 << " in other notation");
  CHECK(asm_equal + wave_end_differ + other_notation == mapped_instructions);
  CHECK(asm_equal > wave_end_differ + other_notation);
}
TEST_CASE("the VIZ timeline model equals timeline.jsonl on every blob") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t events = 0, points = 0, checked_blobs = 0;
  for (const auto &c : corpus_captures()) {
    // tinygrad's CDNA clock: its waves.jsonl and timeline.jsonl are timed on it (the clock
    // stage's own test checks what the default clock moves).
    CaptureAnalyzer analyzer(c.capture, {CdnaClock::Tinygrad});
    const auto reference = jsonl_by_blob(c.dir / "timeline.jsonl.gz");
    for (const auto &b : c.capture.blobs) {
      const std::string file = b.file_name;
      INFO(c.dir.string() << " " << file);
      const auto result = analyze_blob(analyzer, b);
      const auto &tl = result.timeline;
      // The reference, row by row; exec rows ordered by start like the model.
      std::map<std::string, std::vector<json>> rows;
      std::vector<json> clock;
      if (auto it = reference.find(file); it != reference.end())
        for (const auto &e : it->second) {
          if (e.at("kind") == "point")
            clock.push_back(e);
          else
            rows[e.at("row")].push_back(e);
        }
      for (auto &[name, list] : rows)
        if (name.rfind("WAVE:", 0) != 0)
          std::stable_sort(list.begin(), list.end(),
                           [](const json &x, const json &y) { return x.at("st") < y.at("st"); });
      std::size_t model_rows = 0;
      for (const auto &row : tl.rows) {
        ++model_rows;
        const auto it = rows.find(row.name);
        if (it == rows.end()) {
          FAIL_CHECK("row " << row.name << " not in the reference");
          continue;
        }
        const auto &ref = it->second;
        REQUIRE(row.events.size() == ref.size());
        for (std::size_t i = 0; i < ref.size(); ++i) {
          const auto &e = row.events[i];
          const auto &r = ref[i];
          INFO(row.name << " event " << i << ": " << r.dump());
          CHECK(r.at("name") == e.name);
          CHECK(r.at("st") == e.start);
          CHECK(r.at("en") == e.end);
          if (row.kind == RowKind::WaveSlot) {
            CHECK(r.at("idx") == e.index);
            CHECK(r.contains("pc") == e.has_pc);
            if (e.has_pc) CHECK(r.at("pc") == e.pc);
          } else {
            REQUIRE(e.link_row >= 0);
            CHECK(r.at("link") ==
                  fmt::format("{}-{}", tl.rows[std::size_t(e.link_row)].name, e.link_index));
          }
          ++events;
        }
      }
      CHECK(model_rows == rows.size());
      REQUIRE(tl.clock.size() == clock.size());
      for (std::size_t i = 0; i < clock.size(); ++i) {
        CHECK(clock[i].at("ts") == tl.clock[i].time);
        CHECK(clock[i].at("value") == tl.clock[i].freq_hz);
        CHECK(tl.clock[i].freq_hz > 0);
      }
      points += clock.size();
      CHECK(c.blob_meta(file).at("timeline_events") == [&] {
        std::size_t n = tl.clock.size();
        for (const auto &r : tl.rows) n += r.events.size();
        return n;
      }());
      ++checked_blobs;
    }
  }
  CHECK(checked_blobs == 150);
  WARN(events << " timeline events and " << points << " clock points compared");
}

TEST_CASE("every dispatch that expects execution gets exactly one non-ALT exec event") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  for (const auto &c : corpus_captures()) {
    if (c.capture.arch == "gfx950") continue;
    CaptureAnalyzer analyzer(c.capture);
    for (const auto &b : c.capture.blobs) {
      INFO(c.dir.string() << " " << b.file_name);
      const auto tl = analyze_blob(analyzer, b).timeline;
      std::size_t expecting = 0, non_alt = 0;
      for (const auto &row : tl.rows)
        for (const auto &e : row.events) {
          if (row.kind == RowKind::ExecUnit) {
            if (e.name.find("_ALT") == std::string_view::npos) ++non_alt;
          } else if (e.category != EventCategory::Immediate &&
                     e.category != EventCategory::Branch && e.category != EventCategory::Message &&
                     e.category != EventCategory::Barrier && e.category != EventCategory::WaveEnd &&
                     e.category != EventCategory::WaveReady &&
                     e.category != EventCategory::OtherSimd) {
            ++expecting;
          }
        }
      CHECK(non_alt == expecting);
    }
  }
}

TEST_CASE("barrier waits in gfx1100 sync last more than one cycle and end at the next event") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/sync");
  const auto capture = wavescope::trace::Capture::open(dir);
  CaptureAnalyzer analyzer(capture);
  std::vector<std::int64_t> waits;
  for (const auto &b : capture.blobs)
    for (const auto &w : analyze_blob(analyzer, b).waves)
      for (std::size_t i = 0; i < w.instructions.size(); ++i)
        if (w.instructions[i].name == "BARRIER") {
          const auto &inst = w.instructions[i];
          CHECK(inst.barrier_wait > 1);
          CHECK(inst.bar_end - inst.bar_start == inst.barrier_wait);
          waits.push_back(inst.barrier_wait);
        }
  std::sort(waits.begin(), waits.end());
  CHECK(waits == std::vector<std::int64_t>{15, 21});
}

TEST_CASE("CDNA instruction packets of gfx950 gemm all map to a consistent PC walk") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx950/gemm");
  const auto capture = wavescope::trace::Capture::open(dir);
  const auto map = ProgramMap::load(capture.programs[0].code, "gfx950");
  std::uint64_t packets = 0, mapped = 0, waves = 0, complete = 0;
  std::map<std::string_view, std::uint64_t> ops;
  for (const auto &b : capture.blobs) {
    if (!b.itrace) continue;  // other SEs carry no instruction packets
    std::vector<CdnaMappedInstruction> instructions;
    CdnaMapper mapper(map, [&](const CdnaMappedInstruction &i) { instructions.push_back(i); });
    wavescope::trace::sqtt::PacketDecoder decoder;
    decoder.decode(wavescope::testing::sqtt::blob_bytes(b.bytes),
                   [&](const wavescope::trace::sqtt::Packet &p) { mapper.on_packet(p); });
    const auto &r = mapper.report();
    INFO(b.file_name << ": " << r.first_mismatch);
    CHECK(r.lost == 0);
    CHECK(r.without_wave == 0);
    packets += r.inst_packets;
    mapped += r.mapped;
    waves += r.waves;
    complete += r.waves_complete;
    std::map<unsigned, std::uint64_t> last_pc;
    for (const auto &i : instructions) {
      ++ops[i.op];
      REQUIRE(i.instruction != nullptr);
      CHECK(i.issue_gap >= 0);
      if (!last_pc.count(i.simd)) CHECK(i.pc == capture.programs[0].entry_pc);
      last_pc[i.simd] = i.pc;
    }
    for (const auto &[simd, pc] : last_pc) CHECK(map.at(pc)->mnemonic == "s_endpgm");
  }
  CHECK(packets == 200);  // every CDNA_INST of the corpus
  CHECK(mapped == 200);
  CHECK(waves == 4);
  CHECK(complete == 4);
  // One s_cbranch_execz per wave, not taken in all four (the walk goes on into the LDS
  // reduction and matches it): NEXT is a branch not taken. A taken CDNA JUMP is not in the corpus.
  CHECK(ops["NEXT"] == 4);
  CHECK(ops["JUMP"] == 0);
  CHECK(ops["OTHER_MSG"] == 4);  // s_endpgm
}

TEST_CASE("wave rows carry each mapped wave's state timeline, tiling its lifetime, and each "
          "instruction's stall and latency") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t waves_with_states = 0, runs = 0, stalled_cycles = 0, timed_events = 0;
  for (const auto &c : corpus_captures()) {
    CaptureAnalyzer analyzer(c.capture);
    for (const auto &b : c.capture.blobs) {
      INFO(c.dir.string() << " " << b.file_name);
      const auto tl = analyze_blob(analyzer, b).timeline;
      for (const auto &row : tl.rows) {
        if (row.kind == RowKind::ExecUnit) {
          CHECK(row.states.empty());
          continue;
        }
        for (std::size_t i = 0; i < row.states.size(); ++i) {
          const auto &s = row.states[i];
          CHECK(s.end > s.start);
          if (i > 0) CHECK(row.states[i - 1].end <= s.start);  // sorted, not overlapping
          if (s.state == WaveState::Stall) stalled_cycles += std::size_t(s.end - s.start);
        }
        runs += row.states.size();
        for (const auto &e : row.events)
          if (e.stall >= 0) {  // an instruction of the traced unit: latency = stall + execution
            ++timed_events;
            CHECK(e.latency > e.stall);
          }
        // Each mapped wave of this slot: the runs inside its lifetime cover it exactly, from IDLE.
        for (const auto &w : tl.waves) {
          if (!w.mapped || w.slot != row.slot) continue;
          const auto [first, last] = row.states_overlapping(w.start, w.end);
          std::int64_t covered = 0;
          for (std::size_t i = first; i < last; ++i) {
            const auto &s = row.states[i];
            CHECK(s.start >= w.start);
            CHECK(s.end <= w.end);
            covered += s.end - s.start;
          }
          if (covered == 0) continue;  // a mapped wave that issued nothing: no timeline
          ++waves_with_states;
          CHECK(covered == w.end - w.start);
          CHECK(row.states[first].state == WaveState::Idle);
        }
      }
    }
  }
  // The RDNA captures' traced waves (74, test_instruction_timing) all have a timeline.
  CHECK(waves_with_states == 74);
  CHECK(runs > waves_with_states);
  CHECK(stalled_cycles > 0);
  // Every traced instruction but the inserted s_barrier_waits (not VIZ events) and wave ends:
  // 2,712 instructions in test_instruction_timing, 2 of them inserted.
  CHECK(timed_events == 2710);
}
