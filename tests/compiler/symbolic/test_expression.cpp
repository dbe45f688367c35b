// The expression syntax of spec §9: parsing, canonical printing, operation counts, evaluation.

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/symbolic/evaluate.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::symbolic;

namespace {
Scope abc_scope() {
  Scope s;
  for (const char *n : {"a", "b", "c", "s", "x", "y", "gidx", "lidx"}) s.declare(n, -100, 100);
  return s;
}
std::string round_trip(const std::string &text) {
  const Scope s = abc_scope();
  return render_expression(parse_expression(text, s));
}
}  // namespace

TEST_CASE("canonical printing round-trips the spec's examples exactly") {
  for (const char *text : {"a*4+b<16",
                           "(a<8)!=true",
                           "x//3%4*2+x//12%5*8",
                           "where((s<6)&(2<s), a, b)",
                           "(a*-1+2)//3+6",
                           "(a<4)&(b<2)&(c<3)",
                           "a+(b+c)",
                           "a*(b*c)",
                           "max(a, b)+-1",
                           "a%-8//2",
                           "(a<b)!=(b<c)",
                           "cdiv(a, 3)+cmod(b, -2)",
                           "int32(a)<<2",
                           "true",
                           "invalid",
                           "where(a<4, a, invalid)",
                           "a|(b<3)",
                           "(a&b)|c",
                           "a&(b|c)",
                           "a^b^c"})
    CHECK(round_trip(text) == text);
}

TEST_CASE("input conveniences desugar to tinygrad's forms") {
  CHECK(round_trip("a-b") == "a+b*-1");
  CHECK(round_trip("a - 3") == "a+-3");
  CHECK(round_trip("-a") == "a*-1");
  CHECK(round_trip("--5") == "5");
  CHECK(round_trip("a>=3") == "(a<3)!=true");
  CHECK(round_trip("a>3") == "3<a");
  CHECK(round_trip("a<=b") == "(b<a)!=true");
  CHECK(round_trip("a==b") == "(a!=b)!=true");
  CHECK(round_trip("!(a<3)") == "(a<3)!=true");
  CHECK(round_trip("!a") == "(a!=0)!=true");
  CHECK(round_trip("~a") == "a^-1");
  CHECK(round_trip("min(a, b)") == "max(a*-1, b*-1)*-1");
  CHECK(round_trip("( a + b ) * 2") == "(a+b)*2");
}

