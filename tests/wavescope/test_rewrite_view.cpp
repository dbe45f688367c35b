// The rewrite browser as a user drives it: the navigator's trace -> group -> pass -> step items,
// the view's models under QAbstractItemModelTester, ←/→/↑/↓ through steps and passes, clicking
// nodes, rule statistics, large traces laid out off the GUI thread, and a rendered step.

#include <catch2/catch.hpp>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QImage>
#include <QSignalSpy>
#include <QTest>

#include <filesystem>
#include <set>

#include "app/code_object_document.hpp"
#include "app/rewrite_trace_document.hpp"
#include "app/selection.hpp"
#include "app/workspace.hpp"
#include "gui_test_app.hpp"
#include "models/navigator_model.hpp"
#include "models/rewrite_node_model.hpp"
#include "models/rewrite_rules_model.hpp"
#include "models/rewrite_steps_model.hpp"
#include "testdata.hpp"
#include "views/rewrite_graph_view.hpp"
#include "views/rewrite_view.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

using namespace wavescope::gui;
using namespace wavescope::compiler;

namespace {

const auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

std::shared_ptr<RewriteTraceDocument> demo_trace() {
  return load_rewrite_trace(QString::fromStdString(
      (wavescope::testing::source_root() / "resources/demo/rewrite/demo-rewrites.json").string()));
}

// A group whose first pass runs a rule that starts a nested pass, then a second top-level pass.
std::shared_ptr<RewriteTraceDocument> nested_trace() {
  using namespace rewrite;
  const UOp a = variable("a", 0, 8);
  PatternMatcher inner("inner",
                       {rule("x*1 -> x", var("x") * 1, [](const Match &m) { return m["x"]; })});
  PatternMatcher outer("outer", {rule("simplify the operand", pat_any_src(Op::NEG).named("n"),
                                      [&](const Match &m) -> UOp {
                                        RewriteOptions o;
                                        o.name = "nested";
                                        const UOp s = graph_rewrite(m["n"].src(0), inner, o);
                                        return s == m["n"].src(0) ? UOp{} : alu(Op::NEG, {s});
                                      })});
  RewriteTrace trace;
  {
    TraceSession session(trace);
    TraceGroup group("kernel k");
    RewriteOptions o;
    o.name = "outer";
    const UOp out = graph_rewrite(alu(Op::NEG, {a * 1}), outer, o);
    symbolic::simplify(out + 0, symbolic::sym(), "final");
  }
  auto doc = std::make_shared<RewriteTraceDocument>(std::move(trace));
  doc->title = "nested";
  return doc;
}

struct ViewFixture {
  QApplication &app = wavescope::testing::gui_app();  // before any widget
  Workspace workspace;
  Selection selection;
  RewriteView view{workspace, selection};
  int doc = -1;
  explicit ViewFixture(std::shared_ptr<Document> document) {
    view.resize(1300, 900);
    view.show();
    doc = workspace.add(std::move(document));
    view.wait_for_layout();
  }
  void key(int key) {
    QTest::keyClick(&view.graph_view(), static_cast<Qt::Key>(key));
    view.wait_for_layout();
  }
  void focus(int group, int pass, int step) {
    Focus f;
    f.document = doc;
    f.group = group;
    f.pass = pass;
    f.step = step;
    selection.set_focus(f);
    view.wait_for_layout();
  }
};

}  // namespace

