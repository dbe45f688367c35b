// Kernel ASTs: names, parameters, validation, JSON and text forms (kernel_ast.hpp).

#include "wavescope/compiler/kernel/kernel_ast.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/variables.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"

namespace wavescope::compiler::kernel {
namespace {

using nlohmann::json;

Error bad(const std::string &what) { return Error(ErrorKind::BadInput, what); }

std::string node_label(const UOp &u, const std::unordered_map<const UOpNode *, std::size_t> &ids) {
  auto it = ids.find(u.get());
  return fmt::format("node {} ({})", it == ids.end() ? 0 : it->second, to_string(u.op()));
}

// --- args to and from JSON ------------------------------------------------------------------

json float_json(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  return v;
}

json arg_to_json(const Arg &arg) {
  return std::visit(
      [](const auto &a) -> json {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return nullptr;
        else if constexpr (std::is_same_v<T, Int>)
          return json{{"int", to_string(a)}};
        else if constexpr (std::is_same_v<T, bool>)
          return json{{"bool", a}};
        else if constexpr (std::is_same_v<T, FloatValue>)
          return json{{"float", float_json(a.value)}};
        else if constexpr (std::is_same_v<T, InvalidValue>)
          return json{{"invalid", true}};
        else if constexpr (std::is_same_v<T, DType>)
          return json{{"dtype", to_string(a)}};
        else if constexpr (std::is_same_v<T, std::string>)
          return json{{"string", a}};
        else if constexpr (std::is_same_v<T, AxisList>)
          return json{{"axes", a}};
        else if constexpr (std::is_same_v<T, ParamArg>) {
          json p{{"slot", a.slot},
                 {"dtype", to_string(a.dtype)},
                 {"name", a.name},
                 {"addrspace", std::string(to_string(a.addrspace))}};
          if (a.bounds) p["bounds"] = {to_string(a.bounds->first), to_string(a.bounds->second)};
          if (a.multiple_of != 1) p["multiple_of"] = to_string(a.multiple_of);
          if (!a.extra.empty()) p["extra"] = a.extra;
          return json{{"param", p}};
        } else if constexpr (std::is_same_v<T, RangeArg>) {
          return json{
              {"range",
               {{"axis", a.axis}, {"type", std::string(to_string(a.type))}, {"name", a.name}}}};
        } else if constexpr (std::is_same_v<T, ReduceArg>) {
          return json{{"reduce", {{"op", std::string(to_string(a.op))}, {"axes", a.axes}}}};
        } else {
          static_assert(std::is_same_v<T, ForeignArg>);
          return json{{"foreign", {{"type", a.type}, {"text", a.text}}}};
        }
      },
      arg);
}

struct Reader {
  std::string origin;
  Error fail(const std::string &path, const std::string &what) const {
    return bad(fmt::format("{}: {}: {}", origin, path, what));
  }
  const json &field(const json &obj, const char *key, const std::string &path) const {
    if (!obj.is_object()) throw fail(path, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) throw fail(path, fmt::format("missing \"{}\"", key));
    return *it;
  }
  std::string str(const json &j, const std::string &path) const {
    if (!j.is_string()) throw fail(path, "expected a string");
    return j.get<std::string>();
  }
  std::int64_t integer(const json &j, const std::string &path) const {
    if (!j.is_number_integer()) throw fail(path, "expected an integer");
    return j.get<std::int64_t>();
  }
  Int big(const json &j, const std::string &path) const {
    if (j.is_number_integer()) return j.get<std::int64_t>();
    auto v = j.is_string() ? parse_int(j.get<std::string>()) : std::nullopt;
    if (!v) throw fail(path, "expected an integer (a number or a decimal string)");
    return *v;
  }
  double real(const json &j, const std::string &path) const {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
      const auto s = j.get<std::string>();
      if (s == "nan") return NAN;
      if (s == "inf") return INFINITY;
      if (s == "-inf") return -INFINITY;
    }
    throw fail(path, "expected a number, \"inf\", \"-inf\" or \"nan\"");
  }
  DType dtype(const json &j, const std::string &path) const {
    const auto s = str(j, path);
    auto t = parse_dtype(s);
    if (!t) throw fail(path, fmt::format("unknown dtype '{}'", s));
    return *t;
  }
  Op op(const json &j, const std::string &path) const {
    const auto s = str(j, path);
    auto o = parse_op(s);
    if (!o) throw fail(path, fmt::format("unknown op '{}'", s));
    return *o;
  }

