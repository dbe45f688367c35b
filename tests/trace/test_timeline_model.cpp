// The timeline model as a viewer uses it: range queries, links from exec events to dispatches,
// event categories, and the wave occupancy it carries.

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "sqtt_support/analysis.hpp"
#include "sqtt_support/corpus.hpp"

using namespace wavescope::trace::timeline;

TEST_CASE("overlapping() finds exactly the events of any time window on every corpus row") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1200/gemm");
  const auto capture = wavescope::trace::Capture::open(dir);
  CaptureAnalyzer analyzer(capture);
  std::mt19937_64 rng(3);
  std::size_t windows = 0;
  for (const auto &b : capture.blobs) {
    const auto tl = wavescope::testing::sqtt::analyze_blob(analyzer, b).timeline;
    for (const auto &row : tl.rows) {
      INFO(b.file_name << " " << row.name);
      CHECK(std::is_sorted(row.events.begin(), row.events.end(),
                           [](const auto &x, const auto &y) { return x.start < y.start; }));
      for (int i = 0; i < 50; ++i) {
        const auto span = std::max<std::int64_t>(1, tl.end - tl.begin);
        const std::int64_t t0 = tl.begin + std::int64_t(rng() % std::uint64_t(span));
        const std::int64_t t1 = t0 + 1 + std::int64_t(rng() % 200);
        const auto [first, last] = row.overlapping(t0, t1);
        std::size_t found = 0, expected = 0;
        for (std::size_t k = first; k < last; ++k)
          found += row.events[k].end > t0 && row.events[k].start < t1;
        for (const auto &e : row.events) expected += e.end > t0 && e.start < t1;
        CHECK(found == expected);
        ++windows;
      }
    }
  }
  CHECK(windows > 1000);
}

TEST_CASE("exec events link to a dispatch of the same unit, mapped to the same PC") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  const auto capture = wavescope::trace::Capture::open(dir);
  CaptureAnalyzer analyzer(capture);
  std::size_t links = 0;
  for (const auto &b : capture.blobs) {
    const auto tl = wavescope::testing::sqtt::analyze_blob(analyzer, b).timeline;
    for (const auto &row : tl.rows) {
      if (row.kind != RowKind::ExecUnit) continue;
      for (const auto &e : row.events) {
        REQUIRE(e.link_row >= 0);
        const auto &target = tl.rows[std::size_t(e.link_row)];
        REQUIRE(target.kind == RowKind::WaveSlot);
        REQUIRE(e.link_index < target.events.size());
        const auto &d = target.events[e.link_index];
        CHECK(d.index == e.link_index);
        CHECK(d.start <= e.end);  // an exec never ends before its dispatch
        CHECK(e.has_pc == d.has_pc);
        if (e.has_pc) CHECK(e.pc == d.pc);
        // ALT executions belong to OTHER_ dispatches and only they.
        CHECK((e.name.find("_ALT") != std::string_view::npos) ==
              (d.category == EventCategory::OtherSimd));
        ++links;
      }
    }
  }
  CHECK(links > 500);
}

TEST_CASE("event categories group VIZ names for a legend") {
  CHECK(categorize_event("SGMEM_RD_2") == EventCategory::Vmem);
  CHECK(categorize_event("VMEM_WR_2") == EventCategory::Vmem);
  CHECK(categorize_event("SMEM_RD") == EventCategory::Smem);
  CHECK(categorize_event("VALUINST") == EventCategory::Valu);
  CHECK(categorize_event("VALUT_4") == EventCategory::Transcendental);
  CHECK(categorize_event("WMMA_16") == EventCategory::Wmma);
  CHECK(categorize_event("WMMA_VALU_32") == EventCategory::Wmma);
  CHECK(categorize_event("LDS_WR_2") == EventCategory::Lds);
  CHECK(categorize_event("OTHER_LDS_2") == EventCategory::OtherSimd);
  CHECK(categorize_event("BARRIER_SIGNAL") == EventCategory::Barrier);
  CHECK(categorize_event("JUMP_NO") == EventCategory::Branch);
  CHECK(categorize_event("WAVEEND_RDNA4") == EventCategory::WaveEnd);
  CHECK(categorize_event("IMMEDIATE") == EventCategory::Immediate);
  CHECK(to_string(EventCategory::WaveReady) == "wave_ready");
}

