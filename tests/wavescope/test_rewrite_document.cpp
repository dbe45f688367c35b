// Rewrite-trace documents and the models under the rewrite browser, without widgets: opening
// the demo trace and traces written by libcompiler in the test, each record's graph against the
// library's replay, the nodes a step changed, labels, the before/after diff, collapsing large
// graphs, and ←/→/↑/↓ focus moves.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "app/document_loader.hpp"
#include "app/rewrite_trace_document.hpp"
#include "models/rewrite_graph.hpp"
#include "models/rewrite_navigation.hpp"
#include "models/rewrite_text.hpp"
#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

using namespace wavescope::gui;
using namespace wavescope::compiler;

namespace {

std::filesystem::path demo_trace_path() {
  return wavescope::testing::source_root() / "resources/demo/rewrite/demo-rewrites.json";
}

std::shared_ptr<RewriteTraceDocument> demo_trace() {
  return load_rewrite_trace(QString::fromStdString(demo_trace_path().string()));
}

// Simplifies expressions (NAME -> EXPR over variables 0..199) into a trace, one group each.
rewrite::RewriteTrace
simplify_trace(const std::vector<std::pair<std::string, std::string>> &cases) {
  rewrite::RewriteTrace trace;
  rewrite::TraceSession session(trace);
  for (const auto &[name, text] : cases) {
    symbolic::Scope scope;
    scope.declare_unknown = true;
    const UOp expr = symbolic::parse_expression(text, scope);
    rewrite::TraceGroup group(name);
    symbolic::simplify(expr);
  }
  return trace;
}

std::string expression(const UOp &u) { return symbolic::render_expression(u); }

std::set<std::string> expressions_of(const std::unordered_set<const UOpNode *> &nodes,
                                     const UOp &graph) {
  std::set<std::string> out;
  for (const UOp &u : toposort(graph))
    if (nodes.count(u.get())) out.insert(expression(u));
  return out;
}

}  // namespace

TEST_CASE("the demo rewrite trace opens with its groups, passes and steps") {
  const auto doc = demo_trace();
  CHECK(doc->kind() == DocumentKind::RewriteTrace);
  CHECK(doc->title.startsWith("demo-rewrites.json"));
  CHECK(doc->title.contains("10 groups"));
  CHECK(doc->group_count() == 10);
  CHECK(doc->passes().size() == 10);
  // The step count, read from the trace file itself: the steps of every rewrite of every group.
  std::size_t steps_in_file = 0;
  const auto file = nlohmann::json::parse(std::ifstream(demo_trace_path()));
  for (const auto &group : file.at("groups"))
    for (const auto &rewrite : group["rewrites"]) steps_in_file += rewrite["steps"].size();
  REQUIRE(steps_in_file > 0);
  CHECK(doc->step_total() == steps_in_file);
  CHECK(doc->group(0)->name == "gated index (tinygrad test_valid_order_matters2)");
  REQUIRE(doc->pass(9, 0));
  CHECK(doc->pass(9, 0)->steps.size() == 45);
  CHECK(doc->pass(10, 0) == nullptr);
  CHECK(doc->pass(0, 1) == nullptr);
  // The loader picks the rewrite-trace document for a .json file.
  const auto loaded = load_document(QString::fromStdString(demo_trace_path().string()));
  CHECK(loaded->kind() == DocumentKind::RewriteTrace);
}

