// A kernel's variables (variables.hpp).

#include "wavescope/compiler/kernel/variables.hpp"

#include <charconv>
#include <unordered_map>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"

namespace wavescope::compiler::kernel {
namespace {

const ParamArg *variable_arg(const UOp &u) {
  if (u.op() != Op::PARAM) return nullptr;
  auto p = std::get_if<ParamArg>(&u.arg());
  return p && p->addrspace == AddrSpace::Alu ? p : nullptr;
}

}  // namespace

std::vector<KernelVariable> kernel_variables(const UOp &sink) {
  std::map<std::string, KernelVariable> by_name;
  for (const UOp &u : toposort(sink)) {
    const ParamArg *p = variable_arg(u);
    if (!p) continue;
    if (p->name.empty())
      throw Error(ErrorKind::BadInput, "a variable PARAM (ALU address space) has no name");
    if (!p->bounds)
      throw Error(ErrorKind::BadInput, fmt::format("variable '{}' has no bounds", p->name));
    KernelVariable v{p->name, u.dtype().base(), p->bounds->first, p->bounds->second,
                     p->multiple_of < 1 ? Int(1) : p->multiple_of};
    auto [it, fresh] = by_name.emplace(v.name, v);
    if (!fresh && (it->second.min != v.min || it->second.max != v.max))
      throw Error(ErrorKind::BadInput,
                  fmt::format("variable '{}' appears with bounds [{}, {}] and [{}, {}]", v.name,
                              to_string(it->second.min), to_string(it->second.max),
                              to_string(v.min), to_string(v.max)));
  }
  std::vector<KernelVariable> out;
  for (auto &[name, v] : by_name) out.push_back(std::move(v));
  return out;
}

std::int64_t default_value(const KernelVariable &v) {
  const Int m = v.multiple_of;
  Int top = v.max - ((v.max % m) + m) % m;  // the largest multiple of m <= max
  return static_cast<std::int64_t>(top >= v.min ? top : v.min);
}

VariableValues bind_variables(const UOp &sink, const VariableValues &given) {
  VariableValues out;
  for (const auto &v : kernel_variables(sink)) {
    auto it = given.find(v.name);
    if (it == given.end()) {
      out[v.name] = default_value(v);
      continue;
    }
    const Int x = it->second;
    if (x < v.min || x > v.max || x % v.multiple_of != 0)
      throw Error(ErrorKind::Usage,
                  fmt::format("variable {}={} is outside its bounds [{}, {}]{}", v.name, it->second,
                              to_string(v.min), to_string(v.max),
                              v.multiple_of != 1 ? fmt::format(" or not a multiple of {}",
                                                               to_string(v.multiple_of))
                                                 : ""));
    out[v.name] = it->second;
  }
  return out;
}

std::string variables_text(const VariableValues &values) {
  std::string out;
  for (const auto &[name, value] : values)
    out += fmt::format("{}{}={}", out.empty() ? "" : " ", name, value);
  return out;
}

std::pair<std::string, std::int64_t> parse_variable_assignment(const std::string &text) {
  const auto eq = text.find('=');
  std::int64_t value = 0;
  if (eq != std::string::npos && eq > 0) {
    const char *first = text.data() + eq + 1, *last = text.data() + text.size();
    auto [end, ec] = std::from_chars(first, last, value);
    if (ec == std::errc() && end == last && first != last) return {text.substr(0, eq), value};
  }
  throw Error(ErrorKind::Usage,
              fmt::format("--var '{}': expected NAME=VALUE with an integer VALUE, e.g. i=4", text));
}

UOp variables_from_tinygrad(const UOp &sink) {
  std::unordered_map<UOp, UOp> replace;
  for (const UOp &u : toposort(sink))
    if (variable_arg(u) && u.size() == 1 && u.src(0).op() == Op::STACK && u.src(0).size() == 0)
      replace.emplace(u, UOp::make(Op::PARAM, u.dtype(), {}, u.arg(), u.tag()));
  return replace.empty() ? sink : substitute(sink, replace);
}

}  // namespace wavescope::compiler::kernel
