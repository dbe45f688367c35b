// The timing table's Stall and Latency columns and its stall/latency bar on real captures: the
// values are the ones `wavectl sqtt insts` computes for the same PC.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

#include <map>

#include "app/selection.hpp"
#include "capture_fixtures.hpp"
#include "gui_test_app.hpp"
#include "models/instruction_timing_model.hpp"
#include "testdata.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/timeline/instruction_stats.hpp"

using namespace wavescope::gui;
using M = InstructionTimingModel;

namespace {

// The kernel-scope model of the capture's first program, checked by QAbstractItemModelTester.
struct KernelTable {
  std::shared_ptr<const CaptureDocument> doc;
  M model;
  QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::Fatal};

  explicit KernelTable(const std::filesystem::path &dir)
      : doc(wavescope::testing::open_corpus_capture(dir)) {
    Focus focus;
    focus.document = 0;
    focus.kernel = 0;
    model.set_table(timing_table_for(*doc, focus), &doc->dispatch(0)->code);
  }
};

// The CLI's rows of the capture's first program, by PC.
std::map<std::uint64_t, wavescope::trace::timeline::PcStat>
cli_rows(const std::filesystem::path &dir, const CaptureDocument &doc) {
  const auto capture = wavescope::trace::Capture::open(dir);
  const auto stats = wavescope::trace::timeline::collect_instruction_stats(capture, "");
  std::map<std::uint64_t, wavescope::trace::timeline::PcStat> rows;
  for (const auto &k : stats.kernels)
    if (k.tag == doc.dispatch(0)->program->tag)
      for (const auto &r : k.stats->rows()) rows[r.pc] = r;
  return rows;
}

}  // namespace

TEST_CASE("stall and latency columns equal the CLI's means per PC on gfx1100 gemm") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  KernelTable t(dir);
  const auto want = cli_rows(dir, *t.doc);
  REQUIRE(t.model.rowCount() == static_cast<int>(want.size()));
  REQUIRE(t.model.rowCount() > 0);
  double max_latency = 0;
  for (const auto &[pc, r] : want) max_latency = std::max(max_latency, r.latency_mean());
  REQUIRE(max_latency > 0);

  int stalled = 0, timed = 0;
  double widest_bar = 0;
  for (int row = 0; row < t.model.rowCount(); ++row) {
    const quint64 pc = t.model.index(row, 0).data(M::AddressRole).toULongLong();
    INFO("pc " << std::hex << pc);
    REQUIRE(want.count(pc));
    const auto &cli = want.at(pc);
    const QModelIndex stall = t.model.index(row, M::StallColumn);
    const QModelIndex latency = t.model.index(row, M::LatencyColumn);
    CHECK(stall.data(M::SortRole).toDouble() == Approx(cli.stall_mean()));
    CHECK(latency.data(M::SortRole).toDouble() == Approx(cli.latency_mean()));
    // Shown only where the trace times the instruction (not the wave ends).
    CHECK(stall.data().toString().isEmpty() == (cli.timed == 0));
    CHECK(latency.data().toString().isEmpty() == (cli.timed == 0));
    const QVariantList bar =
        t.model.index(row, M::StallLatencyBarColumn).data(M::StallLatencyRole).toList();
    if (cli.timed) {
      ++timed;
      REQUIRE(bar.size() == 2);
      CHECK(bar[0].toDouble() == Approx(cli.stall_mean() / max_latency));
      CHECK(bar[1].toDouble() == Approx(cli.latency_mean() / max_latency));
      CHECK(bar[0].toDouble() <= bar[1].toDouble() + 1e-12);  // stall is part of the latency
      widest_bar = std::max(widest_bar, bar[1].toDouble());
      if (cli.stall_total > 0) ++stalled;
    } else {
      CHECK(bar.isEmpty());
    }
  }
  CHECK(timed > 0);
  CHECK(stalled > 0);
  CHECK(widest_bar == Approx(1.0));  // scaled across the table
}

TEST_CASE("the table sorts by mean stall and by mean latency") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  KernelTable t(dir);
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&t.model);
  proxy.setSortRole(M::SortRole);
  for (const int column :
       {int(M::StallColumn), int(M::LatencyColumn), int(M::StallLatencyBarColumn)}) {
    INFO("column " << column);
    proxy.sort(column, Qt::DescendingOrder);
    REQUIRE(proxy.rowCount() > 1);
    for (int row = 1; row < proxy.rowCount(); ++row)
      CHECK(proxy.index(row - 1, column).data(M::SortRole).toDouble() >=
            proxy.index(row, column).data(M::SortRole).toDouble());
  }
}

TEST_CASE("the new columns have headers and tooltips that define them") {
  wavescope::testing::gui_app();
  M model;
  for (const int column :
       {int(M::StallColumn), int(M::LatencyColumn), int(M::StallLatencyBarColumn)}) {
    CHECK(!model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString().isEmpty());
    CHECK(model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString().size() > 40);
  }
  CHECK(model.headerData(M::StallColumn, Qt::Horizontal, Qt::DisplayRole).toString() == "Stall");
  CHECK(model.headerData(M::LatencyColumn, Qt::Horizontal, Qt::DisplayRole).toString() ==
        "Latency");
}

TEST_CASE("CDNA rows have rocprof's stall and latency, as the CLI computes them") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx950/gemm");
  KernelTable t(dir);
  const auto want = cli_rows(dir, *t.doc);
  REQUIRE(t.model.rowCount() == static_cast<int>(want.size()));
  REQUIRE(t.model.rowCount() > 0);
  int stalled = 0;
  for (int row = 0; row < t.model.rowCount(); ++row) {
    const quint64 pc = t.model.index(row, 0).data(M::AddressRole).toULongLong();
    INFO("pc " << std::hex << pc);
    REQUIRE(want.count(pc));
    const auto &cli = want.at(pc);
    CHECK(cli.timed == cli.hits);  // every CDNA instruction is timed
    CHECK(t.model.index(row, M::StallColumn).data(M::SortRole).toDouble() ==
          Approx(cli.stall_mean()));
    CHECK(t.model.index(row, M::LatencyColumn).data(M::SortRole).toDouble() ==
          Approx(cli.latency_mean()));
    CHECK(!t.model.index(row, M::LatencyColumn).data().toString().isEmpty());
    CHECK(!t.model.index(row, M::StallLatencyBarColumn).data(M::StallLatencyRole).isNull());
    CHECK(t.model.index(row, M::HitsColumn).data(M::SortRole).toDouble() > 0);
    if (cli.stall_total > 0) ++stalled;
  }
  CHECK(stalled > 0);
}