TEST_CASE("every rewrite record's graph is the library's replay graph") {
  const auto doc = demo_trace();
  std::size_t records = 0;
  for (const RewritePassRef &ref : doc->passes()) {
    const auto &pass = *doc->pass(ref.group, ref.pass);
    const std::vector<UOp> replay = doc->trace().replay(pass);
    REQUIRE(static_cast<int>(replay.size()) == static_cast<int>(pass.steps.size()) + 1);
    CHECK(replay.front() == doc->trace().rebuild(pass.input));
    CHECK(replay.back() == doc->trace().rebuild(*pass.output));
    for (int k = 0; k < static_cast<int>(replay.size()); ++k) {
      const RewriteRecord record = doc->record(ref.group, ref.pass, k);
      CHECK(record.graph == replay[static_cast<std::size_t>(k)]);
      // Everything shown, nothing folded: the drawn nodes are exactly the graph's nodes, and
      // the edges exactly its distinct (source, consumer) pairs.
      const RewriteGraph graph = build_rewrite_graph(record, {false, 0});
      const std::vector<UOp> nodes = toposort(record.graph);
      REQUIRE(graph.nodes.size() == nodes.size());
      std::set<std::pair<const UOpNode *, const UOpNode *>> pairs;
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        CHECK(graph.nodes[i].uop == nodes[i]);
        for (const UOp &s : nodes[i].src()) pairs.emplace(s.get(), nodes[i].get());
      }
      CHECK(graph.edges.size() == pairs.size());
      CHECK(graph.nodes.back().root);
      ++records;
    }
  }
  CHECK(records == 128);  // 118 steps plus one input graph per pass
}

TEST_CASE("a rewrite step marks the rule's result, the nodes it created and rebuilt ancestors") {
  // x//3%4*2+x//12%5*8 -> x//3%20*2 in one recombine step: the rule builds x//3%20*2, reusing
  // x//3 and the constant 2 from the old graph.
  const RewriteTraceDocument doc(simplify_trace({{"strided", "x//3%4*2+x//12%5*8"}}));
  REQUIRE(doc.pass(0, 0)->steps.size() == 1);
  const RewriteRecord record = doc.record(0, 0, 1);
  REQUIRE(record.step);
  CHECK(record.step->rule.starts_with("recombine: "));
  CHECK(expression(record.before) == "x//3%4*2+x//12%5*8");
  CHECK(expression(record.after) == "x//3%20*2");
  CHECK(expressions_of(record.created, record.graph) ==
        std::set<std::string>{"x//3%20*2", "x//3%20", "20"});
  CHECK(record.rebuilt.empty());  // the root itself was replaced: no ancestor to rebuild

  const RewriteGraph graph = build_rewrite_graph(record, {});
  const int result = graph.index_of(record.after.get());
  REQUIRE(result >= 0);
  CHECK(graph.nodes[static_cast<std::size_t>(result)].mark == RewriteNodeMark::Replacement);
  // The new constant 20 stays drawn (it is new); the old constant 3 and 2 fold into their users.
  std::set<std::string> drawn;
  for (const auto &n : graph.nodes) drawn.insert(expression(n.uop));
  CHECK(drawn == std::set<std::string>{"x", "x//3", "20", "x//3%20", "x//3%20*2"});
  CHECK(graph.folded_constants == 2);

  // Record 0 marks nothing.
  const RewriteRecord input = doc.record(0, 0, 0);
  CHECK_FALSE(input.step);
  CHECK(input.created.empty());
  CHECK(input.rebuilt.empty());
}

TEST_CASE("a rewrite step inside a graph rebuilds the ancestors of the replaced node") {
  // (a+0)*1 (docs/rewrite-trace.md): step 1 turns a+0 into a, which existed: nothing is
  // created, the MUL above it is rebuilt as a*1.
  rewrite::RewriteTrace trace;
  {
    rewrite::TraceSession session(trace);
    symbolic::simplify((variable("a", 0, 8) + 0) * 1);
  }
  const RewriteTraceDocument doc(std::move(trace));
  const RewriteRecord step1 = doc.record(0, 0, 1);
  CHECK(expression(step1.graph) == "a*1");
  CHECK(step1.created.empty());
  CHECK(expressions_of(step1.rebuilt, step1.graph) == std::set<std::string>{"a*1"});
  const RewriteGraph graph = build_rewrite_graph(step1, {});
  CHECK(graph.nodes[static_cast<std::size_t>(graph.index_of(step1.after.get()))].mark ==
        RewriteNodeMark::Replacement);
  CHECK(graph.nodes.back().mark == RewriteNodeMark::Rebuilt);
}