TEST_CASE("the navigator lists a rewrite trace's groups, passes and steps") {
  wavescope::testing::gui_app();
  const auto doc = demo_trace();
  NavigatorModel model;
  QAbstractItemModelTester tester(&model, kFatal);
  const QModelIndex root = model.add_document(*doc, 2);
  REQUIRE(model.rowCount(root) == 10);
  const QModelIndex group = model.index(0, 0, root);
  CHECK(group.data().toString() == "gated index (tinygrad test_valid_order_matters2)");
  REQUIRE(model.rowCount(group) == 1);
  const QModelIndex pass = model.index(0, 0, group);
  CHECK(pass.data().toString() == "simplify - 4");  // VIZ's "name - N"
  CHECK(pass.data(Qt::ToolTipRole).toString().contains("simplify_command.cpp:"));
  REQUIRE(model.rowCount(pass) == 4);
  const QModelIndex step = model.index(0, 0, pass);
  CHECK(step.data().toString() == "1  valid: simplify the clauses of a valid");
  const auto focus = step.data(NavigatorModel::FocusRole).value<Focus>();
  CHECK(focus.document == 2);
  CHECK(focus.group == 0);
  CHECK(focus.pass == 0);
  CHECK(focus.step == 0);
  CHECK(model.index_of(focus) == step);
  const auto pass_focus = pass.data(NavigatorModel::FocusRole).value<Focus>();
  CHECK(pass_focus.step == -1);
  // The largest pass lists every step.
  const QModelIndex fuzz7 = model.index(0, 0, model.index(9, 0, root));
  CHECK(fuzz7.data().toString() == "simplify - 45");
  CHECK(model.rowCount(fuzz7) == 45);
}

TEST_CASE("the navigator nests a rewrite pass started inside a rule under its parent") {
  wavescope::testing::gui_app();
  const auto doc = nested_trace();
  NavigatorModel model;
  QAbstractItemModelTester tester(&model, kFatal);
  const QModelIndex root = model.add_document(*doc, 0);
  const QModelIndex group = model.index(0, 0, root);
  CHECK(group.data().toString() == "kernel k");
  // outer (depth 0) holds its step, then the two nested passes; "final" is outer's sibling.
  REQUIRE(model.rowCount(group) == 2);
  const QModelIndex outer = model.index(0, 0, group);
  CHECK(outer.data().toString() == "outer - 1");
  REQUIRE(model.rowCount(outer) == 3);
  CHECK(model.index(0, 0, outer).data().toString() == "1  outer: simplify the operand");
  CHECK(model.index(1, 0, outer).data().toString() == "nested - 1");
  CHECK(model.index(2, 0, outer).data().toString() == "nested");
  CHECK(model.index(1, 0, outer).data(NavigatorModel::FocusRole).value<Focus>().pass == 1);
  CHECK(model.index(1, 0, group).data().toString().startsWith("final"));
}

TEST_CASE("the rewrite view's models pass QAbstractItemModelTester") {
  wavescope::testing::gui_app();
  const auto doc = demo_trace();
  RewriteStepsModel steps;
  RewriteNodeModel node;
  RewriteRulesModel rules;
  QAbstractItemModelTester t1(&steps, kFatal), t2(&node, kFatal), t3(&rules, kFatal);
  CHECK(steps.rowCount() == 0);
  steps.set_pass(doc->pass(9, 0));
  CHECK(steps.rowCount() == 46);
  CHECK(steps.index(0, RewriteStepsModel::RuleColumn).data().toString() == "input graph");
  CHECK(steps.index(1, RewriteStepsModel::IndexColumn).data().toInt() == 1);
  CHECK(steps.index(1, RewriteStepsModel::RuleColumn).data().toString().toStdString() ==
        doc->pass(9, 0)->steps[0].rule);
  steps.set_pass(nullptr);
  CHECK(steps.rowCount() == 0);

  rules.set_group(doc->group(9));
  int hits = 0;
  for (int r = 0; r < rules.rowCount(); ++r)
    hits += rules.index(r, RewriteRulesModel::HitsColumn).data().toInt();
  CHECK(hits == 45);
  for (int r = 1; r < rules.rowCount(); ++r)  // most applied first
    CHECK(rules.rules()[static_cast<std::size_t>(r - 1)].hits >=
          rules.rules()[static_cast<std::size_t>(r)].hits);

  const RewriteRecord record = doc->record(1, 0, 1);
  node.set_node({record.after, RewriteNodeMark::Replacement, 0, doc->trace_id(record.after)});
  CHECK(node.value("op") == "MUL");
  CHECK(node.value("expression") == "x//3%20*2");
  CHECK(node.value("interval") == "[0, 38]");
  CHECK(node.value("this step") == "the rule's result");
  CHECK(node.value("trace id") == QString::number(doc->pass(1, 0)->steps[0].after));
  node.set_node({});
  CHECK(node.rowCount() == 0);
}

