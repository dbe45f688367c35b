// The capture views driven through the workspace and the shared selection: what each shows for a
// focus, and how a PC selected in one becomes the selection in all the others.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTreeView>

#include "app/capture_document.hpp"
#include "app/main_window.hpp"
#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "capture_fixtures.hpp"
#include "gui_test_app.hpp"
#include "models/counters_model.hpp"
#include "models/disassembly_model.hpp"
#include "models/instruction_timing_model.hpp"
#include "models/navigator_model.hpp"
#include "models/wave_timeline_model.hpp"
#include "testdata.hpp"
#include "views/cfg_view.hpp"
#include "views/clock_chart.hpp"
#include "views/counters_view.hpp"
#include "views/isa_view.hpp"
#include "views/timing_view.hpp"
#include "views/wave_timeline_widget.hpp"
#include "views/waves_view.hpp"

using namespace wavescope::gui;

namespace {

struct Views {
  Workspace workspace;
  Selection selection;
  WavesView waves{workspace, selection};
  TimingView timing{workspace, selection};
  IsaView isa{workspace, selection};
  CfgView cfg{workspace, selection};
  CountersView counters{workspace, selection};
  int document = -1;

  explicit Views(const std::filesystem::path &dir) {
    document = workspace.add(load_capture(QString::fromStdString(dir.string())));
  }
  void focus(int kernel, int se = -1, int wave = -1) {
    Focus f;
    f.document = document;
    f.kernel = kernel;
    f.shader_engine = se;
    f.wave = wave;
    selection.set_focus(f);
  }
  const CaptureDocument &doc() const {
    return static_cast<const CaptureDocument &>(*workspace.document(document));
  }
};

}  // namespace

TEST_CASE("focusing a kernel shows its busiest SE, its timing, ISA heat, CFG and counters") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  Views v(dir);
  v.focus(0);
  const auto &dispatch = *v.doc().dispatch(0);
  const auto *shown = v.waves.model().timeline();
  REQUIRE(shown);
  CHECK(shown == &dispatch.engines[static_cast<std::size_t>(dispatch.default_engine())].timeline);
  CHECK(dispatch.engines[static_cast<std::size_t>(dispatch.default_engine())].mapped_instructions >
        0);
  CHECK(v.timing.model().rowCount() > 50);
  CHECK(v.timing.model().table().scope.contains("all 6 SEs"));
  CHECK(v.isa.model().rowCount() > 50);
  int heated = 0;
  for (int r = 0; r < v.isa.model().rowCount(); ++r)
    heated += v.isa.model().index(r, 0).data(DisassemblyModel::HeatRole).isValid();
  CHECK(heated == v.timing.model().rowCount());
  CHECK(v.cfg.block_count() == dispatch.code.cfg.blocks.size());
  CHECK(v.counters.model().rowCount() == 1 + 8);  // metrics, then 8 counters
  CHECK(v.counters.chart().plotted_engines() == 6);
  CHECK(v.waves.inspector_text().contains("170 on the SE"));
}

TEST_CASE("a timing row, a timeline bar and an ISA line select the same PC everywhere") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/sync");
  Views v(dir);
  v.focus(0, 1);  // custom_lds_sync on SE 1, where its waves were traced

  // Timing row -> everything.
  auto &table = v.timing.table();
  const QModelIndex row = v.timing.proxy().index(5, 0);
  table.setCurrentIndex(row);
  const quint64 pc = row.data(InstructionTimingModel::AddressRole).toULongLong();
  REQUIRE(v.selection.pc() == pc);
  CHECK(v.isa.model().index(v.isa.model().row_of_address(pc), 0).isValid());
  const auto *event = v.waves.model().event(v.waves.timeline().selected());
  REQUIRE(event);
  CHECK(event->pc == pc);

  // Timeline bar -> timing and ISA.
  const auto other = v.waves.model().first_with_pc(
      v.timing.proxy().index(2, 0).data(InstructionTimingModel::AddressRole).toULongLong(), 0);
  REQUIRE(other.valid());
  v.waves.timeline().select(other);
  const quint64 pc2 = v.waves.model().event(other)->pc;
  CHECK(v.selection.pc() == pc2);
  CHECK(table.currentIndex().data(InstructionTimingModel::AddressRole).toULongLong() == pc2);

  // Selecting an exec bar selects the instruction its dispatch issued.
  const auto exec = v.waves.model().partner(other);
  if (exec.valid()) {
    v.waves.timeline().select(exec);
    CHECK(v.selection.pc() == pc2);
  }
}