TEST_CASE("rewrite graph labels carry op, arg, dtype, folded constants, interval and expression") {
  const RewriteTraceDocument doc(simplify_trace({{"strided", "x//3%4*2+x//12%5*8"}}));
  const RewriteGraph graph = build_rewrite_graph(doc.record(0, 0, 0), {});
  const auto find = [&](const std::string &expr) -> const RewriteGraphNode & {
    for (const auto &n : graph.nodes)
      if (expression(n.uop) == expr) return n;
    FAIL("no node " << expr);
    throw;
  };
  const RewriteGraphNode &mod = find("x//3%4");
  CHECK(mod.title == "FLOORMOD");
  CHECK(mod.subtitle == "index  [0, 3]");
  CHECK(mod.details == QStringList{"src 1 = 4"});
  CHECK(mod.expression == "x//3%4");
  const RewriteGraphNode &x = find("x");
  CHECK(x.title == "PARAM");
  // Variables parsed with declare_unknown are unbounded.
  CHECK(x.details.front().startsWith("x"));
  CHECK(x.expression.isEmpty());
  const RewriteGraphNode &root = graph.nodes.back();
  CHECK(root.root);
  CHECK(root.title == "ADD");
  // One edge per distinct source; a node using one source twice shows a count.
  const UOp y = variable("y", 0, 9);
  rewrite::RewriteTrace square_trace;
  {
    rewrite::TraceSession session(square_trace);
    symbolic::simplify(y * y + 0);
  }
  const RewriteTraceDocument square(std::move(square_trace));
  const RewriteGraph g2 = build_rewrite_graph(square.record(0, 0, 0), {});
  const int mul = g2.index_of((y * y).get());
  REQUIRE(mul >= 0);
  int into_mul = 0;
  for (const auto &e : g2.edges)
    if (e.to == static_cast<std::size_t>(mul)) {
      ++into_mul;
      CHECK(e.count == 2);
      CHECK(e.port == 0);
    }
  CHECK(into_mul == 1);
}

TEST_CASE("rewrite label text: args, dtypes and intervals") {
  CHECK(arg_text(variable("a", 0, 8)) == QString::fromUtf8("a \u2208 [0, 8]"));
  CHECK(arg_text(const_int(-5)) == "-5");
  CHECK(arg_text(const_bool(true)) == "true");
  CHECK(arg_text(invalid()) == "invalid");
  CHECK(arg_text(range(const_int(16), 2, AxisType::Reduce, "r0")) ==
        QString::fromUtf8("r0 \u00b7 REDUCE \u00b7 axis 2"));
  CHECK(arg_text(cast(variable("a", 0, 8), dtypes::int32)) == QString::fromUtf8("\u2192 int32"));
  CHECK(dtype_text(dtypes::void_).isEmpty());
  CHECK(dtype_text(dtypes::float32.ptr(AddrSpace::Global)) == "float.ptr(global)");
  CHECK(bounds_text(floormod(variable("a", 0, 100), 8)) == "[0, 7]");
  CHECK(bounds_text(lt(variable("a", 0, 8), 4)).isEmpty());  // a bool that may be either
  CHECK(bounds_text(variable("a", 0, 8)).isEmpty());         // the arg shows it
  ExpressionTexts texts;
  const UOp a = variable("a", 0, 8);
  CHECK(texts.text(floordiv(a * 4 + 3, 2)) == "(a*4+3)//2");
  CHECK(texts.text(floordiv(a * 4 + 3, 2), 6) == QString::fromUtf8("(a*\u2026/2"));
  // A deep chain of shared nodes is not printed (its text would be exponential).
  UOp chain = a;
  for (int i = 0; i < 40; ++i) chain = chain + chain;
  CHECK(texts.text(chain).isEmpty());
}

