// The app on tinygrad's rewrites.pkl: told by content and opened as a rewrite trace, the
// navigator lists each kernel's steps with VIZ's "View Source" after linearize/render, every
// record of every pass builds the graph the view draws, the view renders a kernel's graph and its
// source, `--screenshot --view rewrite` works on the pickle, and bad pickles are refused.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QImage>
#include <QPlainTextEdit>

#include <filesystem>
#include <fstream>
#include <set>

#include "app/document.hpp"
#include "app/document_loader.hpp"
#include "app/rewrite_trace_document.hpp"
#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "gui_test_app.hpp"
#include "models/navigator_model.hpp"
#include "models/rewrite_graph.hpp"
#include "process.hpp"
#include "screenshot_check.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "views/rewrite_graph_view.hpp"
#include "views/rewrite_view.hpp"

using namespace wavescope::gui;

namespace {

QString q(const std::filesystem::path &p) { return QString::fromStdString(p.string()); }

std::size_t color_variety(const QImage &image) {
  std::set<QRgb> colors;
  for (int y = 0; y < image.height(); y += 4)
    for (int x = 0; x < image.width(); x += 4) colors.insert(image.pixel(x, y));
  return colors.size();
}

// The group whose name, without colors, is `name`.
int group_named(const RewriteTraceDocument &doc, const std::string &name) {
  for (int g = 0; g < doc.group_count(); ++g)
    if (strip_ansi(doc.group(g)->name) == name) return g;
  return -1;
}

int pass_named(const RewriteTraceDocument &doc, int group, const std::string &name) {
  for (int p = 0; p < doc.pass_count(group); ++p)
    if (doc.pass(group, p)->name == name) return p;
  return -1;
}

}  // namespace

TEST_CASE("rewrites.pkl opens in the rewrite browser, told by content") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  wavescope::testing::gui_app();
  std::size_t seen = 0;
  for (const char *workload : {"matmul_relu_sum", "elementwise", "softmax"}) {
    const auto pkl = root / workload / "rewrites.pkl";
    CHECK(detect_document_kind(q(pkl)) == DocumentKind::RewriteTrace);
    CHECK(detect_document_kind(q(root / workload / "profile.pkl")) != DocumentKind::RewriteTrace);
    const auto doc = load_document(q(pkl));
    REQUIRE(doc->kind() == DocumentKind::RewriteTrace);
    CHECK(doc->title.contains("tinygrad rewrites"));
    ++seen;
  }
  CHECK(seen == 3);
}

TEST_CASE("the navigator walks tinygrad's kernels step by step, with VIZ's view steps") {
  WAVESCOPE_REQUIRE_TESTDATA(pkl, "tinygrad-viz/matmul_relu_sum/rewrites.pkl");
  wavescope::testing::gui_app();
  const auto doc = load_rewrite_trace(q(pkl));
  NavigatorModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const QModelIndex root = model.add_document(*doc, 0);
  REQUIRE(model.rowCount(root) == 7);
  CHECK(model.index(0, 0, root).data().toString() == "Callify 7 Buffers n1");
  const int kernel = group_named(*doc, "r_32_2_64_16_4");
  REQUIRE(kernel >= 0);
  const QModelIndex group = model.index(kernel, 0, root);
  CHECK(group.data().toString() == "r_32_2_64_16_4");
  // Top-level items in VIZ's order: ..., linearize/render - 4, View UOp List, View Source, View
  // Disassembly, View Program, ...
  QStringList names;
  for (int r = 0; r < model.rowCount(group); ++r)
    names << model.index(r, 0, group).data().toString();
  const int render = static_cast<int>(names.indexOf("linearize/render - 4"));
  REQUIRE(render >= 0);
  CHECK(names.value(render + 1) == "View UOp List");
  CHECK(names.value(render + 2) == "View Source");
  CHECK(names.value(render + 3) == "View Disassembly");
  CHECK(names.value(render + 4) == "View Program");
  const ProgramPage pages[] = {ProgramPage::UOpList, ProgramPage::Source, ProgramPage::Disassembly};
  for (int i = 0; i < 3; ++i) {
    const QModelIndex item = model.index(render + 1 + i, 0, group);
    const auto focus = item.data(NavigatorModel::FocusRole).value<Focus>();
    CHECK(focus.page == pages[i]);
    CHECK(focus.group == kernel);
    CHECK(focus.pass ==
          model.index(render, 0, group).data(NavigatorModel::FocusRole).value<Focus>().pass);
    CHECK(model.index_of(focus) == item);
  }
  // A step is named by where its rule is written (tinygrad names no rule).
  const QModelIndex first_step = model.index(0, 0, model.index(render, 0, group));
  CHECK(first_step.data().toString() == "1  codegen/__init__.py:456");
}

