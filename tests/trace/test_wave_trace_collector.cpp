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
