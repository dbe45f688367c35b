// WaveTraceCollector's records from hand-made events: each instruction's execution-unit events
// (kept in one array per wave, WaveTrace::exec) come back under their instruction in the order
// they arrived, whatever order the units reported them in.

#include <catch2/catch.hpp>

#include "wavescope/trace/timeline/wave_trace.hpp"

using namespace wavescope::trace::timeline;

namespace {

DispatchEvent dispatch(std::uint32_t row_index, std::int64_t time, std::uint64_t pc) {
  DispatchEvent d;
  d.slot = 2;
  d.row_index = row_index;
  d.time = time;
  d.name = "VALU";
  d.has_pc = true;
  d.pc = pc;
  return d;
}

ExecEvent exec(std::uint32_t row_index, std::string_view row, std::int64_t start) {
  ExecEvent e;
  e.row = row;
  e.name = row.substr(row.find(' ') + 1);
  e.start = start;
  e.end = start + 4;
  e.linked = true;
  e.slot = 2;
  e.row_index = row_index;
  return e;
}

}  // namespace

TEST_CASE("exec events land under their instruction in arrival order, wave by wave") {
  WaveTraceCollector c;
  // Two waves on slot 2, one after the other: rows 0-2 and 3-4.
  c.on_dispatch(dispatch(0, 10, 0x100));
  c.on_dispatch(dispatch(1, 11, 0x104));
  c.on_exec(exec(1, "ALUEXEC:0 SALU", 20));  // the second instruction's, first
  c.on_dispatch(dispatch(2, 12, 0x108));
  c.on_exec(exec(0, "ALUEXEC:0 VALU", 21));
  c.on_exec(exec(2, "VMEMEXEC:0 LDS", 22));
  c.on_exec(exec(0, "ALUEXEC:0 VALU", 23));  // a second event of the first instruction
  Wave w;
  w.slot = 2, w.traced = true, w.mapped = true, w.start = 5, w.end = 30;
  c.on_wave(w);
  auto end = dispatch(3, 30, 0x10c);
  end.kind = DispatchKind::WaveEnd;
  c.on_dispatch(end);
  c.on_dispatch(dispatch(4, 40, 0x100));
  c.on_exec(exec(4, "ALUEXEC:0 VALU", 41));
  c.on_exec(exec(9, "ALUEXEC:0 VALU", 42));  // no such row: dropped
  w.start = 35, w.end = 50;
  c.on_wave(w);
  end = dispatch(5, 50, 0x10c);
  end.kind = DispatchKind::WaveEnd;
  c.on_dispatch(end);

  const auto traces = c.take();
  REQUIRE(traces.size() == 2);
  const auto &a = traces[0];
  REQUIRE(a.instructions.size() == 4);
  CHECK(a.exec_spans.size() == 4);
  const auto first = a.exec(a.instructions[0]);
  REQUIRE(first.size() == 2);
  CHECK(first[0].start == 21);
  CHECK(first[1].start == 23);
  CHECK(first[0].row == "ALUEXEC:0 VALU");
  REQUIRE(a.exec(a.instructions[1]).size() == 1);
  CHECK(a.exec(a.instructions[1])[0].row == "ALUEXEC:0 SALU");
  CHECK(a.exec(a.instructions[1])[0].name == "SALU");
  REQUIRE(a.exec(a.instructions[2]).size() == 1);
  CHECK(a.exec(a.instructions[2])[0].start == 22);
  CHECK(a.exec(a.instructions[3]).empty());
  CHECK(a.exec_cycles(a.instructions[0]) == 8);
  CHECK(a.exec_cycles(a.instructions[3]) == 0);

  const auto &b = traces[1];
  REQUIRE(b.instructions.size() == 2);
  REQUIRE(b.exec(b.instructions[0]).size() == 1);
  CHECK(b.exec(b.instructions[0])[0].start == 41);
  CHECK(b.exec_spans.size() == 1);

  // A copy of a trace reads its own array.
  const WaveTrace copy = a;
  CHECK(copy.exec(copy.instructions[0]).data() == copy.exec_spans.data());
  CHECK(copy.exec(copy.instructions[0])[1].start == 23);
}

TEST_CASE("take() gives the waves in the order they ended") {
  WaveTraceCollector c;
  Wave other;  // off the traced unit: no instruction stream
  other.cu = 3;
  // A traced wave starts issuing, then a wave elsewhere ends before it does.
  c.on_dispatch(dispatch(0, 10, 0x100));
  other.start = 1, other.end = 15;
  c.on_wave(other);
  Wave traced;
  traced.slot = 2, traced.traced = true, traced.mapped = true, traced.start = 5, traced.end = 20;
  c.on_wave(traced);
  auto end = dispatch(1, 20, 0x104);
  end.kind = DispatchKind::WaveEnd;
  c.on_dispatch(end);
  other.start = 16, other.end = 25;
  c.on_wave(other);
  auto traces = c.take();
  REQUIRE(traces.size() == 3);
  CHECK(traces[0].wave.end == 15);
  CHECK_FALSE(traces[0].mapped);
  CHECK(traces[1].wave.end == 20);
  CHECK(traces[1].mapped);
  CHECK(traces[1].instructions.size() == 2);
  CHECK(traces[2].wave.end == 25);

  // Waves that were made in the order they ended (here none is traced), after a take().
  for (std::int64_t t = 0; t < 100; ++t) {
    other.start = t, other.end = t + 1;
    c.on_wave(other);
  }
  traces = c.take();
  REQUIRE(traces.size() == 100);
  for (std::size_t k = 0; k < traces.size(); ++k) CHECK(traces[k].wave.end == std::int64_t(k) + 1);
  CHECK(c.take().empty());
}
