#include "wavescope/compiler/symbolic/corpus.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/symbolic/evaluate.hpp"

namespace wavescope::compiler::symbolic {

VariableDecl parse_variable_decl(std::string_view spec) {
  auto bad = [&](const std::string &why) {
    return Error(ErrorKind::Usage, fmt::format("{} (expected NAME=MIN:MAX or NAME=MIN:MAX:DTYPE, "
                                               "e.g. a=0:7 or x=-10:10:int32)",
                                               why));
  };
  const auto eq = spec.find('=');
  if (eq == std::string_view::npos || eq == 0) throw bad("no NAME=");
  VariableDecl v;
  v.name = std::string(spec.substr(0, eq));
  std::vector<std::string_view> parts;
  for (std::size_t start = eq + 1;;) {
    const auto colon = spec.find(':', start);
    parts.push_back(spec.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (parts.size() < 2 || parts.size() > 3) throw bad("expected MIN:MAX");
  const auto lo = parse_int(parts[0]), hi = parse_int(parts[1]);
  if (!lo || !hi) throw bad("MIN and MAX must be integers");
  if (*lo > *hi) throw bad("MIN is greater than MAX");
  v.min = *lo;
  v.max = *hi;
  if (parts.size() == 3) {
    const auto t = parse_dtype(parts[2]);
    if (!t || !is_int(*t)) throw bad("'" + std::string(parts[2]) + "' is not an integer dtype");
    v.dtype = *t;
  }
  return v;
}

using nlohmann::json;

namespace {

Int json_int(const json &v, std::string_view where, const std::string &field) {
  if (!v.is_number_integer())
    throw Error(ErrorKind::BadInput, fmt::format("{}: {}: expected an integer", where, field));
  return v.get<std::int64_t>();
}

std::optional<Int> optional_int(const json &obj, const char *key, std::string_view where) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return std::nullopt;
  return json_int(*it, where, key);
}

// tinygrad's expected bounds: null, an integer, or a number too large for 64 bits, which is
// tinygrad's unbounded range of its weak int type and gives nothing to compare with.
std::optional<Int> reference_bound(const json &obj, const char *key, std::string_view where) {
  auto it = obj.find(key);
  if (it != obj.end() && it->is_number_float() && std::abs(it->get<double>()) >= 0x1p63)
    return std::nullopt;
  return optional_int(obj, key, where);
}

}  // namespace

SymbolicCase SymbolicCase::parse_json(std::string_view line, std::string_view where) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception &e) {  // not only parse_error: 1e5012 is out_of_range
    throw Error(ErrorKind::BadInput, fmt::format("{}: not JSON: {}", where, e.what()));
  }
  if (!j.is_object())
    throw Error(ErrorKind::BadInput, fmt::format("{}: expected a JSON object", where));
  auto string_field = [&](const char *key, bool required) -> std::string {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) {
      if (required)
        throw Error(ErrorKind::BadInput, fmt::format("{}: missing field '{}'", where, key));
      return {};
    }
    if (!it->is_string())
      throw Error(ErrorKind::BadInput, fmt::format("{}: {}: expected a string", where, key));
    return it->get<std::string>();
  };
  SymbolicCase c;
  c.id = string_field("id", true);
  c.expr = string_field("expr", true);
  c.tinygrad_simplified = string_field("tinygrad_simplified", false);
  c.family = string_field("family", false);
  const std::string loc = fmt::format("{} (case {})", where, c.id);
  auto vars = j.find("vars");
  if (vars == j.end() || !vars->is_object())
    throw Error(ErrorKind::BadInput, fmt::format("{}: 'vars' must map names to [min, max]", loc));
  const json dtypes_json = j.value("var_dtypes", json::object());
  if (!dtypes_json.is_object())
    throw Error(ErrorKind::BadInput, fmt::format("{}: 'var_dtypes' must be an object", loc));
  for (const auto &[name, range] : vars->items()) {
    if (!range.is_array() || range.size() != 2)
      throw Error(ErrorKind::BadInput, fmt::format("{}: vars.{}: expected [min, max]", loc, name));
    VariableDecl v;
    v.name = name;
    v.min = json_int(range[0], loc, "vars." + name + "[0]");
    v.max = json_int(range[1], loc, "vars." + name + "[1]");
    if (auto it = dtypes_json.find(name); it != dtypes_json.end()) {
      if (!it->is_string())
        throw Error(ErrorKind::BadInput,
                    fmt::format("{}: var_dtypes.{}: expected a dtype name", loc, name));
      auto t = parse_dtype(it->get<std::string>());
      if (!t || !is_int(*t))
        throw Error(ErrorKind::BadInput,
                    fmt::format("{}: var_dtypes.{}: '{}' is not an integer dtype", loc, name,
                                it->get<std::string>()));
      v.dtype = *t;
    }
    c.vars.push_back(std::move(v));
  }
  if (auto cons = j.find("constraints"); cons != j.end() && !cons->is_null()) {
    if (!cons->is_array())
      throw Error(ErrorKind::BadInput, fmt::format("{}: 'constraints' must be a list", loc));
    for (const auto &s : *cons) {
      if (!s.is_string())
        throw Error(ErrorKind::BadInput, fmt::format("{}: constraints: expected strings", loc));
      c.constraints.push_back(s.get<std::string>());
    }
  }
  c.expected_min = reference_bound(j, "expected_min", loc);
  c.expected_max = reference_bound(j, "expected_max", loc);
  if (auto ops = optional_int(j, "tinygrad_ops", loc))
    c.tinygrad_ops = static_cast<std::size_t>(*ops);
  return c;
}

