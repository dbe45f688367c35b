#pragma once
// The plain-text expression syntax of spec §9: parsing into UOps, canonical printing, and the
// operation count used to compare simplifier outputs.
//
//   a*4+b<16      where((s<6)&(2<s), a, b)      (a*-1+2)//3+6      x//3%4*2+x//12%5*8
//
// `//` and `%` are floor division and modulo; `a-b` is built as `a+b*-1`, `-a` as `a*-1`, `a>=c`
// as `(a<c)!=true`, `a>c` as `c<a`, `a==b` as `(a!=b)!=true`, `min(a, b)` as `-max(-a, -b)`.

#include <map>
#include <string>
#include <string_view>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::symbolic {

// An expression that names a variable nobody declared: where (the expression and column) and
// which, and in the message the remedy in the library's terms; a tool words the remedy with its
// own option.
class UnknownVariable : public Error {
public:
  UnknownVariable(std::string where, std::string name)
      : Error(ErrorKind::BadInput, where + ": unknown variable '" + name +
                                       "' (declare it with its range, e.g. " + name + "=0:7)"),
        where_(std::move(where)), name_(std::move(name)) {}
  const std::string &where() const noexcept { return where_; }
  const std::string &name() const noexcept { return name_; }

private:
  std::string where_, name_;
};

// The names an expression may use, bound to variable (or range) nodes.
class Scope {
public:
  // Declares an index (or sized-int) variable with an inclusive range; replaces a previous one.
  void declare(const std::string &name, Int min, Int max, DType dtype = dtypes::index);
  // Binds a name to any node (e.g. a RANGE).
  void bind(const std::string &name, UOp node);
  // The node a name stands for, or a null UOp.
  UOp lookup(std::string_view name) const;
  const std::map<std::string, UOp, std::less<>> &names() const { return names_; }
  // When set, unknown names become unbounded index variables instead of an error.
  bool declare_unknown = false;

private:
  std::map<std::string, UOp, std::less<>> names_;
  friend class ExpressionParser;
};

// Parses an expression. Throws wavescope::Error(BadInput) naming the column and what was expected.
// `scope` is const unless declare_unknown is set, in which case new names are added to it.
UOp parse_expression(std::string_view text, Scope &scope);
UOp parse_expression(std::string_view text, const Scope &scope);

// Prints in the canonical form of spec §9.4 (no spaces except after commas in calls; minimal
// parentheses that still round-trip the tree shape). Ops the syntax lacks print as OPNAME(...).
std::string render_expression(const UOp &root);

// The number of distinct operator nodes (spec §9.5): every ALU node, cast and call counts once per
// structurally distinct subexpression; constants, variables and ranges count 0.
std::size_t count_operations(const UOp &root);
// The same for an expression text, parsed with unknown names declared on the fly.
std::size_t count_operations(std::string_view text);

}  // namespace wavescope::compiler::symbolic