TEST_CASE("focusing a wave zooms to its lifetime and scopes the timing table to it") {
  wavescope::testing::gui_app();
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1200/handwritten");
  Views v(dir);
  const auto &engines = v.doc().dispatch(0)->engines;
  int se = -1, wave = -1;
  for (int s = 0; s < static_cast<int>(engines.size()) && wave < 0; ++s)
    for (int w = 0;
         w < static_cast<int>(engines[static_cast<std::size_t>(s)].timeline.waves.size()); ++w)
      if (const auto *t = engines[static_cast<std::size_t>(s)].mapped_trace(w);
          t && t->instructions.size() > 100) {
        se = s;
        wave = w;
        break;
      }
  REQUIRE(wave >= 0);
  v.focus(0, se, wave);
  const auto &w =
      engines[static_cast<std::size_t>(se)].timeline.waves[static_cast<std::size_t>(wave)];
  const auto [t0, t1] = v.waves.timeline().visible_range();
  CHECK(t0 <= w.start);
  CHECK(t1 >= w.end);
  CHECK((t1 - t0) < (w.end - w.start) * 1.3);
  CHECK(v.waves.timeline().frame().focused_wave == wave);
  CHECK(v.waves.model().wave_of_event(v.waves.timeline().selected()) == wave);
  CHECK(v.timing.model().table().scope.contains(QStringLiteral("wave %1").arg(wave)));
  CHECK(v.timing.model().table().waves == 1);
  CHECK(v.timing.model().table().total_hits ==
        engines[static_cast<std::size_t>(se)].mapped_trace(wave)->instructions.size());
  // The wave's first instruction is the selection in every view, whichever handled the focus
  // first.
  const auto pc = v.selection.pc();
  REQUIRE(pc);
  CHECK(v.timing.table().currentIndex().data(InstructionTimingModel::AddressRole).toULongLong() ==
        *pc);
  const auto *isa_table = v.isa.findChild<QTableView *>();
  REQUIRE(isa_table);
  CHECK(isa_table->currentIndex().data(DisassemblyModel::AddressRole).toULongLong() == *pc);
  v.selection.back();  // history: back to nothing focused
  CHECK(v.waves.model().timeline() == nullptr);
}

TEST_CASE("the counters model is a valid tree for every PMC sample of the corpus") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  wavescope::testing::gui_app();
  std::size_t samples = 0;
  for (const auto &dir : wavescope::testing::sqtt_capture_dirs()) {
    const auto doc = wavescope::testing::open_corpus_capture(dir);
    for (int k = 0; k < doc->kernel_count(); ++k)
      for (const auto &counters : doc->dispatch(k)->counters) {
        INFO(dir.string() << " " << counters.file);
        CountersModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        model.set_counters(counters);
        const int metrics = counters.metrics.empty() ? 0 : 1;
        REQUIRE(model.rowCount() == static_cast<int>(counters.counters.size()) + metrics);
        if (metrics)
          CHECK(model.rowCount(model.index(0, 0)) == static_cast<int>(counters.metrics.size()));
        for (std::size_t c = 0; c < counters.counters.size(); ++c) {
          const auto &sample = counters.counters[c];
          const QModelIndex top = model.index(static_cast<int>(c) + metrics, 0);
          CHECK(top.data().toString().toStdString() == sample.name);
          CHECK(model.index(top.row(), CountersModel::SumColumn)
                    .data(CountersModel::SortRole)
                    .toULongLong() == sample.sum);
          REQUIRE(model.rowCount(top) == static_cast<int>(sample.rows.size()));
          // The instance rows add up to the counter's sum.
          qulonglong sum = 0;
          for (int r = 0; r < model.rowCount(top); ++r)
            sum += model.index(r, CountersModel::SumColumn, top)
                       .data(CountersModel::SortRole)
                       .toULongLong();
          if (!sample.sum_saturated) CHECK(sum == sample.sum);
        }
        ++samples;
      }
  }
  CHECK(samples == 14);
}

TEST_CASE("the demo opens both embedded captures and the trace, the gemm capture focused") {
  wavescope::testing::gui_app();
  MainWindow window;
  window.set_interactive(false);
  window.open_demo();
  window.wait_until_idle();
  REQUIRE(window.errors().isEmpty());
  REQUIRE(window.workspace().size() == 4);
  CHECK(window.workspace().document(0)->kind() == DocumentKind::Capture);
  CHECK(window.workspace().document(0)->title.startsWith("gemm"));
  CHECK(window.workspace().document(1)->title.startsWith("sync"));
  CHECK(window.workspace().document(2)->kind() == DocumentKind::RewriteTrace);
  CHECK(window.workspace().document(3)->kind() == DocumentKind::Profile);
  CHECK(window.selection().focus().document == 0);
  CHECK(window.selection().focus().kernel == 0);
  CHECK(window.view_names() == QStringList({"waves", "timing", "isa", "cfg", "counters", "rewrite",
                                            "timeline", "memory", "flash"}));
}

TEST_CASE("the navigator moves the focus to a capture's SE and back, and filters") {
  wavescope::testing::gui_app();
  MainWindow window;
  window.set_interactive(false);
  window.open_demo();
  window.wait_until_idle();
  REQUIRE(window.workspace().size() == 4);
  // The navigator's tree is the one showing a proxy of the NavigatorModel.
  QTreeView *tree = nullptr;
  for (auto *candidate : window.findChildren<QTreeView *>())
    if (auto *proxy = qobject_cast<QSortFilterProxyModel *>(candidate->model());
        proxy && proxy->sourceModel() == &window.navigator())
      tree = candidate;
  REQUIRE(tree);
  auto *proxy = static_cast<QSortFilterProxyModel *>(tree->model());
  const Focus kernel = window.selection().focus();
  Focus se = kernel;
  se.shader_engine = 1;
  const QModelIndex item = proxy->mapFromSource(window.navigator().index_of(se));
  REQUIRE(item.isValid());
  tree->setCurrentIndex(item);  // as a click or the arrow keys would
  CHECK(window.selection().focus() == se);
  window.selection().back();
  CHECK(window.selection().focus() == kernel);
  CHECK(tree->currentIndex().data(NavigatorModel::FocusRole).value<Focus>() == kernel);
  window.selection().forward();
  CHECK(tree->currentIndex() == item);

  const int all = proxy->rowCount();
  proxy->setFilterFixedString("E_32_4");  // the sync capture's second kernel only
  CHECK(proxy->rowCount() == 1);
  CHECK(proxy->rowCount(proxy->index(0, 0)) == 1);
  proxy->setFilterFixedString({});
  CHECK(proxy->rowCount() == all);
}