TEST_CASE("parse errors name the column and what was expected") {
  const Scope s = abc_scope();
  auto message = [&](const std::string &text) {
    try {
      parse_expression(text, s);
    } catch (const wavescope::Error &e) {
      CHECK(e.kind() == wavescope::ErrorKind::BadInput);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message("a+"), Catch::Contains("column 3") && Catch::Contains("expected a value"));
  CHECK_THAT(message("a+q"), Catch::Contains("unknown variable 'q'"));
  CHECK_THAT(message("where(a, b)"), Catch::Contains("where takes 3 arguments, got 2"));
  CHECK_THAT(message("(a+b"), Catch::Contains("expected ')'"));
  CHECK_THAT(message("a $ b"), Catch::Contains("unexpected character '$'"));
  CHECK_THAT(message("foo(a)"), Catch::Contains("unknown function 'foo'"));
  CHECK_THAT(message("max+1"), Catch::Contains("'max' is a function"));
  CHECK_THAT(message("a b"), Catch::Contains("unexpected 'b'"));
  CHECK_THAT(message("99999999999999999999999999999999999999999"), Catch::Contains("too large"));
  CHECK_THAT(message(std::string(1001, '(') + "a" + std::string(1001, ')')),
             Catch::Contains("nested deeper than 1000 levels"));
  CHECK_THAT(message(std::string(1001, '-') + "a"), Catch::Contains("nested deeper"));
}

TEST_CASE("an unknown variable is an UnknownVariable naming where, which, and how to declare it") {
  try {
    parse_expression("a+q", abc_scope());
    FAIL("accepted");
  } catch (const UnknownVariable &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    CHECK(e.where() == "expression 'a+q': column 3");
    CHECK(e.name() == "q");
    CHECK(
        std::string(e.what()) ==
        "expression 'a+q': column 3: unknown variable 'q' (declare it with its range, e.g. q=0:7)");
  }
}

TEST_CASE("deeply nested input parses and simplifies (tinygrad's deeply nested sym_infer test)") {
  Scope s;
  s.declare("a", 0, 3);
  s.declare("b", 0, 2);
  std::string text = "a";  // 450 levels of max(...%5*(b+a), -7)+a: 900 nested parentheses
  for (int i = 0; i < 450; ++i) text = "max((" + text + ")%5*(b+a), -7)+a";
  const UOp e = parse_expression(text, s);
  CHECK(count_operations(e) == 4 * 450 + 1);  // b+a is one shared node
  const UOp simplified = simplify(e);
  const Evaluator before(e), after(simplified);
  for (Int a = 0; a <= 3; ++a)
    for (Int b = 0; b <= 2; ++b)
      CHECK(to_string(after({{"a", a}, {"b", b}})) == to_string(before({{"a", a}, {"b", b}})));
  CHECK(round_trip("((((((a+b))))))*((c))") == "(a+b)*c");
}

TEST_CASE("precedence and associativity") {
  CHECK(round_trip("a-b-c") == round_trip("(a-b)-c"));
  CHECK(round_trip("a//b//c") == round_trip("(a//b)//c"));
  CHECK(round_trip("a+b*c<a|b&c^a") == round_trip("((a+(b*c))<a)|((b&c)^a)"));
  CHECK(round_trip("a<<b+c") == round_trip("a<<(b+c)"));
}

TEST_CASE("operation counts count distinct operator nodes") {
  CHECK(count_operations("where(x<2, a, b)+where(x<2, b, a)") == 4);
  CHECK(count_operations("a") == 0);
  CHECK(count_operations("-5") == 0);
  CHECK(count_operations("a*-1") == 1);
  CHECK(count_operations("(a<8)!=true") == 2);
  CHECK(count_operations("int32(a)+int32(a)") == 2);
  CHECK(count_operations("x//3%4*2+x//12%5*8") == 7);
}

TEST_CASE("evaluation follows the corpus semantics") {
  Scope s;
  s.declare("a", -10, 10);
  s.declare("b", -10, 10);
  s.declare("i", -128, 127, wavescope::compiler::dtypes::int8);
  auto eval = [&](const char *text, std::unordered_map<std::string, Int> env) {
    const UOp e = parse_expression(text, s);
    return to_string(Evaluator(e)(env));
  };
  CHECK(eval("a//2", {{"a", -7}}) == "-4");
  CHECK(eval("a%2", {{"a", -7}}) == "1");
  CHECK(eval("a%-2", {{"a", 7}}) == "-1");
  CHECK(eval("cdiv(a, 2)", {{"a", -7}}) == "-3");
  CHECK(eval("cmod(a, 2)", {{"a", -7}}) == "-1");
  CHECK(eval("a//b", {{"a", 1}, {"b", 0}}) == "undefined");
  CHECK(eval("where(a<0, a//b, 5)", {{"a", 1}, {"b", 0}}) == "5");
  CHECK(eval("where(a<0, invalid, a)+1", {{"a", -1}}) == "invalid");
  CHECK(eval("where(a<0, invalid, a)+1", {{"a", 2}}) == "3");
  CHECK(eval("i+100", {{"i", 100}}) == "-56");
  CHECK(eval("i<100", {{"i", 100}}) == "false");
  CHECK(eval("(a<3)+(b<3)", {{"a", 0}, {"b", 9}}) == "true");
  CHECK(eval("(a<3)*5", {{"a", 0}}) == "5");
  CHECK(eval("a<<2", {{"a", -3}}) == "-12");
  CHECK(eval("a>>1", {{"a", -3}}) == "-2");
  CHECK(eval("a<<b", {{"a", 1}, {"b", -1}}) == "undefined");
  CHECK(eval("!a", {{"a", 0}}) == "true");
  CHECK(eval("~a", {{"a", 5}}) == "-6");
  CHECK(eval("min(a, b)", {{"a", 3}, {"b", -2}}) == "-2");
  CHECK(eval("int8(a*100)", {{"a", 3}}) == "44");
  CHECK(eval("bool(a)", {{"a", 3}}) == "true");
}

TEST_CASE("operands of two dtypes are promoted, and int64 beside uint64 is refused") {
  Scope s;
  s.declare("a", 0, 7, dtypes::int8);
  s.declare("b", 0, 7, dtypes::uint8);
  s.declare("c", 0, 7, dtypes::int64);
  s.declare("d", 0, 7, dtypes::uint64);
  CHECK(render_expression(parse_expression("a+b", s)) == "int16(a)+int16(b)");
  CHECK(render_expression(parse_expression("a+300", s)) == "a+44");  // the literal wraps to int8
  CHECK_THROWS_WITH(parse_expression("c+d", s), Catch::Contains("no integer type holds both"));
}