TEST_CASE("the model carries every wave of the SE for occupancy, not only the traced unit") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  const auto capture = wavescope::trace::Capture::open(dir);
  CaptureAnalyzer analyzer(capture);
  std::size_t waves = 0, traced = 0;
  for (const auto &b : capture.blobs) {
    const auto tl = wavescope::testing::sqtt::analyze_blob(analyzer, b).timeline;
    for (const auto &w : tl.waves) {
      ++waves;
      traced += w.traced;
      CHECK(w.start >= tl.begin);
      CHECK(w.end <= tl.end);
    }
  }
  CHECK(waves == 1024);
  CHECK(traced < waves);
}

TEST_CASE("every corpus timeline event has the category categorize_event gives its name") {
  // The builder remembers each name's category by its address; the result must be the rule's.
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  std::size_t events = 0, wmma = 0;
  for (const auto &c : wavescope::testing::sqtt::corpus_captures()) {
    CaptureAnalyzer analyzer(c.capture);
    for (const auto &b : c.capture.blobs) {
      const auto tl = wavescope::testing::sqtt::analyze_blob(analyzer, b).timeline;
      for (const auto &row : tl.rows)
        for (const auto &e : row.events) {
          INFO(b.file_name << " " << row.name << " " << e.name);
          EventCategory expected = categorize_event(e.name);
          if (row.kind == RowKind::ExecUnit) {
            const std::string_view unit = std::string_view(row.name).substr(row.name.find(' ') + 1);
            expected = categorize_event(unit);
            if (unit == "VALU" && e.name.find("WMMA") != std::string_view::npos)
              expected = EventCategory::Wmma;
          }
          CHECK(e.category == expected);
          wmma += e.category == EventCategory::Wmma;
          ++events;
        }
    }
  }
  CHECK(events == 5740);  // as many as timeline.jsonl holds
  CHECK(wmma > 0);
}

namespace {

ExecEvent exec_event(std::string_view row, std::string_view name, std::int64_t start) {
  ExecEvent e;
  e.row = row;
  e.name = name;
  e.start = start;
  e.end = start + 2;
  return e;
}

}  // namespace

TEST_CASE("exec rows are sorted by start, equal starts kept in arrival order") {
  TimelineBuilder builder(0, "se0.bin");
  // Nearly in order, as units report them, with ties.
  const std::int64_t starts[] = {5, 3, 3, 9, 7, 7, 1, 12};
  for (auto s : starts) builder.on_exec(exec_event("ALUEXEC:0 VALU", "VALU", s));
  // The same row name from other storage is the same row; the WMMA event on it is Wmma.
  const std::string other = "ALUEXEC:0 VALU";
  builder.on_exec(exec_event(other, "VALU_WMMA", 4));
  // A row in reverse order with ties, longer than an insertion sort is allowed to work.
  for (int i = 0; i < 3000; ++i)
    builder.on_exec(exec_event("VMEMEXEC:0 LDS", "LDS", 3000 - (i / 2) * 2));
  const auto tl = builder.finish();
  REQUIRE(tl.rows.size() == 2);
  const auto &valu = *tl.row("ALUEXEC:0 VALU");
  REQUIRE(valu.events.size() == 9);
  std::vector<std::int64_t> got;
  std::vector<std::uint32_t> order;
  for (const auto &e : valu.events) got.push_back(e.start), order.push_back(e.index);
  CHECK(got == std::vector<std::int64_t>{1, 3, 3, 4, 5, 7, 7, 9, 12});
  CHECK(order == std::vector<std::uint32_t>{6, 1, 2, 8, 0, 4, 5, 3, 7});
  CHECK(valu.events[3].category == EventCategory::Wmma);
  CHECK(valu.events[0].category == EventCategory::Valu);
  const auto &lds = *tl.row("VMEMEXEC:0 LDS");
  REQUIRE(lds.events.size() == 3000);
  CHECK(lds.events.front().start == 2);
  for (std::size_t i = 1; i < lds.events.size(); ++i) {
    CHECK(lds.events[i - 1].start <= lds.events[i].start);
    if (lds.events[i - 1].start == lds.events[i].start)
      CHECK(lds.events[i - 1].index < lds.events[i].index);
  }
  CHECK(lds.events.front().category == EventCategory::Lds);
}