TEST_CASE("arrow keys step through a rewrite pass and move between passes") {
  ViewFixture f(demo_trace());
  // The first trace opened shows without a focus on it: group 0, the input graph.
  CHECK(f.view.document_index() == f.doc);
  CHECK(f.view.position() == RewritePosition{0, 0, 0});
  REQUIRE(f.view.graph_view().graph());
  CHECK(f.view.graph_view().graph()->graph_nodes == 24);
  f.key(Qt::Key_Right);
  CHECK(f.view.position() == RewritePosition{0, 0, 1});
  CHECK(f.selection.focus().step == 0);  // the app's focus moved, so the navigator follows
  CHECK(f.view.header_text().contains("step 1/4"));
  CHECK(f.view.header_text().contains("simplify the clauses of a valid"));
  CHECK(f.view.header_text().contains("valid.cpp:"));
  f.key(Qt::Key_Right);
  f.key(Qt::Key_Right);
  f.key(Qt::Key_Right);
  f.key(Qt::Key_Right);  // past the last step: stays
  CHECK(f.view.position() == RewritePosition{0, 0, 4});
  CHECK(f.view.graph_view().graph()->graph_nodes == 1);  // simplified to false
  f.key(Qt::Key_Left);
  CHECK(f.view.position() == RewritePosition{0, 0, 3});
  f.key(Qt::Key_Down);
  CHECK(f.view.position() == RewritePosition{1, 0, 0});
  f.key(Qt::Key_Down);
  CHECK(f.view.position() == RewritePosition{2, 0, 0});
  f.key(Qt::Key_Up);
  CHECK(f.view.position() == RewritePosition{1, 0, 0});
  // Back returns to the previous focus, with its step.
  f.selection.back();
  f.view.wait_for_layout();
  CHECK(f.view.position() == RewritePosition{2, 0, 0});
  f.selection.back();
  f.selection.back();
  f.view.wait_for_layout();
  CHECK(f.view.position() == RewritePosition{0, 0, 3});
}

TEST_CASE("the rewrite view shows a step's rule, diff and marked nodes") {
  ViewFixture f(demo_trace());
  f.focus(1, 0, 0);  // strided index: its one recombine step
  CHECK(f.view.position() == RewritePosition{1, 0, 1});
  const QString header = f.view.header_text();
  CHECK(header.contains("step 1/1"));
  CHECK(header.contains("recombine"));
  CHECK(header.contains("(b%D)*m + (b//D)*D*m -> b*m"));
  CHECK(header.contains("recombine.cpp:"));
  CHECK(header.contains("pass 2 of 10"));
  const QString diff = f.view.diff_text();
  CHECK(diff.contains("before  x//3%4*2+x//12%5*8"));
  CHECK(diff.contains("after   x//3%20*2"));
  CHECK(diff.contains("-ADD index  x//3%4*2+x//12%5*8  [0, 38]"));
  CHECK(diff.contains("+MUL index  x//3%20*2  [0, 38]"));
  CHECK(diff.contains(" FLOORDIV index  x//3  [0, 66]"));
  CHECK(f.view.graph_text().startsWith("graph  x//3%20*2"));
  // The rule's result and what it created are outlined; nothing else is.
  const RewriteGraph &graph = *f.view.graph_view().graph();
  std::set<std::string> marked;
  for (const auto &n : graph.nodes)
    if (n.mark != RewriteNodeMark::Unchanged) marked.insert(symbolic::render_expression(n.uop));
  CHECK(marked == std::set<std::string>{"x//3%20*2", "x//3%20", "20"});
  // The node tab starts on the rule's result.
  CHECK(f.view.node_model().value("expression") == "x//3%20*2");
  CHECK(f.view.node_model().value("consumers") == "0");
  // The steps table follows the record.
  CHECK(f.view.steps_model().rowCount() == 2);
}

