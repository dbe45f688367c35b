#pragma once
// Hand-written simplifier cases in the line format of spec §9.6:
//   DECLS :: EXPR => EXPECTED [@ [MIN,MAX]]
// Declarations are name:[lo,hi] or name:TYPE[lo,hi]; any other item before "::" is a constraint.
// A case passes when the result is equivalent to EXPR, has no more operations than EXPECTED, and
// (when given) its range is [MIN, MAX].

#include <sstream>
#include <string>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"

namespace wavescope::testing {

struct SpecCase {
  compiler::symbolic::SymbolicCase c;
  std::string expected;
  bool has_range = false;
  compiler::Int min = 0, max = 0;
};

inline SpecCase parse_spec_case(const std::string &line) {
  using namespace wavescope::compiler;
  SpecCase out;
  const auto sep = line.find("::");
  const auto arrow = line.find("=>");
  if (sep == std::string::npos || arrow == std::string::npos)
    throw Error(ErrorKind::BadInput, "spec case needs '::' and '=>': " + line);
  std::istringstream decls(line.substr(0, sep));
  std::string item;
  while (decls >> item) {
    const auto colon = item.find(':');
    const auto bracket = item.find('[');
    if (colon == std::string::npos || bracket == std::string::npos || bracket < colon) {
      out.c.constraints.push_back(item);
      continue;
    }
    symbolic::VariableDecl v;
    v.name = item.substr(0, colon);
    const std::string type = item.substr(colon + 1, bracket - colon - 1);
    if (!type.empty())
      v.dtype = *parse_dtype(type);
    const auto comma = item.find(',', bracket);
    v.min = *parse_int(item.substr(bracket + 1, comma - bracket - 1));
    v.max = *parse_int(item.substr(comma + 1, item.find(']') - comma - 1));
    out.c.vars.push_back(v);
  }
  out.c.id = line;
  out.c.expr = line.substr(sep + 2, arrow - sep - 2);
  std::string rest = line.substr(arrow + 2);
  if (const auto at = rest.find('@'); at != std::string::npos) {
    const std::string range = rest.substr(at + 1);
    const auto open = range.find('['), comma = range.find(','), close = range.find(']');
    out.has_range = true;
    out.min = *parse_int(range.substr(open + 1, comma - open - 1));
    out.max = *parse_int(range.substr(comma + 1, close - comma - 1));
    rest = rest.substr(0, at);
  }
  out.expected = rest;
  auto trim = [](std::string &s) {
    s.erase(0, s.find_first_not_of(' '));
    s.erase(s.find_last_not_of(' ') + 1);
  };
  trim(out.c.expr);
  trim(out.expected);
  return out;
}

} // namespace wavescope::testing