TEST_CASE("rewrite diff lines: the shortest edit script between two trees") {
  const QStringList before{"ADD", "  MUL", "    x", "    2", "  3"};
  const QStringList after{"ADD", "  x", "  3"};
  const auto diff = diff_lines(before, after);
  CHECK(diff_text(diff) == "\u0020ADD\n-  MUL\n-    x\n-    2\n+  x\n\u0020  3\n");
  CHECK(diff_lines({}, {"a"}).front().kind == DiffKind::Added);
  CHECK(diff_lines({"a"}, {}).front().kind == DiffKind::Removed);
  CHECK(diff_lines({"a", "b"}, {"a", "b"}).size() == 2);
}

TEST_CASE("the rewrite diff shows the matched subtree against the rule's result") {
  const RewriteTraceDocument doc(simplify_trace({{"strided", "x//3%4*2+x//12%5*8"}}));
  const RewriteRecord record = doc.record(0, 0, 1);
  const QString text = diff_text(diff_lines(node_lines(record.before), node_lines(record.after)));
  // x and x//3 are in both; the rest of the sum goes, x//3%20*2 comes.
  CHECK(text.toStdString() == std::string(" PARAM index  x\n"
                                          " FLOORDIV index  x//3\n"
                                          "-FLOORMOD index  x//3%4  [0, 3]\n"
                                          "-MUL index  x//3%4*2  [0, 6]\n"
                                          "-FLOORDIV index  x//12\n"
                                          "-FLOORMOD index  x//12%5  [0, 4]\n"
                                          "-MUL index  x//12%5*8  [0, 32]\n"
                                          "-ADD index  x//3%4*2+x//12%5*8  [0, 38]\n"
                                          "+FLOORMOD index  x//3%20  [0, 19]\n"
                                          "+MUL index  x//3%20*2  [0, 38]\n"));
}

TEST_CASE("node lines list each node once, sources first, constants inside expressions") {
  const UOp a = variable("a", 0, 8);
  const UOp shared = floordiv(a, 3);
  CHECK(node_lines(shared + shared * 2) ==
        QStringList{QString::fromUtf8("PARAM index  a \u2208 [0, 8]"),
                    "FLOORDIV index  a//3  [0, 2]", "MUL index  a//3*2  [0, 4]",
                    "ADD index  a//3+a//3*2  [0, 6]"});
  CHECK(node_lines(const_int(7)) == QStringList{"CONST index  7"});  // a constant root shows
  CHECK(node_lines(UOp()).isEmpty());
  UOp chain = a;
  for (int i = 0; i < 300; ++i) chain = chain + i;
  CHECK(node_lines(chain, 50).size() == 51);  // 50 lines and the "…" marker
}

TEST_CASE("a large rewrite graph collapses to the neighbourhood of the change") {
  // A sum of 400 terms; one x+0 deep inside is simplified.
  std::vector<UOp> terms;
  for (int i = 0; i < 400; ++i) terms.push_back(variable("v" + std::to_string(i), 0, 9) * (i + 2));
  const UOp x = variable("x", 0, 9);
  terms.insert(terms.begin() + 200, floordiv(x + 0, 1) * 3);
  rewrite::RewriteTrace trace;
  {
    rewrite::TraceSession session(trace);
    symbolic::simplify(usum(terms), symbolic::symbolic_simple());
  }
  const RewriteTraceDocument doc(std::move(trace));
  REQUIRE(doc.pass(0, 0)->steps.size() >= 1);
  const RewriteRecord record = doc.record(0, 0, 1);
  const RewriteGraph full = build_rewrite_graph(record, {true, 0});
  CHECK_FALSE(full.collapsed);
  CHECK(full.nodes.size() > 800);
  const RewriteGraph near = build_rewrite_graph(record, {true, 60});
  CHECK(near.collapsed);
  CHECK(near.nodes.size() == 60);
  CHECK(near.graph_nodes == full.graph_nodes);
  CHECK(near.index_of(record.after.get()) >= 0);  // the change is always in view
  CHECK(near.index_of(record.graph.get()) >= 0);  // and the root
  int hidden = 0;
  for (const auto &n : near.nodes) hidden += n.hidden_sources;
  CHECK(hidden > 0);
  for (const auto &e : near.edges) CHECK((e.from < near.nodes.size() && e.to < near.nodes.size()));
}