TEST_CASE("clicking a rewrite graph node selects it and shows its details") {
  ViewFixture f(demo_trace());
  f.focus(1, 0, -1);
  RewriteGraphView &g = f.view.graph_view();
  const RewriteGraph &graph = *g.graph();
  int floordiv = -1;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    if (symbolic::render_expression(graph.nodes[i].uop) == "x//3") floordiv = static_cast<int>(i);
  REQUIRE(floordiv >= 0);
  QSignalSpy clicked(&g, &RewriteGraphView::node_clicked);
  const QPoint at = g.mapFromScene(g.node_rect(floordiv).center());
  QTest::mouseClick(g.viewport(), Qt::LeftButton, {}, at);
  REQUIRE(clicked.count() == 1);
  CHECK(clicked.front().front().toInt() == floordiv);
  CHECK(g.selected_node() == floordiv);
  CHECK(f.view.node_model().value("op") == "FLOORDIV");
  CHECK(f.view.node_model().value("expression") == "x//3");
  CHECK(f.view.node_model().value("consumers") == "1");  // x//3%4
  // Escape clears the selection.
  f.key(Qt::Key_Escape);
  CHECK(g.selected_node() == -1);
}

TEST_CASE("rewrite view: fold constants, collapse and layout direction toggles") {
  ViewFixture f(demo_trace());
  f.focus(1, 0, -1);
  const std::size_t folded = f.view.graph_view().graph()->nodes.size();
  f.view.set_fold_constants(false);
  CHECK(f.view.graph_view().graph()->nodes.size() == f.view.graph_view().graph()->graph_nodes);
  CHECK(f.view.graph_view().graph()->nodes.size() > folded);
  f.view.set_fold_constants(true);
  CHECK(f.view.graph_view().graph()->nodes.size() == folded);
  f.view.set_direction_mode(RewriteView::DirectionMode::LeftToRight);
  CHECK(f.view.direction() == GraphDirection::LeftToRight);
  const RewriteGraph &graph = *f.view.graph_view().graph();
  // Left to right: every edge runs rightwards from a source to its consumer.
  for (const auto &e : graph.edges)
    CHECK(f.view.graph_view().node_rect(static_cast<int>(e.from)).right() <
          f.view.graph_view().node_rect(static_cast<int>(e.to)).left());
  f.view.set_direction_mode(RewriteView::DirectionMode::TopToBottom);
  const RewriteGraph &tb = *f.view.graph_view().graph();
  for (const auto &e : tb.edges)
    CHECK(f.view.graph_view().node_rect(static_cast<int>(e.from)).bottom() <
          f.view.graph_view().node_rect(static_cast<int>(e.to)).top());
}

TEST_CASE("rule statistics jump to the next application of a rewrite rule") {
  ViewFixture f(demo_trace());
  f.focus(9, 0, -1);  // fuzz regression 7: 45 steps
  const auto &steps = f.view.document()->pass(9, 0)->steps;
  const QString rule = QString::fromStdString(steps[2].rule);
  REQUIRE(f.view.jump_to_rule(rule));
  const int first = f.view.position().record;
  CHECK(steps[static_cast<std::size_t>(first - 1)].rule == steps[2].rule);
  CHECK(first <= 3);
  // Again: the next one, wrapping around after the last.
  std::set<int> seen{first};
  for (int i = 0; i < 50; ++i) {
    REQUIRE(f.view.jump_to_rule(rule));
    seen.insert(f.view.position().record);
  }
  std::size_t uses = 0;
  for (const auto &s : steps) uses += s.rule == steps[2].rule;
  CHECK(seen.size() == uses);
  CHECK_FALSE(f.view.jump_to_rule("no such rule"));
}

