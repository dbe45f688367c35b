// Fuzz target: the symbolic simplifier. Even first byte: the bytes drive the random-expression
// generator (variables with small ranges; when the byte is 2 mod 8, cast-heavy expressions over
// mixed dtypes; when it is 6 mod 8, expressions mixing dtypes without casts), and the simplified
// result must be equivalent to the input over the whole domain. Odd first byte: the bytes are
// expression text; parsing may refuse it (wavescope::Error), but whatever parses must simplify
// without error. A non-equivalent result, a runaway rewrite or a crash is a bug: the target aborts.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/random_expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"

namespace {

using namespace wavescope::compiler;
using namespace wavescope::compiler::symbolic;

[[noreturn]] void bug(const std::string &what) {
  std::fprintf(stderr, "fuzz_symbolic: %s\n", what.c_str());
  std::abort();
}

SymbolicCase generate(std::uint8_t kind, std::span<const std::uint8_t> bytes) {
  if (kind % 4 == 0) return random_case(bytes);
  return kind % 8 == 2 ? random_typed_case(bytes) : random_mixed_case(bytes);
}

void fuzz_generated(std::uint8_t kind, std::span<const std::uint8_t> bytes) {
  const SymbolicCase c = generate(kind, bytes);
  const CaseGraph g = build_case(c);
  UOp result;
  try {
    result = simplify(g.expr);
  } catch (const wavescope::Error &e) {
    bug(c.expr + ": " + e.what());
  }
  const auto check = check_equivalence(g, result, 2000, 50000);
  if (!check.equivalent) {
    std::string vars;
    for (const auto &v : c.vars)
      vars += " --var " + v.name + "=" + to_string(v.min) + ":" + to_string(v.max) + ":" +
              to_string(v.dtype);
    bug("'" + c.expr + "'" + vars + " -> " + render_expression(result) + ": " + check.reason);
  }
}

void fuzz_text(std::span<const std::uint8_t> bytes) {
  const std::string text(bytes.begin(), bytes.end());
  Scope scope;
  scope.declare_unknown = true;
  UOp expr;
  try {
    expr = parse_expression(text, scope);
  } catch (const wavescope::Error &) {
    return;  // refusing malformed text is the parser's job
  }
  try {
    render_expression(simplify(expr));
  } catch (const wavescope::Error &e) {
    bug("'" + text + "': " + e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0) return 0;
  // Keep inputs small: the replay of the real corpus feeds whole capture files.
  const std::span<const std::uint8_t> bytes(data + 1, std::min<std::size_t>(size - 1, 2048));
  if (data[0] % 2 == 0)
    fuzz_generated(data[0], bytes);
  else
    fuzz_text(bytes);
  return 0;
}
