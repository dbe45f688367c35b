// Our own compile traces in the rewrite browser as tinygrad's are: conv2d compiled for c, cpu and
// gfx1100 (`wavectl compile conv2d --target T --trace t.json`) ends each kernel group with
// linearize/render, after which the navigator offers View UOp List, View Source and View
// Disassembly, and the view shows the linearized list, the C or LLVM IR (highlighted as such) and
// the code object's disassembly in place of the graph.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QImage>

#include <filesystem>
#include <set>

#include "app/rewrite_trace_document.hpp"
#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "gui_test_app.hpp"
#include "models/navigator_model.hpp"
#include "models/rewrite_op_style.hpp"
#include "process.hpp"
#include "screenshot_check.hpp"
#include "temp_dir.hpp"
#include "views/rewrite_graph_view.hpp"
#include "views/rewrite_view.hpp"
#include "wavescope/compiler/codegen/emit.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

using namespace wavescope::gui;
using namespace wavescope::compiler;

namespace {

// The trace `wavectl compile conv2d --target TARGET --trace` writes.
rewrite::RewriteTrace record_compile(const std::string &target) {
  rewrite::RewriteTrace trace;
  {
    rewrite::TraceSession session(trace);
    for (const auto &k : kernel::builtin_example("conv2d")) {
      rewrite::TraceGroup group(kernel::kernel_name(k));
      (void)codegen::emit_kernel(k, target, codegen::default_emit(target));
    }
  }
  return trace;
}

// That trace opened as the app opens it.
std::shared_ptr<RewriteTraceDocument> compile_trace(const std::string &target) {
  const rewrite::RewriteTrace trace = record_compile(target);
  const auto file =
      std::filesystem::temp_directory_path() / ("wavescope-program-" + target + ".json");
  trace.write_json(file.string());
  auto doc = load_rewrite_trace(QString::fromStdString(file.string()));
  std::filesystem::remove(file);
  return doc;
}

std::size_t color_variety(const QImage &image) {
  std::set<QRgb> colors;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colors.insert(image.pixel(x, y));
  return colors.size();
}

}  // namespace

TEST_CASE("our compile traces list VIZ's view steps after linearize/render") {
  wavescope::testing::gui_app();
  for (const std::string target : {"c", "cpu", "gfx1100"}) {
    INFO(target);
    const auto doc = compile_trace(target);
    NavigatorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const QModelIndex root = model.add_document(*doc, 0);
    REQUIRE(model.rowCount(root) == 1);
    const QModelIndex group = model.index(0, 0, root);
    const int rows = model.rowCount(group);
    REQUIRE(rows > 30);  // the lowering's passes, then the program
    CHECK(model.index(rows - 4, 0, group).data().toString().startsWith("linearize/render - "));
    CHECK(model.index(rows - 3, 0, group).data().toString() == "View UOp List");
    CHECK(model.index(rows - 2, 0, group).data().toString() == "View Source");
    CHECK(model.index(rows - 1, 0, group).data().toString() == "View Disassembly");
    const auto focus =
        model.index(rows - 2, 0, group).data(NavigatorModel::FocusRole).value<Focus>();
    CHECK(focus.page == ProgramPage::Source);
    CHECK(doc->pass(focus.group, focus.pass)->name == "linearize/render");
  }
}