TEST_CASE("the rewrite view keeps its trace while the focus is on another document") {
  WAVESCOPE_REQUIRE_TESTDATA(elf, "sqtt/gfx1100/gemm/program.elf");
  ViewFixture f(demo_trace());
  f.focus(3, 0, -1);
  const int code = f.workspace.add(load_code_object(QString::fromStdString(elf.string())));
  Focus focus;
  focus.document = code;
  focus.kernel = 0;
  f.selection.set_focus(focus);
  CHECK(f.view.document_index() == f.doc);
  CHECK(f.view.position() == RewritePosition{3, 0, 0});
  // A key in the view brings the app's focus back to the trace.
  f.key(Qt::Key_Right);
  CHECK(f.selection.focus().document == f.doc);
  CHECK(f.view.position() == RewritePosition{3, 0, 1});
}

TEST_CASE("a rewrite step whose rule threw shows the REWRITE_ERROR node") {
  using namespace rewrite;
  PatternMatcher failing("failing", {rule("boom", var("x") + 0, [](const Match &) -> UOp {
                           throw wavescope::Error(wavescope::ErrorKind::Internal, "rule exploded");
                         })});
  RewriteTrace trace;
  {
    TraceSession session(trace);
    CHECK_THROWS(graph_rewrite(variable("a", 0, 8) + 0, failing));
  }
  ViewFixture f(std::make_shared<RewriteTraceDocument>(std::move(trace)));
  f.key(Qt::Key_Right);
  REQUIRE(f.view.graph_view().graph());
  const auto &nodes = f.view.graph_view().graph()->nodes;
  const auto error = std::find_if(nodes.begin(), nodes.end(), [](const RewriteGraphNode &n) {
    return n.uop.op() == Op::REWRITE_ERROR;
  });
  REQUIRE(error != nodes.end());
  CHECK(error->details.contains("rule exploded"));
  CHECK(f.view.header_text().contains("boom"));
}

TEST_CASE("a large rewrite trace lays out off the GUI thread and steps on") {
  WAVESCOPE_REQUIRE_TESTDATA(cases_path, "symbolic/dev.jsonl");
  auto trace = load_symbolic_cases(QString::fromStdString(cases_path.string()));
  REQUIRE(trace->trace().nodes().size() > 1000);
  wavescope::testing::gui_app();
  Workspace workspace;
  Selection selection;
  RewriteView view(workspace, selection);
  view.set_background_layout_threshold(100);  // every record of this trace goes to the worker
  view.resize(1300, 900);
  view.show();
  const int doc = workspace.add(trace);
  CHECK(view.layout_pending());  // the first graph is on its way
  view.wait_for_layout();
  CHECK_FALSE(view.layout_pending());
  REQUIRE(view.graph_view().graph());
  auto key = [&](int k) {
    QTest::keyClick(&view.graph_view(), static_cast<Qt::Key>(k));
    view.wait_for_layout();
  };
  // Walk a few steps and passes; each record arrives from the worker.
  for (int k : {Qt::Key_Down, Qt::Key_Right, Qt::Key_Right, Qt::Key_Down, Qt::Key_Up}) key(k);
  CHECK_FALSE(view.layout_pending());
  const RewritePosition at = view.position();
  CHECK(at == RewritePosition{1, 0, 0});
  const RewriteGraph *graph = view.graph_view().graph();
  REQUIRE(graph);
  const RewriteRecord record = view.document()->record(at.group, at.pass, at.record);
  CHECK(graph->graph_nodes == toposort(record.graph).size());
  // Moves while a layout runs: the view ends on the last one.
  selection.set_focus(focus_of(doc, {20, 0, 0}));
  selection.set_focus(focus_of(doc, {21, 0, 0}));
  CHECK(view.layout_pending());
  view.wait_for_layout();
  CHECK(view.position() == RewritePosition{21, 0, 0});
  REQUIRE(view.graph_view().graph());
  CHECK(view.graph_view().graph()->nodes.back().uop == view.document()->record(21, 0, 0).graph);
}

