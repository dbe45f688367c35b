#pragma once
// Cases of the symbolic corpus (../shared/data/symbolic/README.md): reading them, building their
// graphs, and checking a candidate for equivalence with the input over the case's domain.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"

namespace wavescope::compiler::symbolic {

struct VariableDecl {
  std::string name;
  Int min = 0, max = 0;  // inclusive
  DType dtype = dtypes::index;
};

// A variable written NAME=MIN:MAX or NAME=MIN:MAX:DTYPE (an integer dtype), e.g. a=0:7 or
// x=-10:10:int32. Throws Error(Usage) saying what is wrong and the expected form.
VariableDecl parse_variable_decl(std::string_view spec);

struct SymbolicCase {
  std::string id;
  std::vector<VariableDecl> vars;
  std::vector<std::string> constraints;
  std::string expr;
  // Reference fields, when the case has them.
  std::string tinygrad_simplified;
  std::optional<Int> expected_min, expected_max;
  std::optional<std::size_t> tinygrad_ops;
  std::string family;

  // Reads one JSON line of the corpus; throws wavescope::Error(BadInput) naming `where` and the
  // field at fault.
  static SymbolicCase parse_json(std::string_view line, std::string_view where);
};

// Every case of a .jsonl file (blank lines skipped).
std::vector<SymbolicCase> load_cases(const std::filesystem::path &path);

// A case as graphs: the scope (variables; a constraint `v<e` on a variable turns it into a loop
// index RANGE with extent e), the input expression and the constraints.
struct CaseGraph {
  std::vector<VariableDecl> vars;
  Scope scope;
  UOp expr;
  std::vector<UOp> constraints;
};
CaseGraph build_case(const SymbolicCase &c);

struct EquivalenceResult {
  bool equivalent = true;
  std::string reason;  // why not
  std::vector<std::pair<std::string, Int>> counterexample;
  std::size_t points = 0;  // domain points compared
  bool exhaustive = true;
};

// Compares `candidate` with the case's input at every domain point (at most `full_limit` points
// enumerated; larger domains: all boundary combinations plus `samples` seeded random points).
// Points failing a constraint or where the input is undefined are skipped; a candidate undefined
// where the input is defined is not equivalent; invalid equals only invalid.
EquivalenceResult check_equivalence(const CaseGraph &c, const UOp &candidate,
                                    std::size_t samples = 20000, std::size_t full_limit = 200000,
                                    std::uint64_t seed = 0x5eed);

}  // namespace wavescope::compiler::symbolic