TEST_CASE("the rewrite view shows our kernels' list, source and disassembly") {
  QApplication &app = wavescope::testing::gui_app();
  (void)app;
  const auto dir = std::filesystem::path(WAVESCOPE_BUILD_SCREENSHOTS);
  std::filesystem::create_directories(dir);
  struct Case {
    std::string target;
    SourceLanguage language;
    const char *source_has;
    const char *disassembly_has;
  };
  for (const Case &tc :
       {Case{"c", SourceLanguage::C, "void r_4_9_9_3_3_3(", "No binary found"},
        Case{"cpu", SourceLanguage::LlvmIr, "define void @r_4_9_9_3_3_3(", "No binary found"},
        Case{"gfx1100", SourceLanguage::LlvmIr, "define amdgpu_kernel void", "s_endpgm"}}) {
    INFO(tc.target);
    Workspace workspace;
    Selection selection;
    RewriteView view{workspace, selection};
    view.resize(1400, 900);
    view.show();
    const auto doc = compile_trace(tc.target);
    QApplication::processEvents();
    const QList<int> graph_sizes = view.split_sizes();
    Focus focus;
    focus.document = workspace.add(doc);
    focus.group = 0;
    focus.pass = doc->pass_count(0) - 1;
    REQUIRE(doc->pass(0, focus.pass)->name == "linearize/render");

    focus.page = ProgramPage::Source;
    selection.set_focus(focus);
    QApplication::processEvents();
    REQUIRE(view.shown_page() == ProgramPage::Source);
    CHECK(view.page_text().contains(tc.source_has));
    CHECK(view.program_view().language() == tc.language);
    CHECK(view.header_text().contains("View Source"));
    CHECK_FALSE(view.inspecting_steps());  // VIZ's right pane is empty beside a view step
    REQUIRE(view.split_sizes().size() == 2);
    CHECK(view.split_sizes()[1] == 300);  // the text gets the room
    const QImage image = view.grab().toImage();
    CHECK(color_variety(image) > 12);  // highlighted, not one color
    CHECK(image.save(
        QString::fromStdString((dir / ("lowering-source-" + tc.target + ".png")).string())));

    focus.page = ProgramPage::UOpList;
    selection.set_focus(focus);
    REQUIRE(view.shown_page() == ProgramPage::UOpList);
    CHECK(view.page_text().contains("STORE"));
    CHECK(view.program_view().language() == SourceLanguage::UOpList);

    focus.page = ProgramPage::Disassembly;
    selection.set_focus(focus);
    REQUIRE(view.shown_page() == ProgramPage::Disassembly);
    CHECK(view.page_text().contains(tc.disassembly_has));
    CHECK(view.program_view().language() == SourceLanguage::Assembly);
    if (tc.target == "gfx1100")
      CHECK(view.grab().toImage().save(
          QString::fromStdString((dir / "lowering-disassembly-gfx1100.png").string())));

    // Back to the pass's graph.
    focus.page = ProgramPage::None;
    selection.set_focus(focus);
    view.wait_for_layout();
    CHECK(view.shown_page() == ProgramPage::None);
    CHECK(view.inspecting_steps());
    CHECK(view.split_sizes() == graph_sizes);
    CHECK(view.position().pass == focus.pass);

    // The lowered kernel's graph has a dozen op groups and more: the legend (in one column or
    // two) finds a corner where it hides no node.
    auto &g = view.graph_view();
    REQUIRE(g.graph());
    QApplication::processEvents();
    std::set<QString> groups;
    for (const auto &node : g.graph()->nodes) groups.insert(op_style(node.uop.op()).group);
    CHECK(groups.size() > 8);
    const QRectF legend = g.mapToScene(g.legend_area().toAlignedRect()).boundingRect();
    int covered = 0;
    for (std::size_t i = 0; i < g.graph()->nodes.size(); ++i)
      covered += g.node_rect(static_cast<int>(i)).intersects(legend);
    CHECK(covered == 0);
  }
}

TEST_CASE("wavescope --screenshot --select \"View Source\" renders a compile trace's program") {
  const wavescope::testing::TempDir temp;
  const auto trace = temp.path / "conv2d-gfx1100.json";
  record_compile("gfx1100").write_json(trace.string());
  wavescope::testing::check_screenshot({trace.string()}, "rewrite", "lowering-source-app",
                                       {"--select", "View Source"});
  wavescope::testing::check_screenshot({trace.string()}, "rewrite", "lowering-graph-app");
  // An item the navigator does not have is a usage error, and nothing is written.
  const auto out = temp.path / "none.png";
  const auto r = wavescope::testing::run_process({WAVESCOPE_APP_BINARY, trace.string(),
                                                  "--screenshot", out.string(), "--view", "rewrite",
                                                  "--select", "View Nothing"},
                                                 {"QT_QPA_PLATFORM=offscreen"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("no navigator item starts with 'View Nothing'"));
  CHECK_FALSE(std::filesystem::exists(out));
}
