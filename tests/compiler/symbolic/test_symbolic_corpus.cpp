// The simplifier on the real corpus (../shared/data/symbolic/dev.jsonl, tinygrad's own test
// cases): every output equivalent to its input over the domain, no more operations than
// tinygrad's result, ranges as tinygrad reports them.

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "testdata.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::symbolic;

TEST_CASE("every dev case simplifies to an equivalent expression") {
  WAVESCOPE_REQUIRE_TESTDATA(path, "symbolic/dev.jsonl");
  const auto cases = load_cases(path);
  REQUIRE(cases.size() >= 100);
  for (const auto &c : cases) {
    INFO(c.id << ": " << c.expr);
    const CaseGraph g = build_case(c);
    const UOp result = simplify(g.expr);
    INFO("simplified: " << render_expression(result));
    const auto check = check_equivalence(g, result);
    INFO(check.reason);
    CHECK(check.equivalent);
    // The printed form parses back to the same graph.
    CHECK(parse_expression(render_expression(result), g.scope) == result);
  }
}

TEST_CASE("dev cases have no more operations than tinygrad's results (every one of them)") {
  WAVESCOPE_REQUIRE_TESTDATA(path, "symbolic/dev.jsonl");
  const auto cases = load_cases(path);
  std::size_t not_larger = 0, smaller = 0;
  for (const auto &c : cases) {
    REQUIRE(c.tinygrad_ops);
    // The count of tinygrad's own string agrees with the corpus (the counting rules match).
    CHECK(count_operations(c.tinygrad_simplified) == *c.tinygrad_ops);
    const std::size_t ops = count_operations(simplify(build_case(c).expr));
    if (ops <= *c.tinygrad_ops)
      ++not_larger;
    else
      WARN(c.id << ": " << ops << " operations, tinygrad " << *c.tinygrad_ops);
    if (ops < *c.tinygrad_ops) ++smaller;
  }
  INFO(fmt::format("{}/{} no larger, {} smaller", not_larger, cases.size(), smaller));
  CHECK(cases.size() == 162);
  CHECK(not_larger == cases.size());
}

TEST_CASE("dev case ranges equal tinygrad's where given") {
  WAVESCOPE_REQUIRE_TESTDATA(path, "symbolic/dev.jsonl");
  std::size_t compared = 0;
  for (const auto &c : load_cases(path)) {
    if (!c.expected_min) continue;
    INFO(c.id);
    const UOp result = simplify(build_case(c).expr);
    CHECK(to_string(result.vmin()) == to_string(*c.expected_min));
    CHECK(to_string(result.vmax()) == to_string(*c.expected_max));
    ++compared;
  }
  CHECK(compared > 100);
}

TEST_CASE("a constraint v<e turns v into a loop index with extent e") {
  SymbolicCase c;
  c.vars = {{"a", 1, 10, dtypes::index}, {"r0", 0, 10, dtypes::index}};
  c.constraints = {"r0<a+1"};
  c.expr = "r0%(a+1)";
  const CaseGraph g = build_case(c);
  CHECK(g.scope.lookup("r0").op() == Op::RANGE);
  CHECK(render_expression(simplify(g.expr)) == "r0");
}

TEST_CASE("malformed case lines are rejected with the field at fault") {
  auto error_of = [](const std::string &line) {
    try {
      SymbolicCase::parse_json(line, "cases.jsonl:3");
    } catch (const wavescope::Error &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("{"), Catch::Contains("cases.jsonl:3: not JSON"));
  // A number beyond a double is nlohmann's out_of_range, not a parse_error: refused all the same.
  CHECK_THAT(error_of(R"({"id":"x","expr":"a","expected_min":1e5012})"),
             Catch::Contains("cases.jsonl:3: not JSON") && Catch::Contains("number overflow"));
  CHECK_THAT(error_of(R"({"id":"x"})"), Catch::Contains("missing field 'expr'"));
  CHECK_THAT(error_of(R"({"id":"x","expr":"a","vars":{"a":[0]}})"),
             Catch::Contains("vars.a: expected [min, max]"));
  CHECK_THAT(error_of(R"({"id":"x","expr":"a","vars":{"a":[0,1]},"var_dtypes":{"a":"float"}})"),
             Catch::Contains("not an integer dtype"));
}

TEST_CASE("a reference bound beyond 64 bits (tinygrad's unbounded weak int) means no reference") {
  const auto c = SymbolicCase::parse_json(
      R"({"id":"x","expr":"a%b","vars":{"a":[-1000,1],"b":[-1000,1]},)"
      R"("expected_min":-33340072164399271370399258953606288985,"expected_max":12})",
      "cases.jsonl:1");
  CHECK_FALSE(c.expected_min.has_value());
  CHECK(c.expected_max == 12);
  CHECK_THROWS_WITH(
      SymbolicCase::parse_json(R"({"id":"x","expr":"a","vars":{"a":[0,1]},"expected_min":1.5})",
                               "cases.jsonl:2"),
      Catch::Contains("expected_min: expected an integer"));
}

TEST_CASE("a variable declaration NAME=MIN:MAX[:DTYPE] parses, and a bad one says what is wrong") {
  const VariableDecl a = parse_variable_decl("a=0:7");
  CHECK(a.name == "a");
  CHECK(a.min == 0);
  CHECK(a.max == 7);
  CHECK(a.dtype == dtypes::index);
  const VariableDecl x = parse_variable_decl("x=-10:10:int32");
  CHECK(x.min == -10);
  CHECK(x.max == 10);
  CHECK(x.dtype == dtypes::int32);
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"=0:7", "no NAME="},
      {"a=0", "expected MIN:MAX"},
      {"a=0:1:int32:4", "expected MIN:MAX"},
      {"a=x:7", "MIN and MAX must be integers"},
      {"a=7:0", "MIN is greater than MAX"},
      {"a=0:7:float32", "'float32' is not an integer dtype"},
  };
  for (const auto &[spec, why] : bad) {
    INFO(spec);
    try {
      (void)parse_variable_decl(spec);
      FAIL("accepted");
    } catch (const wavescope::Error &e) {
      CHECK(e.kind() == wavescope::ErrorKind::Usage);
      CHECK(std::string(e.what()) ==
            why + " (expected NAME=MIN:MAX or NAME=MIN:MAX:DTYPE, e.g. a=0:7 or x=-10:10:int32)");
    }
  }
}