TEST_CASE("rewrite focus moves: left/right step within a pass, up/down move between passes") {
  const auto doc = demo_trace();
  Focus focus;
  focus.document = 4;
  // The document and a group resolve to the first pass's input graph.
  CHECK(resolve_position(*doc, focus) == RewritePosition{0, 0, 0});
  focus.group = 2;
  CHECK(resolve_position(*doc, focus) == RewritePosition{2, 0, 0});
  // → steps on, ← back; both stop at the ends of the pass (4 steps in group 0).
  focus = focus_of(4, {0, 0, 0});
  focus = step_focus(*doc, focus, 1);
  CHECK(focus.step == 0);
  CHECK(resolve_position(*doc, focus) == RewritePosition{0, 0, 1});
  focus = step_focus(*doc, step_focus(*doc, focus, 1), 1);
  CHECK(resolve_position(*doc, focus).record == 3);
  focus = step_focus(*doc, step_focus(*doc, focus, 1), 1);
  CHECK(resolve_position(*doc, focus).record == 4);
  focus = step_focus(*doc, focus, -1);
  CHECK(resolve_position(*doc, focus).record == 3);
  // ↓ goes to the next pass's input, ↑ back; the ends hold.
  focus = pass_focus(*doc, focus, 1);
  CHECK(resolve_position(*doc, focus) == RewritePosition{1, 0, 0});
  CHECK(focus.document == 4);
  focus = pass_focus(*doc, focus, -1);
  CHECK(resolve_position(*doc, focus) == RewritePosition{0, 0, 0});
  CHECK(resolve_position(*doc, pass_focus(*doc, focus, -1)) == RewritePosition{0, 0, 0});
  const Focus last = pass_focus(*doc, focus, 100);
  CHECK(resolve_position(*doc, last) == RewritePosition{9, 0, 0});
  CHECK(resolve_position(*doc, step_focus(*doc, last, -5)).record == 0);
}

TEST_CASE("a rewrite trace with no rewrites resolves to no position") {
  rewrite::RewriteTrace trace;
  trace.open_group("empty", {});
  trace.close_group();
  const RewriteTraceDocument doc(std::move(trace));
  Focus focus;
  focus.document = 0;
  CHECK_FALSE(resolve_position(doc, focus).valid());
  CHECK(step_focus(doc, focus, 1) == focus);
  CHECK(pass_focus(doc, focus, 1) == focus);
  CHECK_THROWS_AS(doc.graphs(0, 0), wavescope::Error);
}

TEST_CASE("bad rewrite trace files are refused with a message naming the problem") {
  const wavescope::testing::TempDir temp;
  auto open_text = [&](const std::string &name, const std::string &text) -> std::string {
    const auto path = temp.path / name;
    std::ofstream(path) << text;
    try {
      load_rewrite_trace(QString::fromStdString(path.string()));
    } catch (const wavescope::Error &e) {
      CHECK(e.kind() == wavescope::ErrorKind::BadInput);
      return e.what();
    }
    return "opened";
  };
  CHECK_THAT(open_text("broken.json", "{\"version\": 1, \"nodes\": {"),
             Catch::Contains("broken.json: not JSON"));
  CHECK_THAT(open_text("v2.json", R"({"version":2,"nodes":{},"groups":[]})"),
             Catch::Contains("unsupported version 2"));
  CHECK_THAT(
      open_text(
          "missing.json",
          R"({"version":1,"nodes":{"0":{"op":"CONST","dtype":"index","src":[],"arg":1}},"groups":[{"name":"g","rewrites":[{"name":"r","loc":"x:1","depth":0,"mode":"post","input":0,"steps":[{"before":0,"after":17,"rule":"r"}]}]}]})"),
      Catch::Contains("groups[0].rewrites[0].steps[0].after: node 17 is not in the node table"));
  CHECK_THAT(open_text("package.json", R"({"name": "not a trace"})"),
             Catch::Contains("missing field 'version'"));
  CHECK_THROWS_AS(load_rewrite_trace(QString::fromStdString((temp.path / "absent.json").string())),
                  wavescope::Error);
}