std::vector<SymbolicCase> load_cases(const std::filesystem::path &path) {
  std::ifstream in(path);
  if (!in) throw Error(ErrorKind::BadInput, "cannot open case file " + path.string());
  std::vector<SymbolicCase> cases;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    cases.push_back(SymbolicCase::parse_json(line, fmt::format("{}:{}", path.string(), number)));
  }
  return cases;
}

CaseGraph build_case(const SymbolicCase &c) {
  CaseGraph g;
  g.vars = c.vars;
  for (const auto &v : c.vars) g.scope.declare(v.name, v.min, v.max, v.dtype);
  std::int64_t axis = 0;
  for (const auto &text : c.constraints) {
    const UOp cons = parse_expression(text, g.scope);
    // `v<e` on a variable v (not used by e) makes v a loop index with extent e.
    if (cons.op() == Op::CMPLT && cons.src(0).op() == Op::PARAM &&
        cons.src(0).dtype() == dtypes::index && !in_graph(cons.src(1), cons.src(0))) {
      const std::string name = node_name(cons.src(0));
      g.scope.bind(name, range(cons.src(1), axis++, AxisType::Loop, name));
    }
  }
  for (const auto &text : c.constraints) g.constraints.push_back(parse_expression(text, g.scope));
  g.expr = parse_expression(c.expr, g.scope);
  return g;
}

namespace {

// An evaluator with its inputs mapped to positions in the case's variable list.
struct BoundEvaluator {
  Evaluator eval;
  std::vector<std::size_t> slots;
  std::vector<Int> values;
  BoundEvaluator(const UOp &root, const std::vector<VariableDecl> &vars) : eval(root) {
    for (const auto &name : eval.inputs()) {
      auto it =
          std::find_if(vars.begin(), vars.end(), [&](const auto &v) { return v.name == name; });
      if (it == vars.end())
        throw Error(ErrorKind::BadInput,
                    "the expression uses '" + name + "', which the case does not declare");
      slots.push_back(static_cast<std::size_t>(it - vars.begin()));
    }
    values.resize(slots.size());
  }
  Value operator()(const std::vector<Int> &point) {
    for (std::size_t i = 0; i < slots.size(); ++i) values[i] = point[slots[i]];
    return eval(values);
  }
};

}  // namespace

EquivalenceResult check_equivalence(const CaseGraph &c, const UOp &candidate, std::size_t samples,
                                    std::size_t full_limit, std::uint64_t seed) {
  EquivalenceResult result;
  BoundEvaluator reference(c.expr, c.vars), cand(candidate, c.vars);
  std::vector<BoundEvaluator> constraints;
  for (const auto &k : c.constraints) constraints.emplace_back(k, c.vars);

  auto check_point = [&](const std::vector<Int> &point) {
    for (auto &k : constraints) {
      const Value v = k(point);
      if (!v.is_defined() || v.kind == Value::Kind::Invalid || v.v == 0) return true;
    }
    const Value expected = reference(point);
    if (!expected.is_defined()) return true;
    ++result.points;
    const Value got = cand(point);
    if (got.is_defined() && same_value(expected, got)) return true;
    result.equivalent = false;
    result.reason = got.is_defined() ? fmt::format("value differs: expr={} candidate={}",
                                                   to_string(expected), to_string(got))
                                     : "candidate undefined where the input is defined";
    for (std::size_t i = 0; i < c.vars.size(); ++i)
      result.counterexample.emplace_back(c.vars[i].name, point[i]);
    return false;
  };

  const std::size_t n = c.vars.size();
  std::vector<Int> point(n);
  long double domain = 1;
  for (const auto &v : c.vars) {
    if (v.max < v.min) return result;  // an empty domain
    domain *= static_cast<long double>(v.max - v.min + 1);
  }
  if (domain <= static_cast<long double>(full_limit)) {
    for (std::size_t i = 0; i < n; ++i) point[i] = c.vars[i].min;
    while (true) {
      if (!check_point(point)) return result;
      std::size_t i = 0;
      while (i < n && point[i] == c.vars[i].max) point[i] = c.vars[i].min, ++i;
      if (i == n) break;
      ++point[i];
    }
    return result;
  }
  result.exhaustive = false;
  // Boundary combinations first, then seeded random points.
  std::vector<std::vector<Int>> specials;
  for (const auto &v : c.vars) {
    std::set<Int> s;
    for (Int x :
         {v.min, v.max, v.min + 1, v.max - 1, Int(0), Int(1), Int(-1), floor_div(v.min + v.max, 2)})
      if (x >= v.min && x <= v.max) s.insert(x);
    specials.emplace_back(s.begin(), s.end());
  }
  std::vector<std::size_t> pick(n, 0);
  for (std::size_t count = 0; count < 5000; ++count) {
    for (std::size_t i = 0; i < n; ++i) point[i] = specials[i][pick[i]];
    if (!check_point(point)) return result;
    std::size_t i = 0;
    while (i < n && pick[i] + 1 == specials[i].size()) pick[i] = 0, ++i;
    if (i == n) break;
    ++pick[i];
  }
  std::mt19937_64 rng(seed);
  for (std::size_t s = 0; s < samples; ++s) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto span = static_cast<std::uint64_t>(c.vars[i].max - c.vars[i].min);
      point[i] = c.vars[i].min + static_cast<Int>(span == UINT64_MAX ? rng() : rng() % (span + 1));
    }
    if (!check_point(point)) return result;
  }
  return result;
}

}  // namespace wavescope::compiler::symbolic