  Arg arg(const json &j, const std::string &path) const {
    if (j.is_null()) return {};
    if (!j.is_object() || j.size() != 1)
      throw fail(path, "expected null or an object with one key");
    // Not `*j.items().begin()`: its key lives in a temporary that dies with the statement.
    const auto first = j.begin();
    const std::string key = first.key();
    const json &v = first.value();
    const std::string p = path + "." + key;
    if (key == "int") return big(v, p);
    if (key == "bool") {
      if (!v.is_boolean()) throw fail(p, "expected true or false");
      return v.get<bool>();
    }
    if (key == "float") return FloatValue{real(v, p)};
    if (key == "invalid") return InvalidValue{};
    if (key == "dtype") return dtype(v, p);
    if (key == "string") return str(v, p);
    if (key == "axes") {
      if (!v.is_array()) throw fail(p, "expected an array");
      AxisList axes;
      for (std::size_t i = 0; i < v.size(); ++i)
        axes.push_back(integer(v[i], fmt::format("{}[{}]", p, i)));
      return axes;
    }
    if (key == "param") {
      ParamArg a;
      a.slot = integer(field(v, "slot", p), p + ".slot");
      a.dtype = dtype(field(v, "dtype", p), p + ".dtype");
      a.name = str(field(v, "name", p), p + ".name");
      const auto space = str(field(v, "addrspace", p), p + ".addrspace");
      auto as = parse_addrspace(space);
      if (!as) throw fail(p + ".addrspace", fmt::format("unknown address space '{}'", space));
      a.addrspace = *as;
      if (v.contains("bounds")) {
        const auto &b = v["bounds"];
        if (!b.is_array() || b.size() != 2) throw fail(p + ".bounds", "expected [min, max]");
        a.bounds = std::make_pair(big(b[0], p + ".bounds[0]"), big(b[1], p + ".bounds[1]"));
      }
      if (v.contains("multiple_of")) a.multiple_of = big(v["multiple_of"], p + ".multiple_of");
      if (v.contains("extra")) a.extra = str(v["extra"], p + ".extra");
      return a;
    }
    if (key == "range") {
      RangeArg a;
      a.axis = integer(field(v, "axis", p), p + ".axis");
      const auto type = str(field(v, "type", p), p + ".type");
      auto t = parse_axis_type(type);
      if (!t) throw fail(p + ".type", fmt::format("unknown axis type '{}'", type));
      a.type = *t;
      if (v.contains("name")) a.name = str(v["name"], p + ".name");
      return a;
    }
    if (key == "reduce") {
      ReduceArg a;
      a.op = op(field(v, "op", p), p + ".op");
      if (v.contains("axes")) a.axes = integer(v["axes"], p + ".axes");
      return a;
    }
    if (key == "foreign") {
      return ForeignArg{str(field(v, "type", p), p + ".type"),
                        str(field(v, "text", p), p + ".text")};
    }
    throw fail(path, fmt::format("unknown arg kind '{}'", key));
  }
};

bool is_value_op(Op op) {
  return ops::kAlu.contains(op) || op == Op::CONST || op == Op::CAST || op == Op::BITCAST ||
         op == Op::INDEX || op == Op::REDUCE || op == Op::RANGE || op == Op::PARAM ||
         op == Op::LOAD || op == Op::SPECIAL;
}

}  // namespace

Arg kernel_info(std::string_view name) {
  return ForeignArg{"KernelInfo", fmt::format("KernelInfo(name='{}')", name)};
}

std::string kernel_name(const UOp &sink) {
  if (sink && sink.op() == Op::SINK) {
    if (auto f = std::get_if<ForeignArg>(&sink.arg())) {
      const std::string &t = f->text;
      for (const char *key : {"name='", "name=\""}) {
        const auto at = t.find(key);
        if (at == std::string::npos) continue;
        const char quote = key[5];
        const auto end = t.find(quote, at + 6);
        if (end != std::string::npos) {
          auto n = rewrite::strip_ansi(t.substr(at + 6, end - at - 6));
          if (!n.empty()) return n;
        }
      }
    }
  }
  return "kernel";
}

OpenRanges open_ranges(const std::vector<UOp> &nodes) {
  OpenRanges open;
  for (const auto &u : nodes) {
    std::vector<const UOpNode *> ranges;
    for (const auto &s : u.src()) {
      const auto &rs = open[s.get()];
      ranges.insert(ranges.end(), rs.begin(), rs.end());
    }
    if (u.op() == Op::RANGE) ranges.push_back(u.get());
    std::sort(ranges.begin(), ranges.end());
    ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
    if (u.op() == Op::REDUCE || u.op() == Op::END)
      for (std::size_t k = 1; k < u.size(); ++k)
        ranges.erase(std::remove(ranges.begin(), ranges.end(), u.src(k).get()), ranges.end());
    open[u.get()] = std::move(ranges);
  }
  return open;
}