TEST_CASE("every record of every pass of a tinygrad trace builds the graph the view draws") {
  WAVESCOPE_REQUIRE_TESTDATA(pkl, "tinygrad-viz/softmax/rewrites.pkl");
  const auto doc = load_rewrite_trace(q(pkl));
  std::size_t records = 0, nodes = 0;
  for (const RewritePassRef &ref : doc->passes())
    for (int k = 0; k <= static_cast<int>(doc->pass(ref.group, ref.pass)->steps.size()); ++k) {
      const RewriteGraph graph = build_rewrite_graph(*doc, ref.group, ref.pass, k, {});
      INFO(doc->pass(ref.group, ref.pass)->name << " record " << k << ": "
                                                << graph.error.toStdString());
      CHECK(graph.error.isEmpty());
      CHECK_FALSE(graph.nodes.empty());
      nodes += graph.nodes.size();
      ++records;
    }
  CHECK(records == doc->passes().size() + doc->step_total());
  CHECK(records == 277 + 1234);
  CHECK(nodes > records);
}

TEST_CASE("the rewrite view renders a tinygrad kernel's graph and its source") {
  WAVESCOPE_REQUIRE_TESTDATA(pkl, "tinygrad-viz/matmul_relu_sum/rewrites.pkl");
  QApplication &app = wavescope::testing::gui_app();
  (void)app;
  Workspace workspace;
  Selection selection;
  RewriteView view{workspace, selection};
  view.resize(1400, 900);
  view.show();
  const auto doc = load_rewrite_trace(q(pkl));
  const int index = workspace.add(doc);
  view.wait_for_layout();
  const auto dir = std::filesystem::path(WAVESCOPE_BUILD_SCREENSHOTS);
  std::filesystem::create_directories(dir);

  const int kernel = group_named(*doc, "r_32_2_64_16_4");
  REQUIRE(kernel >= 0);
  Focus focus;
  focus.document = index;
  focus.group = kernel;
  focus.pass = pass_named(*doc, kernel, "postopt symbolic");
  REQUIRE(focus.pass >= 0);
  focus.step = 0;  // after its first match
  selection.set_focus(focus);
  view.wait_for_layout();
  QApplication::processEvents();
  REQUIRE(view.graph_view().graph());
  CHECK(view.shown_page() == ProgramPage::None);
  CHECK(view.header_text().contains("postopt symbolic"));
  QImage image = view.grab().toImage();
  CHECK(color_variety(image) > 40);
  CHECK(image.save(QString::fromStdString((dir / "tinygrad-rewrite-step.png").string())));

  focus.step = -1;
  focus.pass = pass_named(*doc, kernel, "linearize/render");
  focus.page = ProgramPage::Source;
  selection.set_focus(focus);
  QApplication::processEvents();
  REQUIRE(view.shown_page() == ProgramPage::Source);
  CHECK(view.page_text().contains("void r_32_2_64_16_4("));
  CHECK(view.page_text().contains("for (int Lidx2 = 0; Lidx2 < 32; Lidx2++)"));
  CHECK(view.program_view().language() == SourceLanguage::C);
  image = view.grab().toImage();
  CHECK(image.save(QString::fromStdString((dir / "tinygrad-source.png").string())));

  // The linearized list: one line per node of tinygrad's LINEAR, its SINK last.
  focus.page = ProgramPage::UOpList;
  selection.set_focus(focus);
  REQUIRE(view.shown_page() == ProgramPage::UOpList);
  const QStringList lines = view.page_text().split('\n', Qt::SkipEmptyParts);
  CHECK(lines.size() == 121);
  CHECK(lines.last().contains("SINK"));
  CHECK(view.header_text().contains("View UOp List"));
  CHECK(view.program_view().editor().toPlainText() == view.page_text());
  image = view.grab().toImage();
  CHECK(image.save(QString::fromStdString((dir / "tinygrad-uop-list.png").string())));

  // Its binary is an x86-64 object (VIZ runs objdump): described, not disassembled.
  focus.page = ProgramPage::Disassembly;
  selection.set_focus(focus);
  REQUIRE(view.shown_page() == ProgramPage::Disassembly);
  CHECK(view.page_text().contains("x86-64 ELF object, 896 bytes"));

  // Back to a graph.
  focus.page = ProgramPage::None;
  focus.pass = 0;
  selection.set_focus(focus);
  view.wait_for_layout();
  CHECK(view.shown_page() == ProgramPage::None);
}

TEST_CASE("screenshot of the rewrite view on tinygrad's rewrites.pkl, bad pickles exit 3") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "tinygrad-viz/softmax");
  wavescope::testing::check_screenshot({(dir / "rewrites.pkl").string()}, "rewrite",
                                       "tinygrad-rewrite");
  const wavescope::testing::TempDir temp;
  const auto bad = temp.path / "rewrites.pkl";
  {
    std::ifstream in(dir / "rewrites.pkl", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(bad, std::ios::binary) << bytes.substr(0, 20000);
  }
  const auto r =
      wavescope::testing::run_process({WAVESCOPE_APP_BINARY, bad.string(), "--screenshot",
                                       (temp.path / "bad.png").string(), "--view", "rewrite"},
                                      {"QT_QPA_PLATFORM=offscreen"});
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::Contains(bad.string()) && Catch::Contains("byte "));
  CHECK_FALSE(std::filesystem::exists(temp.path / "bad.png"));
}
