// Rewrite traces: what is recorded, JSON round trips, clear errors on malformed files, and the
// recorded steps replaying to each rewrite's output.

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::rewrite;

namespace {
const UOp a = variable("a", 0, 8);

std::string read_error(const std::string &text) {
  try {
    RewriteTrace::read_json(text, "t.json");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("a traced simplification records the pass, its caller and every step") {
  RewriteTrace trace;
  UOp out;
  {
    TraceSession session(trace);
    TraceGroup group("kernel test", {"key1"});
    out = symbolic::simplify((a + 0) * 1);
  }
  CHECK(out == a);
  REQUIRE(trace.groups().size() == 1);
  const auto &g = trace.groups()[0];
  CHECK(g.name == "kernel test");
  CHECK(g.keys == std::vector<std::string>{"key1"});
  REQUIRE(g.rewrites.size() == 1);
  const auto &rw = g.rewrites[0];
  CHECK(rw.name == "simplify");
  CHECK(rw.loc.starts_with("test_rewrite_trace.cpp:"));
  CHECK(rw.depth == 0);
  CHECK(rw.mode == "post");
  REQUIRE(rw.steps.size() == 2);
  CHECK(rw.steps[0].rule == "identities: x+0, x^0, x|0 -> x");
  CHECK(rw.steps[0].rule_loc.starts_with("rules_basic.cpp:"));
  CHECK(trace.rebuild(rw.steps[0].before) == a + 0);
  CHECK(trace.rebuild(rw.steps[1].after) == a);
  CHECK(trace.rebuild(*rw.output) == a);
  const auto graphs = trace.replay(rw);
  REQUIRE(graphs.size() == 3);
  CHECK(graphs[0] == (a + 0) * 1);
  CHECK(graphs[1] == a * 1);
  CHECK(graphs[2] == a);
}

TEST_CASE("tracing off records nothing, and tracing can be suspended") {
  RewriteTrace trace;
  symbolic::simplify((a + 0) * 1);
  CHECK(trace.groups().empty());
  {
    TraceSession session(trace);
    {
      SuspendTracing quiet;
      symbolic::simplify(a + 0);
    }
    symbolic::simplify(a * 1);
  }
  REQUIRE(trace.groups().size() == 1);
  CHECK(trace.groups()[0].name == "default graph_rewrite");  // rewrites outside any group
  CHECK(trace.groups()[0].rewrites.size() == 1);
}

TEST_CASE("a rewrite started inside a rule is one level deeper") {
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
    RewriteOptions o;
    o.name = "outer";
    graph_rewrite(alu(Op::NEG, {a * 1}), outer, o);
  }
  const auto &rewrites = trace.groups().at(0).rewrites;
  // The outer rule runs on NEG(a*1) and again on its result NEG(a): two nested rewrites.
  REQUIRE(rewrites.size() == 3);
  CHECK(rewrites[0].name == "outer");
  CHECK(rewrites[0].depth == 0);
  CHECK(rewrites[0].steps.size() == 1);
  for (std::size_t i = 1; i < rewrites.size(); ++i) {
    CHECK(rewrites[i].name == "nested");
    CHECK(rewrites[i].depth == 1);
  }
  CHECK(rewrites[1].steps.size() == 1);
  CHECK(rewrites[2].steps.empty());
}

TEST_CASE("a rule that throws is recorded as a REWRITE_ERROR step, then the error propagates") {
  PatternMatcher failing("failing", {rule("boom", var("x") + 0, [](const Match &) -> UOp {
                           throw wavescope::Error(wavescope::ErrorKind::Internal, "rule exploded");
                         })});
  RewriteTrace trace;
  {
    TraceSession session(trace);
    CHECK_THROWS_WITH(graph_rewrite(a + 0, failing), "rule exploded");
  }
  const auto &rw = trace.groups().at(0).rewrites.at(0);
  CHECK_FALSE(rw.output);
  REQUIRE(rw.steps.size() == 1);
  const auto &after = trace.nodes().at(rw.steps[0].after);
  CHECK(after.op == Op::REWRITE_ERROR);
  CHECK(std::get<std::string>(after.arg) == "rule exploded");
}

TEST_CASE("a trace survives a JSON round trip exactly") {
  RewriteTrace trace;
  {
    TraceSession session(trace);
    TraceGroup group("round trip");
    const UOp r = range(variable("n", 1, 64) + 1, 3, AxisType::Reduce, "r0");
    symbolic::simplify(where(lt(r, 4), floormod(r * 4 + a, 4), invalid()));
    symbolic::simplify(
        cast(const_float(1.5, dtypes::half) * const_float(2.0, dtypes::half), dtypes::int32));
  }
  const std::string text = trace.to_json();
  const RewriteTrace back = RewriteTrace::read_json(text, "memory");
  CHECK(back.to_json() == text);
  CHECK(back.nodes().size() == trace.nodes().size());
  for (const auto &g : back.groups())
    for (const auto &rw : g.rewrites) CHECK(back.replay(rw).back() == back.rebuild(*rw.output));
}

TEST_CASE("malformed traces are refused with the path of the problem") {
  CHECK_THAT(read_error("{"), Catch::Contains("t.json: not JSON"));
  CHECK_THAT(read_error(R"({"version":1e5012})"),
             Catch::Contains("t.json: not JSON") && Catch::Contains("number overflow"));
  CHECK_THAT(read_error(R"({"nodes":{},"groups":[]})"), Catch::Contains("missing field 'version'"));
  CHECK_THAT(read_error(R"({"version":7,"nodes":{},"groups":[]})"),
             Catch::Contains("unsupported version 7"));
  CHECK_THAT(
      read_error(
          R"({"version":1,"nodes":{"0":{"op":"FOO","dtype":"index","src":[]}},"groups":[]})"),
      Catch::Contains("nodes.0.op: unknown op 'FOO'"));
  CHECK_THAT(
      read_error(
          R"({"version":1,"nodes":{"0":{"op":"ADD","dtype":"index","src":[5]}},"groups":[]})"),
      Catch::Contains("nodes.0.src[0]: node 5 is not in the node table"));
  CHECK_THAT(
      read_error(
          R"({"version":1,"nodes":{"0":{"op":"CONST","dtype":"int99","src":[]}},"groups":[]})"),
      Catch::Contains("nodes.0.dtype: unknown dtype 'int99'"));
  CHECK_THAT(
      read_error(
          R"({"version":1,"nodes":{"0":{"op":"CONST","dtype":"index","src":[],"arg":{"what":1}}},"groups":[]})"),
      Catch::Contains("nodes.0.arg: unknown arg kind 'what'"));
  const std::string one_node =
      R"({"version":1,"nodes":{"0":{"op":"CONST","dtype":"index","src":[],"arg":1}},)";
  CHECK_THAT(
      read_error(
          one_node +
          R"("groups":[{"name":"g","rewrites":[{"name":"r","loc":"x:1","depth":0,"mode":"post","input":0,"steps":[{"before":0,"after":9,"rule":"r"}]}]}]})"),
      Catch::Contains("groups[0].rewrites[0].steps[0].after: node 9 is not in the node table"));
  CHECK_THAT(
      read_error(
          one_node +
          R"("groups":[{"name":"g","rewrites":[{"name":"r","loc":"x:1","depth":0,"mode":"sideways","input":0,"steps":[]}]}]})"),
      Catch::Contains("groups[0].rewrites[0].mode"));
}

TEST_CASE("every dev-corpus simplification replays step by step to its output") {
  WAVESCOPE_REQUIRE_TESTDATA(path, "symbolic/dev.jsonl");
  const auto cases = symbolic::load_cases(path);
  RewriteTrace trace;
  std::vector<UOp> outputs;
  {
    TraceSession session(trace);
    for (const auto &c : cases) {
      TraceGroup group(c.id);
      outputs.push_back(symbolic::simplify(symbolic::build_case(c).expr));
    }
  }
  const RewriteTrace back = RewriteTrace::read_json(trace.to_json());
  REQUIRE(back.groups().size() == cases.size());
  std::size_t steps = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto &rw = back.groups()[i].rewrites.at(0);
    INFO(cases[i].id);
    CHECK(back.replay(rw).back() == outputs[i]);
    steps += rw.steps.size();
  }
  CHECK(steps > cases.size());
}

TEST_CASE("a replay whose pairs re-expand or cycle ends in an error graph instead of growing") {
  // No engine run records such pairs; a damaged trace can (fuzz_rewrite_trace found one that took
  // 77 s to replay under ASan).
  const UOp b = variable("b", 0, 8);
  const std::vector<std::pair<UOp, UOp>> reexpand{{a, a + 1}}, cycle{{a, b}, {b, a}};
  for (const auto *pairs : {&reexpand, &cycle}) {
    RewriteTrace trace;
    TraceRewrite header;
    header.name = "broken";
    header.input = trace.record_node(a);
    const auto handle = trace.begin_rewrite(header);
    for (const auto &[before, after] : *pairs)
      trace.add_step(handle, {trace.record_node(before), trace.record_node(after), "r", "x:1", 0});
    trace.end_rewrite(handle, std::nullopt);
    const auto graphs = trace.replay(trace.groups().back().rewrites.back());
    // The input, the graphs of the steps that settled, then the error.
    REQUIRE(graphs.size() == pairs->size() + 1);
    CHECK(graphs.back().op() == Op::REWRITE_ERROR);
    CHECK_THAT(std::get<std::string>(graphs.back().arg()),
               Catch::Contains("step " + std::to_string(pairs->size() - 1) + " of 'broken'") &&
                   Catch::Contains("do not settle"));
  }
}