std::vector<KernelParam> kernel_params(const UOp &sink) {
  std::map<std::int64_t, KernelParam> by_slot;
  const auto nodes = toposort(sink);
  for (const auto &u : nodes) {
    if (u.op() != Op::PARAM) continue;
    auto p = std::get_if<ParamArg>(&u.arg());
    if (!p || p->addrspace == AddrSpace::Alu) continue;
    KernelParam k;
    k.slot = p->slot;
    k.dtype = u.dtype().base();
    k.name = p->name.empty() ? fmt::format("data{}", p->slot) : p->name;
    k.node = u;
    if (u.size() >= 1 && u.src(0).const_value() && fits_int64(*u.src(0).const_value()))
      k.size = static_cast<std::int64_t>(*u.src(0).const_value());
    else
      throw bad(fmt::format("PARAM {} ({}) has no constant size", p->slot, k.name));
    if (k.size < 0) throw bad(fmt::format("PARAM {} has a negative size", p->slot));
    if (auto [it, fresh] = by_slot.emplace(k.slot, k); !fresh && !(it->second.node == u))
      throw bad(fmt::format("two PARAMs share slot {}", k.slot));
  }
  for (const auto &u : nodes)
    if (u.op() == Op::STORE && u.size() >= 1 && u.src(0).op() == Op::INDEX &&
        u.src(0).size() >= 1 && u.src(0).src(0).op() == Op::PARAM)
      if (auto p = std::get_if<ParamArg>(&u.src(0).src(0).arg()); p && by_slot.count(p->slot))
        by_slot[p->slot].written = true;
  std::vector<KernelParam> out;
  for (auto &[slot, k] : by_slot) out.push_back(std::move(k));
  return out;
}

void validate_kernel(const UOp &sink) {
  if (!sink) throw bad("kernel AST: empty graph");
  const auto nodes = toposort(sink);
  auto fail = [&](const UOp &u, const std::string &what) {
    std::unordered_map<const UOpNode *, std::size_t> ids;  // (only for the message)
    for (std::size_t i = 0; i < nodes.size(); ++i) ids.emplace(nodes[i].get(), i);
    return bad(fmt::format("kernel AST: {}: {}", node_label(u, ids), what));
  };
  if (sink.op() != Op::SINK) throw fail(sink, "the root must be a SINK");
  for (const auto &u : nodes) {
    const Op op = u.op();
    auto need = [&](std::size_t lo, std::size_t hi) {
      if (u.size() < lo || u.size() > hi)
        throw fail(u, fmt::format("expected {} to {} sources, has {}", lo, hi, u.size()));
    };
    switch (op) {
    case Op::SINK:
      for (const auto &s : u.src())
        if (s.op() != Op::END && s.op() != Op::STORE && s.op() != Op::GROUP)
          throw fail(u, fmt::format("a kernel's SINK holds END, STORE or GROUP, not {}",
                                    to_string(s.op())));
      break;
    case Op::GROUP: break;
    case Op::END:
      need(1, 64);
      if (u.src(0).op() != Op::STORE && u.src(0).op() != Op::END && u.src(0).op() != Op::GROUP)
        throw fail(u, "the body of an END must be a STORE, END or GROUP");
      for (std::size_t i = 1; i < u.size(); ++i)
        if (u.src(i).op() != Op::RANGE) throw fail(u, "an END closes RANGEs only");
      break;
    case Op::STORE:
      need(2, 3);
      if (u.src(0).op() != Op::INDEX) throw fail(u, "a STORE's first source must be an INDEX");
      break;
    case Op::INDEX:
      need(2, 2);
      if (u.src(0).op() != Op::PARAM) throw fail(u, "an INDEX must index a PARAM");
      if (!is_int(u.src(1).dtype()) && !u.src(1).is_invalid() && u.src(1).op() != Op::WHERE)
        throw fail(u, "the index must be an integer");
      break;
    case Op::PARAM:
      if (!std::holds_alternative<ParamArg>(u.arg())) throw fail(u, "a PARAM needs a ParamArg");
      if (std::get<ParamArg>(u.arg()).addrspace != AddrSpace::Alu) {
        need(1, 1);
        auto n = u.src(0).const_value();
        if (!n || *n < 0) throw fail(u, "a buffer PARAM needs a constant, non-negative size");
      } else if (u.size() != 0) {
        throw fail(u, "a variable PARAM (ALU address space) takes no sources");
      }
      break;
    case Op::RANGE:
      need(1, 64);
      if (!std::holds_alternative<RangeArg>(u.arg())) throw fail(u, "a RANGE needs a RangeArg");
      if (!is_int(u.src(0).dtype())) throw fail(u, "the extent must be an integer");
      break;
    case Op::REDUCE:
      need(1, 64);
      if (!std::holds_alternative<ReduceArg>(u.arg())) throw fail(u, "a REDUCE needs a ReduceArg");
      if (!ops::kReduce.contains(std::get<ReduceArg>(u.arg()).op))
        throw fail(u, "the reduce op must be ADD, MUL or MAX");
      for (std::size_t i = 1; i < u.size(); ++i)
        if (u.src(i).op() != Op::RANGE) throw fail(u, "a REDUCE reduces over RANGEs only");
      break;
    case Op::CONST:
      need(0, 0);
      if (std::holds_alternative<std::monostate>(u.arg())) throw fail(u, "a CONST needs a value");
      break;
    case Op::CAST:
    case Op::BITCAST: need(1, 1); break;
    default:
      if (ops::kAlu.contains(op)) {
        const std::size_t n = ops::kUnary.contains(op) ? 1 : ops::kBinary.contains(op) ? 2 : 3;
        need(n, n);
        for (const auto &s : u.src())
          if (!is_value_op(s.op()))
            throw fail(u, fmt::format("operand {} is not a value", to_string(s.op())));
        break;
      }
      throw fail(u, fmt::format("op {} has no place in a kernel AST", to_string(op)));
    }
  }
  kernel_params(sink);
}

