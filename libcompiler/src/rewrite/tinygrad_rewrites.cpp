#include "wavescope/compiler/rewrite/tinygrad_rewrites.hpp"

#include <cmath>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/rewrite/tinygrad_names.hpp"

namespace wavescope::compiler::rewrite {
namespace {

using pickle::Kind;
using pickle::Value;

constexpr std::size_t kReprLimit = 1 << 16;  // a longer repr is cut (a key holding a whole graph)

std::string_view class_name(const Value &v) {
  const Value *cls = v.object_class();
  return cls ? cls->name() : std::string_view();
}

// An enum member as pickled: Class(value).
std::optional<std::int64_t> enum_value(const Value &v, std::string_view cls) {
  if (!v.is(Kind::Object) || class_name(v) != cls) return std::nullopt;
  const Value *a = v.arg(0);
  if (!a || !a->int_fits_int64()) return std::nullopt;
  return a->as_int64();
}

std::string python_string(std::string_view s) {
  const char quote =
      s.find('\'') != std::string_view::npos && s.find('"') == std::string_view::npos ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == quote)
      out += std::string("\\") + static_cast<char>(c);
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  return out + quote;
}

std::string python_float(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

double double_of_bits(std::uint64_t bits) {
  double d = 0;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// A big pickled int (little-endian two's complement) that fits Int.
std::optional<Int> big_int(const Value &v) {
  const auto bytes = v.big_int_bytes();
  if (bytes.empty() || bytes.size() > 16) return std::nullopt;
  UInt u = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) u = (u << 8) | bytes[i];
  if (bytes.size() < 16 && (bytes.back() & 0x80)) u |= ~UInt(0) << (8 * bytes.size());
  return static_cast<Int>(u);
}

// Python's repr of a value of the object tree, as far as the tree tells it (tinygrad's enums and
// dtypes by name, dataclasses as Name(field=value, ...)).
class Repr {
public:
  std::string operator()(const Value &v) {
    out_.clear();
    write(v);
    if (out_.size() > kReprLimit) out_ = out_.substr(0, kReprLimit) + "...";
    return out_;
  }

private:
  void write(const Value &v) {
    if (out_.size() > kReprLimit) return;
    switch (v.kind()) {
    case Kind::None: out_ += "None"; return;
    case Kind::Bool: out_ += v.as_bool() ? "True" : "False"; return;
    case Kind::Int:
      if (v.int_fits_int64())
        out_ += std::to_string(v.as_int64());
      else if (auto i = big_int(v))
        out_ += to_string(*i);
      else
        out_ += fmt::format("<{}-byte int>", v.big_int_bytes().size());
      return;
    case Kind::Float: out_ += python_float(v.as_double()); return;
    case Kind::Str: out_ += python_string(v.as_str()); return;
    case Kind::Bytes: out_ += fmt::format("<{} bytes>", v.as_bytes().size()); return;
    case Kind::Tuple:
      out_ += '(';
      sequence(v);
      out_ += v.size() == 1 ? ",)" : ")";
      return;
    case Kind::List:
      out_ += '[';
      sequence(v);
      out_ += ']';
      return;
    case Kind::Set:
    case Kind::FrozenSet:
      out_ += '{';
      sequence(v);
      out_ += '}';
      return;
    case Kind::Dict:
      out_ += '{';
      for (std::size_t i = 0; i < v.dict_size(); ++i) {
        if (i) out_ += ", ";
        write(*v.dict_entry(i).key);
        out_ += ": ";
        write(*v.dict_entry(i).value);
      }
      out_ += '}';
      return;
    case Kind::Global: out_ += fmt::format("{}.{}", v.module(), v.name()); return;
    case Kind::Object: object(v); return;
    }
  }

  void sequence(const Value &v) {
    bool first = true;
    for (const Value *item : v.items()) {
      if (!first) out_ += ", ";
      first = false;
      write(*item);
    }
  }

  void object(const Value &v) {
    const std::string_view cls = class_name(v);
    if (auto op = enum_value(v, "Ops")) {
      out_ += "Ops." + tinygrad::op_name(*op);
      return;
    }
    if (auto t = enum_value(v, "AxisType")) {
      out_ += tinygrad::axis_type_name(*t);
      return;
    }
    if (auto a = enum_value(v, "AddrSpace")) {
      out_ += tinygrad::addr_space_name(*a);
      return;
    }
    if (cls == "DType" && v.arg(2) && v.arg(2)->is(Kind::Str)) {
      out_ += "dtypes." + tinygrad::dtypes_attribute(v.arg(2)->as_str());
      return;
    }
    if (cls == "InvalidType") {
      out_ += "Invalid";
      return;
    }
    if (cls == "ConstFloat") {
      const Value *bits = v.attr("bits");
      if (bits && bits->is(Kind::Int) && !bits->int_fits_int64() && big_int(*bits))
        out_ += python_float(double_of_bits(static_cast<std::uint64_t>(*big_int(*bits))));
      else if (bits && bits->int_fits_int64())
        out_ += python_float(double_of_bits(static_cast<std::uint64_t>(bits->as_int64())));
      else if (const Value *a = v.arg(0))
        write(*a);
      return;
    }
    out_ += cls.empty() ? std::string_view("object") : cls;
    out_ += '(';
    bool first = true;
    const auto *parts = v.object();
    if (parts->args)
      for (const Value *a : parts->args->items()) {
        if (!first) out_ += ", ";
        first = false;
        write(*a);
      }
    const Value *state = parts->state;
    // A class with __slots__ pickles (dict or None, slots dict).
    if (state && state->is(Kind::Tuple) && state->size() == 2 && state->items()[1]->is(Kind::Dict))
      state = state->items()[1];
    if (state && state->is(Kind::Dict))
      for (std::size_t i = 0; i < state->dict_size(); ++i) {
        const auto e = state->dict_entry(i);
        if (!first) out_ += ", ";
        first = false;
        if (e.key->is(Kind::Str))
          out_ += e.key->as_str();
        else
          write(*e.key);
        out_ += '=';
        write(*e.value);
      }
    out_ += ')';
  }

  std::string out_;
};

class RewritesReader {
public:
  RewritesReader(const pickle::PickleDocument &doc, const std::filesystem::path &source)
      : doc_(doc), source_(source.string()) {}

  RewriteTrace read() {
    const Value &root = doc_.root();
    if (!root.is(Kind::Object) || class_name(root) != "RewriteTrace")
      fail(root, fmt::format("not a tinygrad rewrite trace: the pickle holds a {}, not a "
                             "tinygrad RewriteTrace (is this a profile.pkl?)",
                             root.describe()));
    const Value &keys = part(root, "keys", 0);
    const Value &rewrites = part(root, "rewrites", 1);
    const Value &uop_fields = part(root, "uop_fields", 2);
    if (!is_sequence(keys))
      fail(keys, "RewriteTrace.keys is a " + keys.describe() + ", not a list");
    if (!is_sequence(rewrites))
      fail(rewrites, "RewriteTrace.rewrites is a " + rewrites.describe() + ", not a list");
    if (keys.size() != rewrites.size())
      fail(rewrites, fmt::format("RewriteTrace has {} contexts but {} lists of rewrites",
                                 keys.size(), rewrites.size()));
    if (!uop_fields.is(Kind::Dict))
      fail(uop_fields, "RewriteTrace.uop_fields is a " + uop_fields.describe() + ", not a dict");

    std::map<std::uint64_t, TraceNode> nodes;
    for (std::size_t i = 0; i < uop_fields.dict_size(); ++i) {
      const auto e = uop_fields.dict_entry(i);
      const std::uint64_t id = number(*e.key, "a uop_fields key");
      nodes[id] = node(*e.value);
    }
    std::vector<TraceGroupRecord> groups;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      TraceGroupRecord g = group(keys[i]);
      const Value &list = rewrites[i];
      if (!is_sequence(list))
        fail(list,
             fmt::format("the rewrites of context {} are a {}, not a list", i, list.describe()));
      for (const Value *r : list.items()) g.rewrites.push_back(rewrite(*r));
      groups.push_back(std::move(g));
    }
    return RewriteTrace::from_records(std::move(nodes), std::move(groups), "tinygrad",
                                      ReplaySemantics::Viz, source_);
  }

private:
  [[noreturn]] void fail(const Value &v, const std::string &what) const {
    throw Error(ErrorKind::BadInput,
                fmt::format("{}: byte {} (0x{:x}): {}", source_, v.offset(), v.offset(), what));
  }

  static bool is_sequence(const Value &v) { return v.is(Kind::List) || v.is(Kind::Tuple); }

  // A field of a dataclass-like object, or its positional constructor argument (a NamedTuple).
  const Value &part(const Value &obj, std::string_view name, std::size_t position) const {
    if (const Value *v = obj.attr(name)) return *v;
    if (const Value *v = obj.arg(position)) return *v;
    fail(obj, fmt::format("a {} without its '{}' field", class_name(obj), name));
  }
  const Value *optional(const Value &obj, std::string_view name) const {
    const Value *v = obj.attr(name);
    return v && !v->is_none() ? v : nullptr;
  }

  std::uint64_t number(const Value &v, std::string_view what) const {
    if (!v.int_fits_int64() || v.as_int64() < 0)
      fail(v, fmt::format("{} is a {}, not a non-negative int", what, v.describe()));
    return static_cast<std::uint64_t>(v.as_int64());
  }
  std::int64_t integer(const Value &v, std::string_view what) const {
    if (!v.int_fits_int64() && !v.is(Kind::Bool))
      fail(v, fmt::format("{} is a {}, not an int", what, v.describe()));
    return v.as_int64();
  }
  bool flag(const Value &obj, std::string_view name) const {
    const Value *v = optional(obj, name);
    if (!v) return false;
    if (!v->is(Kind::Bool) && !v->int_fits_int64())
      fail(*v, fmt::format("TrackedGraphRewrite.{} is a {}, not a bool", name, v->describe()));
    return v->as_int64() != 0;
  }
  std::string text(const Value &v, std::string_view what) const {
    if (!v.is(Kind::Str)) fail(v, fmt::format("{} is a {}, not a str", what, v.describe()));
    return std::string(v.as_str());
  }
  // A (file, line) pair as "file:line".
  std::string location(const Value &v, std::string_view what) const {
    if (v.is_none()) return "";
    if (!v.is(Kind::Tuple) || v.size() != 2 || !v[0].is(Kind::Str))
      fail(v, fmt::format("{} is a {}, not a (file, line) pair", what, v.describe()));
    return fmt::format("{}:{}", v[0].as_str(), integer(v[1], what));
  }

  TraceGroupRecord group(const Value &key) {
    TraceGroupRecord g;
    if (key.is(Kind::Str)) {
      g.name = key.as_str();
      return g;
    }
    if (!key.is(Kind::Object))
      fail(key, "a context key is a " + key.describe() + ", not a TracingKey");
    g.name = text(part(key, "display_name", 0), "TracingKey.display_name");
    if (const Value *lookup = optional(key, "keys"); lookup && is_sequence(*lookup))
      for (const Value *k : lookup->items())
        if (k->is(Kind::Str)) g.keys.emplace_back(k->as_str());
    return g;
  }

  TraceRewrite rewrite(const Value &r) {
    if (!r.is(Kind::Object))
      fail(r, "a rewrite record is a " + r.describe() + ", not a TrackedGraphRewrite");
    TraceRewrite rw;
    const Value *name = optional(r, "name");
    rw.name = name ? text(*name, "TrackedGraphRewrite.name") : "";
    rw.loc = location(part(r, "loc", 0), "TrackedGraphRewrite.loc");
    const Value *depth = optional(r, "depth");
    rw.depth = depth ? static_cast<int>(integer(*depth, "TrackedGraphRewrite.depth")) : 0;
    rw.mode = flag(r, "bottom_up") ? "pre" : "post";
    rw.walk = flag(r, "walk");
    rw.enter_calls = flag(r, "enter_calls");
    rw.input = number(part(r, "sink", 1), "TrackedGraphRewrite.sink");
    const Value &matches = part(r, "matches", 2);
    if (!is_sequence(matches))
      fail(matches, "TrackedGraphRewrite.matches is a " + matches.describe() + ", not a list");
    for (const Value *m : matches.items()) {
      if (!m->is(Kind::Tuple) || m->size() < 3)
        fail(*m, "a match is a " + m->describe() + ", not a (before, after, loc, seconds) tuple");
      TraceStep s;
      s.before = number((*m)[0], "a match's before");
      s.after = number((*m)[1], "a match's after");
      s.rule_loc = location((*m)[2], "a match's rule location");
      if (m->size() > 3 && ((*m)[3].is(Kind::Float) || (*m)[3].is(Kind::Int))) {
        const double seconds = (*m)[3].as_double();
        if (std::isfinite(seconds) && seconds > 0 && seconds < 1e9)
          s.ns = static_cast<std::uint64_t>(std::llround(seconds * 1e9));
      }
      rw.steps.push_back(std::move(s));
    }
    return rw;
  }

  // (op, dtype, sources, arg, tag[, metadata])
  TraceNode node(const Value &fields) {
    if (!fields.is(Kind::Tuple) || fields.size() < 4)
      fail(fields, "a uop_fields entry is a " + fields.describe() +
                       ", not an (op, dtype, src, arg, tag) tuple");
    TraceNode n;
    const Value &op = fields[0];
    const auto op_value = enum_value(op, "Ops");
    if (!op_value) fail(op, "a UOp's op is a " + op.describe() + ", not an Ops member");
    const std::string name = tinygrad::op_name(*op_value);
    const auto ours = parse_op(name);
    n.op = ours.value_or(Op::NOOP);
    if (!ours) n.foreign_op = name;
    read_dtype(fields[1], n);
    const Value &src = fields[2];
    if (!src.is(Kind::Tuple)) fail(src, "a UOp's src is a " + src.describe() + ", not a tuple");
    for (const Value *s : src.items()) n.src.push_back(number(*s, "a UOp source"));
    n.arg = arg(fields[3], n.op);
    if (!ours) n.arg = ForeignArg{"op " + name, repr_(fields[3])};
    n.tag = fields.size() > 4 ? arg(fields[4], Op::NOOP) : Arg{};
    return n;
  }

  void read_dtype(const Value &v, TraceNode &n) {
    if (auto d = dtype(v)) {
      n.dtype = *d;
      return;
    }
    if (!v.is(Kind::Object)) fail(v, "a UOp's dtype is a " + v.describe() + ", not a DType");
    n.dtype = dtypes::void_;
    n.foreign_dtype = class_name(v) == "DType" && v.arg(2) && v.arg(2)->is(Kind::Str)
                          ? std::string(v.arg(2)->as_str())
                          : repr_(v);
  }

  // A DType(priority, bitsize, name, fmt[, count]) libcompiler has.
  static std::optional<DType> dtype(const Value &v) {
    if (!v.is(Kind::Object) || class_name(v) != "DType") return std::nullopt;
    const Value *name = v.arg(2);
    if (!name || !name->is(Kind::Str)) return std::nullopt;
    auto d = tinygrad::dtype_named(name->as_str());
    // Older tinygrads carried vector lanes in the DType (a fifth argument, count).
    if (d && v.arg(4) && v.arg(4)->int_fits_int64() && v.arg(4)->as_int64() > 1 &&
        v.arg(4)->as_int64() < 65536)
      d = d->vec(static_cast<std::uint16_t>(v.arg(4)->as_int64()));
    return d;
  }

  Arg arg(const Value &v, Op op) {
    switch (v.kind()) {
    case Kind::None: return std::monostate{};
    case Kind::Bool: return v.as_bool();
    case Kind::Int:
      if (v.int_fits_int64()) return Int(v.as_int64());
      if (auto i = big_int(v)) return *i;
      return ForeignArg{"int", repr_(v)};
    case Kind::Float: return FloatValue{v.as_double()};
    case Kind::Str: return std::string(v.as_str());
    case Kind::Bytes: {
      const auto bytes = v.as_bytes();
      return ForeignArg{"bytes",
                        std::string(reinterpret_cast<const char *>(bytes.data()), bytes.size())};
    }
    case Kind::Tuple: return tuple_arg(v, op);
    case Kind::Object: return object_arg(v);
    default: return ForeignArg{to_string(v.kind()), repr_(v)};
    }
  }

  Arg tuple_arg(const Value &v, Op op) {
    const auto items = v.items();
    // RANGE: (axis id, AxisType); REDUCE: (Ops, axes).
    if (op == Op::RANGE && items.size() == 2 && items[0]->int_fits_int64())
      if (auto t = enum_value(*items[1], "AxisType"); t && tinygrad::axis_type(*t))
        return RangeArg{items[0]->as_int64(), *tinygrad::axis_type(*t), {}};
    if (op == Op::REDUCE && items.size() == 2 && items[1]->int_fits_int64())
      if (auto o = enum_value(*items[0], "Ops"))
        if (auto reduce_op = parse_op(tinygrad::op_name(*o)))
          return ReduceArg{*reduce_op, items[1]->as_int64()};
    bool all_ints = true;
    for (const Value *x : items) all_ints = all_ints && x->int_fits_int64();
    if (all_ints) {
      AxisList list;
      for (const Value *x : items) list.push_back(x->as_int64());
      return list;
    }
    return ForeignArg{"tuple", repr_(v)};
  }

  Arg object_arg(const Value &v) {
    const std::string_view cls = class_name(v);
    if (auto d = dtype(v)) return *d;
    if (cls == "InvalidType") return InvalidValue{};
    if (cls == "ConstFloat") {
      if (const Value *bits = v.attr("bits"); bits && bits->int_fits_int64())
        return FloatValue{double_of_bits(static_cast<std::uint64_t>(bits->as_int64()))};
      if (const Value *bits = v.attr("bits"); bits && big_int(*bits))
        return FloatValue{double_of_bits(static_cast<std::uint64_t>(*big_int(*bits)))};
      if (const Value *a = v.arg(0); a && (a->is(Kind::Float) || a->is(Kind::Int)))
        return FloatValue{a->as_double()};
    }
    if (cls == "ParamArg") return param(v);
    return ForeignArg{std::string(cls), repr_(v)};
  }

  // ParamArg(slot, dtype, vmin_vmax, multiple_of, name, addrspace, ...): the rest kept as text.
  Arg param(const Value &v) {
    const Value *state = v.object()->state;
    if (!state || !state->is(Kind::Dict)) return ForeignArg{"ParamArg", repr_(v)};
    ParamArg p;
    Repr repr;
    for (std::size_t i = 0; i < state->dict_size(); ++i) {
      const auto e = state->dict_entry(i);
      if (!e.key->is(Kind::Str)) return ForeignArg{"ParamArg", repr_(v)};
      const std::string_view key = e.key->as_str();
      const Value &value = *e.value;
      if (key == "slot" && value.int_fits_int64())
        p.slot = value.as_int64();
      else if (key == "dtype" && dtype(value))
        p.dtype = *dtype(value);
      else if (key == "vmin_vmax" && value.is(Kind::Tuple) && value.size() == 2 &&
               value[0].int_fits_int64() && value[1].int_fits_int64())
        p.bounds = std::make_pair(Int(value[0].as_int64()), Int(value[1].as_int64()));
      else if (key == "vmin_vmax" && value.is_none()) {
      } else if (key == "multiple_of" && value.int_fits_int64())
        p.multiple_of = value.as_int64();
      else if (key == "multiple_of" && value.is_none()) {
      } else if (key == "name" && value.is(Kind::Str))
        p.name = value.as_str();
      else if (key == "name" && value.is_none()) {
      } else if (key == "addrspace" && enum_value(value, "AddrSpace") &&
                 tinygrad::addr_space(*enum_value(value, "AddrSpace")))
        p.addrspace = *tinygrad::addr_space(*enum_value(value, "AddrSpace"));
      else {
        if (!p.extra.empty()) p.extra += ", ";
        p.extra += fmt::format("{}={}", key, repr(value));
      }
    }
    return p;
  }

  std::string repr_(const Value &v) { return Repr{}(v); }

  const pickle::PickleDocument &doc_;
  std::string source_;
};

}  // namespace

bool looks_like_pickle(std::span<const std::uint8_t> head) {
  return head.size() >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5;
}

bool looks_like_tinygrad_rewrites(std::span<const std::uint8_t> head) {
  if (!looks_like_pickle(head)) return false;
  const std::string_view text(reinterpret_cast<const char *>(head.data()), head.size());
  const auto rewrites = text.find("RewriteTrace");
  const auto event = text.find("Event");
  return rewrites != std::string_view::npos &&
         (event == std::string_view::npos || event > rewrites);
}

RewriteTrace tinygrad_rewrites_from(const pickle::PickleDocument &document,
                                    const std::filesystem::path &source) {
  return RewritesReader(document, source).read();
}

RewriteTrace read_tinygrad_rewrites(const std::filesystem::path &path) {
  pickle::ReadOptions options;
  options.source_name = path.string();
  const auto doc = pickle::PickleDocument::load(path, options);
  return tinygrad_rewrites_from(doc, path);
}

}  // namespace wavescope::compiler::rewrite