TEST_CASE("the rewrite view renders a step with its change outlined") {
  ViewFixture f(demo_trace());
  f.focus(9, 0, 20);  // fuzz regression 7, step 21 of 45: a 30-node graph
  f.view.resize(1400, 900);
  QApplication::processEvents();
  const QImage image = f.view.grab().toImage();
  const auto dir = std::filesystem::path(WAVESCOPE_BUILD_SCREENSHOTS);
  std::filesystem::create_directories(dir);
  CHECK(image.save(QString::fromStdString((dir / "rewrite-step.png").string())));
  // The orange outline of the change is on screen.
  bool orange = false;
  for (int y = 0; y < image.height() && !orange; y += 2)
    for (int x = 0; x < image.width() && !orange; x += 2) {
      const QColor c = image.pixelColor(x, y);
      orange = c.red() > 240 && c.green() > 140 && c.green() < 175 && c.blue() < 60;
    }
  CHECK(orange);
}

TEST_CASE("a kernel's whole lowering opens in the rewrite browser, every step with its rule") {
  using namespace rewrite;
  // matmul's two kernels lowered for gfx1100 (to LLVM IR), recorded as `wavectl compile --trace`
  // records them.
  RewriteTrace trace;
  {
    TraceSession session(trace);
    for (const auto &k : kernel::builtin_example("matmul")) {
      TraceGroup group(kernel::kernel_name(k));
      (void)codegen::render_amdgpu(k, "gfx1100");
    }
  }
  const auto file = std::filesystem::temp_directory_path() / "wavescope-lowering-trace.json";
  trace.write_json(file.string());
  auto doc = load_rewrite_trace(QString::fromStdString(file.string()));
  std::filesystem::remove(file);
  REQUIRE(doc->group_count() == 2);
  std::set<std::string> names;
  std::size_t steps = 0;
  for (int g = 0; g < doc->group_count(); ++g)
    for (int p = 0; p < doc->pass_count(g); ++p) {
      const auto *pass = doc->pass(g, p);
      names.insert(pass->name);
      for (const auto &s : pass->steps) {
        CHECK_FALSE(s.rule.empty());
        CHECK(s.rule_loc.find(".cpp:") != std::string::npos);
        ++steps;
      }
      // Every pass replays to its recorded output.
      const auto &graphs = doc->graphs(g, p);
      CHECK(graphs.size() == pass->steps.size() + 1);
    }
  for (const char *pass : {"initial symbolic", "expand broadcast / add loads", "devectorize",
                           "early decompositions", "add gpudims", "add control flow"})
    CHECK(names.count(pass) == 1);
  CHECK(steps > 10);

  ViewFixture f(doc);
  f.view.resize(1400, 900);
  // The first step whose graph reaches the bottom left, where the legend would sit (the lowered
  // kernel is tall): the legend moves to a corner that hides no node.
  int shown = -1, covered = 0;
  for (int p = 0; p < doc->pass_count(0) && shown < 0; ++p) {
    if (doc->pass(0, p)->steps.size() < 2) continue;
    f.focus(0, p, 1);
    CHECK(f.view.position() == RewritePosition{0, p, 2});  // the graph after step 1
    REQUIRE(f.view.graph_view().graph());
    QApplication::processEvents();
    RewriteGraphView &g = f.view.graph_view();
    const QRectF legend = g.mapToScene(g.legend_area().toAlignedRect()).boundingRect();
    const QRectF bottom_left(QPointF(10, g.viewport()->height() - 10 - g.legend_area().height()),
                             g.legend_area().size());
    const QRectF default_place = g.mapToScene(bottom_left.toAlignedRect()).boundingRect();
    int at_default = 0;
    covered = 0;
    for (std::size_t i = 0; i < g.graph()->nodes.size(); ++i) {
      covered += g.node_rect(static_cast<int>(i)).intersects(legend);
      at_default += g.node_rect(static_cast<int>(i)).intersects(default_place);
    }
    if (at_default > 0) shown = p;
  }
  REQUIRE(shown >= 0);
  CHECK(covered == 0);
  const auto dir = std::filesystem::path(WAVESCOPE_BUILD_SCREENSHOTS);
  std::filesystem::create_directories(dir);
  CHECK(f.view.grab().toImage().save(
      QString::fromStdString((dir / "rewrite-lowering.png").string())));
}