std::string kernel_to_json(const UOp &sink, int indent) {
  const auto nodes = toposort(sink);
  std::unordered_map<const UOpNode *, std::size_t> ids;
  json list = json::array();
  for (const auto &u : nodes) {
    json src = json::array();
    for (const auto &s : u.src()) src.push_back(ids.at(s.get()));
    json n{{"op", std::string(to_string(u.op()))},
           {"dtype", to_string(u.dtype())},
           {"src", src},
           {"arg", arg_to_json(u.arg())}};
    if (!is_none(u.tag())) n["tag"] = arg_to_json(u.tag());
    ids.emplace(u.get(), list.size());
    list.push_back(std::move(n));
  }
  json doc{{"format", "wavescope-kernel-ast"},
           {"version", 1},
           {"name", kernel_name(sink)},
           {"nodes", std::move(list)},
           {"root", nodes.size() - 1}};
  return doc.dump(indent);
}

UOp kernel_from_json(std::string_view text, std::string_view origin) {
  Reader r{std::string(origin)};
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::exception &e) {
    throw bad(fmt::format("{}: not JSON: {}", origin, e.what()));
  }
  if (!doc.is_object()) throw r.fail("$", "expected an object");
  if (auto f = doc.find("format"); f == doc.end() || *f != "wavescope-kernel-ast")
    throw r.fail("format", "expected \"wavescope-kernel-ast\"");
  if (r.integer(r.field(doc, "version", "$"), "version") != 1)
    throw r.fail("version", "only version 1 is known");
  const auto &list = r.field(doc, "nodes", "$");
  if (!list.is_array() || list.empty()) throw r.fail("nodes", "expected a non-empty array");
  std::vector<UOp> built;
  built.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string p = fmt::format("nodes[{}]", i);
    const auto &n = list[i];
    const Op op = r.op(r.field(n, "op", p), p + ".op");
    const DType dt = r.dtype(r.field(n, "dtype", p), p + ".dtype");
    const auto &src_j = r.field(n, "src", p);
    if (!src_j.is_array()) throw r.fail(p + ".src", "expected an array");
    std::vector<UOp> src;
    for (std::size_t k = 0; k < src_j.size(); ++k) {
      const auto id = r.integer(src_j[k], fmt::format("{}.src[{}]", p, k));
      if (id < 0 || static_cast<std::size_t>(id) >= i)
        throw r.fail(fmt::format("{}.src[{}]", p, k),
                     fmt::format("node {} is not an earlier node", id));
      src.push_back(built[id]);
    }
    Arg arg = r.arg(n.contains("arg") ? n["arg"] : json(nullptr), p + ".arg");
    Arg tag = r.arg(n.contains("tag") ? n["tag"] : json(nullptr), p + ".tag");
    built.push_back(UOp::make(op, dt, std::move(src), std::move(arg), std::move(tag)));
  }
  const auto root = r.integer(r.field(doc, "root", "$"), "root");
  if (root < 0 || static_cast<std::size_t>(root) >= built.size())
    throw r.fail("root", fmt::format("node {} does not exist", root));
  // A variable in tinygrad's form (a PARAM with an empty STACK) becomes ours.
  UOp sink = variables_from_tinygrad(built[root]);
  try {
    validate_kernel(sink);
  } catch (const Error &e) {
    throw bad(fmt::format("{}: {}", origin, e.what()));
  }
  return sink;
}

std::string kernel_to_text(const UOp &sink) {
  std::string out = fmt::format("kernel {}\n", kernel_name(sink));
  for (const auto &p : kernel_params(sink))
    out += fmt::format("  param {} {}[{}]{}\n", p.name, to_string(p.dtype), p.size,
                       p.written ? " (written)" : "");
  out += to_text(sink);
  return out;
}

}  // namespace wavescope::compiler::kernel