TEST_CASE("strip_ansi removes tinygrad's color codes from rewrite group names") {
  CHECK(strip_ansi("r\x1b[90m_\x1b[0m\x1b[97m32\x1b[0m") == "r_32");
  CHECK(strip_ansi("plain") == "plain");
  CHECK(strip_ansi("cut \x1b[3") == "cut ");
}

TEST_CASE("the rewrite document maps nodes to their trace ids") {
  const auto doc = demo_trace();
  const auto &pass = *doc->pass(0, 0);
  CHECK(doc->trace_id(doc->trace().rebuild(pass.input)) == pass.input);
  CHECK(doc->trace_id(doc->trace().rebuild(pass.steps[0].after)) == pass.steps[0].after);
  CHECK_FALSE(doc->trace_id(variable("nowhere", 0, 1)));
}

TEST_CASE("a symbolic case file opens as a rewrite trace, one group per case") {
  WAVESCOPE_REQUIRE_TESTDATA(cases_path, "symbolic/dev.jsonl");
  const QString path = QString::fromStdString(cases_path.string());
  CHECK(detect_document_kind(path) == DocumentKind::SymbolicCases);
  std::vector<std::string> progress;
  const auto doc = std::dynamic_pointer_cast<RewriteTraceDocument>(load_document(
      path, {}, [&](const wavescope::ProgressUpdate &u) { progress.emplace_back(u.stage); }));
  REQUIRE(doc);
  const auto cases = symbolic::load_cases(cases_path);
  REQUIRE(doc->group_count() == static_cast<int>(cases.size()));
  for (std::size_t i = 0; i < cases.size(); ++i)
    CHECK(doc->trace().groups()[i].name == cases[i].id);
  CHECK(doc->title.contains(QStringLiteral("%1 simplified").arg(cases.size())));
  CHECK_FALSE(doc->title.contains("failed"));
  CHECK(progress.size() == cases.size());
  // Each group's last record is what the simplifier returns for the case.
  for (std::size_t i = 0; i < cases.size(); i += 20) {
    const auto &rewrites = doc->trace().groups()[i].rewrites;
    REQUIRE_FALSE(rewrites.empty());
    REQUIRE(rewrites.back().output);
    CHECK(doc->trace().rebuild(*rewrites.back().output) ==
          symbolic::simplify(symbolic::build_case(cases[i]).expr));
  }
}

TEST_CASE("a malformed symbolic case file is refused naming the file and line") {
  const wavescope::testing::TempDir temp;
  const auto path = temp.path / "cases.jsonl";
  std::ofstream(path) << R"({"id":"a","vars":{"x":[0,3]},"expr":"x+0"})"
                      << "\n"
                      << R"({"id":"b","vars":[],"expr":)"
                      << "\n";
  try {
    load_document(QString::fromStdString(path.string()));
    FAIL("no error");
  } catch (const wavescope::Error &e) {
    CHECK_THAT(e.what(), Catch::Contains("cases.jsonl:2"));
  }
}

TEST_CASE("every dev-corpus rewrite record builds and lays out without errors") {
  WAVESCOPE_REQUIRE_TESTDATA(cases_path, "symbolic/dev.jsonl");
  const auto doc_ptr = load_symbolic_cases(QString::fromStdString(cases_path.string()));
  const RewriteTraceDocument &doc = *doc_ptr;
  CHECK(doc.group_count() == 162);
  std::size_t records = 0;
  for (const RewritePassRef &ref : doc.passes())
    for (int k = 0; k <= static_cast<int>(doc.pass(ref.group, ref.pass)->steps.size()); ++k) {
      const RewriteGraph graph = build_rewrite_graph(doc, ref.group, ref.pass, k, {});
      CHECK(graph.error.isEmpty());
      CHECK_FALSE(graph.nodes.empty());
      ++records;
    }
  CHECK(records == doc.passes().size() + doc.step_total());
}
