#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/tinygrad_rewrites.hpp"
#include "wavescope/compiler/rewrite/viz_substitute.hpp"

namespace wavescope::compiler::rewrite {

using nlohmann::json;

namespace {

thread_local RewriteTrace *g_active = nullptr;
thread_local int g_depth = 0;

constexpr const char *kDefaultGroup = "default graph_rewrite";

// --- args as JSON ----------------------------------------------------------------------------

json int_json(Int v) {
  if (fits_int64(v)) return static_cast<std::int64_t>(v);
  return json{{"int", to_string(v)}};
}

json arg_json(const Arg &arg) {
  return std::visit(
      [](const auto &v) -> json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return nullptr;
        else if constexpr (std::is_same_v<T, Int>)
          return int_json(v);
        else if constexpr (std::is_same_v<T, bool>)
          return v;
        else if constexpr (std::is_same_v<T, FloatValue>) {
          if (std::isnan(v.value)) return json{{"float", "nan"}};
          if (std::isinf(v.value)) return json{{"float", v.value > 0 ? "inf" : "-inf"}};
          return json{{"float", v.value}};
        } else if constexpr (std::is_same_v<T, InvalidValue>)
          return json{{"invalid", true}};
        else if constexpr (std::is_same_v<T, DType>)
          return json{{"dtype", to_string(v)}};
        else if constexpr (std::is_same_v<T, std::string>)
          return v;
        else if constexpr (std::is_same_v<T, AxisList>)
          return json{{"axes", v}};
        else if constexpr (std::is_same_v<T, ParamArg>) {
          json p = {{"slot", v.slot},
                    {"dtype", to_string(v.dtype)},
                    {"name", v.name},
                    {"addrspace", std::string(to_string(v.addrspace))}};
          if (v.bounds) {
            p["min"] = int_json(v.bounds->first);
            p["max"] = int_json(v.bounds->second);
          }
          if (v.multiple_of != 1) p["multiple_of"] = int_json(v.multiple_of);
          if (!v.extra.empty()) p["extra"] = v.extra;
          return json{{"param", p}};
        } else if constexpr (std::is_same_v<T, RangeArg>) {
          return json{
              {"range",
               {{"axis", v.axis}, {"type", std::string(to_string(v.type))}, {"name", v.name}}}};
        } else if constexpr (std::is_same_v<T, ReduceArg>) {
          return json{{"reduce", {{"op", std::string(to_string(v.op))}, {"axes", v.axes}}}};
        } else {
          // Bytes (a BINARY's code object) as hex, so the JSON stays text.
          std::string text = v.text;
          if (v.type == "bytes") {
            text.clear();
            for (unsigned char c : v.text) text += fmt::format("{:02x}", c);
          }
          return json{{"foreign", {{"type", v.type}, {"text", text}}}};
        }
      },
      arg);
}

// Reads JSON with error messages that name the path of the offending value.
class Reader {
public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const std::string &path, const std::string &what) const {
    throw Error(ErrorKind::BadInput, fmt::format("{}: {}: {}", origin_, path, what));
  }

  const json &field(const json &obj, const std::string &path, const char *key) const {
    if (!obj.is_object()) fail(path, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(path, fmt::format("missing field '{}'", key));
    return *it;
  }

  std::string string(const json &v, const std::string &path) const {
    if (!v.is_string()) fail(path, "expected a string");
    return v.get<std::string>();
  }

  std::int64_t integer(const json &v, const std::string &path) const {
    if (!v.is_number_integer()) fail(path, "expected an integer");
    return v.get<std::int64_t>();
  }

  std::uint64_t id(const json &v, const std::string &path) const {
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
      fail(path, "expected a node id (a non-negative integer)");
    return v.get<std::uint64_t>();
  }

  bool boolean(const json &v, const std::string &path) const {
    if (!v.is_boolean()) fail(path, "expected true or false");
    return v.get<bool>();
  }

  Int wide(const json &v, const std::string &path) const {
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (v.is_object() && v.contains("int") && v["int"].is_string()) {
      if (auto parsed = parse_int(v["int"].get<std::string>())) return *parsed;
      fail(path + ".int", "not a decimal integer");
    }
    fail(path, "expected an integer");
  }

  DType dtype(const json &v, const std::string &path) const {
    const std::string text = string(v, path);
    if (auto t = parse_dtype(text)) return *t;
    fail(path, "unknown dtype '" + text + "'");
  }

  Arg arg(const json &v, const std::string &path) const {
    if (v.is_null()) return std::monostate{};
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number_integer()) return Int(v.get<std::int64_t>());
    if (v.is_string()) return v.get<std::string>();
    if (!v.is_object() || v.size() != 1)
      fail(path, "expected null, a number, a string, a bool or a "
                 "one-field object");
    // The one field (the iterator must outlive the key and value it hands out).
    const auto field_it = v.begin();
    const std::string key = field_it.key();
    const json &value = field_it.value();
    const std::string sub = path + "." + key;
    if (key == "int") return wide(v, path);
    if (key == "invalid") return InvalidValue{};
    if (key == "dtype") return dtype(value, sub);
    if (key == "axes") {
      if (!value.is_array()) fail(sub, "expected an array");
      AxisList axes;
      for (std::size_t i = 0; i < value.size(); ++i)
        axes.push_back(integer(value[i], fmt::format("{}[{}]", sub, i)));
      return axes;
    }
    if (key == "float") {
      if (value.is_number()) return FloatValue{value.get<double>()};
      const std::string text = string(value, sub);
      if (text == "nan") return FloatValue{std::numeric_limits<double>::quiet_NaN()};
      if (text == "inf") return FloatValue{std::numeric_limits<double>::infinity()};
      if (text == "-inf") return FloatValue{-std::numeric_limits<double>::infinity()};
      fail(sub, "expected a number, \"nan\", \"inf\" or \"-inf\"");
    }
    if (key == "param") {
      ParamArg p;
      p.slot = integer(field(value, sub, "slot"), sub + ".slot");
      p.dtype = dtype(field(value, sub, "dtype"), sub + ".dtype");
      if (value.contains("name")) p.name = string(value["name"], sub + ".name");
      if (value.contains("addrspace")) {
        const std::string space = string(value["addrspace"], sub + ".addrspace");
        auto s = parse_addrspace(space);
        if (!s) fail(sub + ".addrspace", "unknown address space '" + space + "'");
        p.addrspace = *s;
      }
      if (value.contains("min") != value.contains("max"))
        fail(sub, "a variable needs both 'min' and 'max'");
      if (value.contains("min"))
        p.bounds =
            std::make_pair(wide(value["min"], sub + ".min"), wide(value["max"], sub + ".max"));
      if (value.contains("multiple_of"))
        p.multiple_of = wide(value["multiple_of"], sub + ".multiple_of");
      if (value.contains("extra")) p.extra = string(value["extra"], sub + ".extra");
      return p;
    }
    if (key == "range") {
      RangeArg r;
      r.axis = integer(field(value, sub, "axis"), sub + ".axis");
      const std::string type = string(field(value, sub, "type"), sub + ".type");
      auto t = parse_axis_type(type);
      if (!t) fail(sub + ".type", "unknown axis type '" + type + "'");
      r.type = *t;
      if (value.contains("name")) r.name = string(value["name"], sub + ".name");
      return r;
    }
    if (key == "reduce") {
      ReduceArg r;
      const std::string op = string(field(value, sub, "op"), sub + ".op");
      auto o = parse_op(op);
      if (!o) fail(sub + ".op", "unknown op '" + op + "'");
      r.op = *o;
      r.axes = integer(field(value, sub, "axes"), sub + ".axes");
      return r;
    }
    if (key == "foreign") {
      ForeignArg f{string(field(value, sub, "type"), sub + ".type"),
                   string(field(value, sub, "text"), sub + ".text")};
      if (f.type == "bytes") {
        if (f.text.size() % 2) fail(sub + ".text", "bytes in hex need an even length");
        std::string raw;
        for (std::size_t i = 0; i < f.text.size(); i += 2) {
          unsigned byte = 0;
          const char *first = f.text.data() + i, *last = first + 2;
          const auto [end, ec] = std::from_chars(first, last, byte, 16);
          if (ec != std::errc() || end != last)
            fail(sub + ".text", fmt::format("not hex at character {}", i));
          raw += static_cast<char>(byte);
        }
        f.text = std::move(raw);
      }
      return f;
    }
    fail(path, "unknown arg kind '" + key + "'");
  }

private:
  std::string origin_;
};

}  // namespace

RewriteTrace::RewriteTrace(RewriteTrace &&other) noexcept = default;
RewriteTrace &RewriteTrace::operator=(RewriteTrace &&other) noexcept = default;

std::uint64_t RewriteTrace::record_node(const UOp &node) {
  std::lock_guard lock(*mutex_);
  return record_node_locked(node);
}

std::uint64_t RewriteTrace::record_node_locked(const UOp &node) {
  if (auto it = trace_id_of_.find(node.id()); it != trace_id_of_.end()) return it->second;
  // Children first, without recursion: the node table is filled in topological order.
  for (const auto &u : toposort(node)) {
    if (trace_id_of_.count(u.id())) continue;
    TraceNode t;
    t.op = u.op();
    t.dtype = u.dtype();
    for (const auto &s : u.src()) t.src.push_back(trace_id_of_.at(s.id()));
    t.arg = u.arg();
    t.tag = u.tag();
    const std::uint64_t id = nodes_.empty() ? 0 : nodes_.rbegin()->first + 1;
    nodes_.emplace(id, std::move(t));
    trace_id_of_.emplace(u.id(), id);
  }
  return trace_id_of_.at(node.id());
}

UOp RewriteTrace::rebuild(std::uint64_t id) const {
  std::unordered_map<std::uint64_t, UOp> built;
  std::vector<std::pair<std::uint64_t, bool>> stack{{id, false}};
  while (!stack.empty()) {
    auto [n, expanded] = stack.back();
    stack.pop_back();
    if (built.count(n)) continue;
    auto it = nodes_.find(n);
    if (it == nodes_.end())
      throw Error(ErrorKind::BadInput,
                  fmt::format("rewrite trace: node {} is not in the node table", n));
    if (!expanded) {
      stack.emplace_back(n, true);
      for (auto s : it->second.src)
        if (!built.count(s)) stack.emplace_back(s, false);
      continue;
    }
    std::vector<UOp> src;
    for (auto s : it->second.src) src.push_back(built.at(s));
    built.emplace(n, UOp::make(it->second.op, it->second.dtype, std::move(src), it->second.arg,
                               it->second.tag));
  }
  return built.at(id);
}

std::vector<UOp> RewriteTrace::replay(const TraceRewrite &rewrite) const {
  if (semantics_ == ReplaySemantics::Viz) {
    // VIZ's get_full_rewrite: the pairs so far, through tinygrad's substitute; a bottom-up rewrite
    // matched nodes of its input, so every record substitutes into the input.
    std::vector<UOp> graphs{rebuild(rewrite.input)};
    std::unordered_map<UOp, UOp> replaces;
    UOp next = graphs.front();
    for (const auto &step : rewrite.steps) {
      replaces[rebuild(step.before)] = rebuild(step.after);
      try {
        graphs.push_back(viz_substitute(next, replaces, rewrite.walk, rewrite.enter_calls));
      } catch (const Error &e) {
        graphs.push_back(
            UOp::make(Op::REWRITE_ERROR, dtypes::void_, {}, std::string(e.what()), Arg{}));
        break;
      }
      if (rewrite.mode != "pre") next = graphs.back();
    }
    return graphs;
  }
  // Every before -> after pair seen so far applies, again and again: the engine rewrites a node
  // once, so a node that reappears later (rebuilt from other parts) takes its known result
  // without a new step.
  // An engine run reaches the fixpoint in a pass or two. Pairs that re-expand (x -> f(x)) or
  // cycle (a -> b, b -> a) never do, and only a damaged or hand-made trace holds them: the replay
  // ends there with an error graph instead of growing the graph pass after pass.
  constexpr int kMaxPasses = 64;
  std::vector<UOp> graphs{rebuild(rewrite.input)};
  std::unordered_map<UOp, UOp> seen;
  for (std::size_t i = 0; i < rewrite.steps.size(); ++i) {
    const auto &step = rewrite.steps[i];
    seen[rebuild(step.before)] = rebuild(step.after);
    UOp current = graphs.back();
    std::unordered_set<UOp> passed{current};
    bool fixpoint = false;
    for (int pass = 0; pass < kMaxPasses && !fixpoint; ++pass) {
      UOp next = substitute(current, seen);
      fixpoint = next == current;
      if (!fixpoint && !passed.insert(next).second) break;  // back to an earlier graph: a cycle
      current = next;
    }
    if (!fixpoint) {
      graphs.push_back(UOp::make(
          Op::REWRITE_ERROR, dtypes::void_, {},
          fmt::format("step {} of '{}': its before -> after pairs do not settle (they re-expand "
                      "or cycle), so the graph after it cannot be rebuilt",
                      i, rewrite.name),
          Arg{}));
      break;
    }
    graphs.push_back(current);
  }
  return graphs;
}

TraceGroupRecord &RewriteTrace::current_group() {
  if (!open_groups_.empty()) return groups_[open_groups_.back()];
  if (groups_.empty() || groups_.back().name != kDefaultGroup)
    groups_.push_back(TraceGroupRecord{kDefaultGroup, {}, {}});
  return groups_.back();
}

void RewriteTrace::open_group(std::string name, std::vector<std::string> keys) {
  std::lock_guard lock(*mutex_);
  groups_.push_back(TraceGroupRecord{std::move(name), std::move(keys), {}});
  open_groups_.push_back(groups_.size() - 1);
}

void RewriteTrace::close_group() {
  std::lock_guard lock(*mutex_);
  if (!open_groups_.empty()) open_groups_.pop_back();
}

void RewriteTrace::rename_open_group(std::string name) {
  std::lock_guard lock(*mutex_);
  if (!open_groups_.empty()) groups_[open_groups_.back()].name = std::move(name);
}

std::size_t RewriteTrace::begin_rewrite(TraceRewrite header) {
  std::lock_guard lock(*mutex_);
  TraceGroupRecord &group = current_group();
  group.rewrites.push_back(std::move(header));
  const std::size_t group_index = static_cast<std::size_t>(&group - groups_.data());
  handles_.emplace_back(group_index, group.rewrites.size() - 1);
  return handles_.size() - 1;
}

void RewriteTrace::add_step(std::size_t handle, TraceStep step) {
  std::lock_guard lock(*mutex_);
  const auto [g, r] = handles_.at(handle);
  groups_[g].rewrites[r].steps.push_back(std::move(step));
}

void RewriteTrace::end_rewrite(std::size_t handle, std::optional<std::uint64_t> output) {
  std::lock_guard lock(*mutex_);
  const auto [g, r] = handles_.at(handle);
  groups_[g].rewrites[r].output = output;
}

std::string RewriteTrace::to_json() const {
  json nodes = json::object();
  for (const auto &[id, n] : nodes_) {
    json node = {{"op", std::string(to_string(n.op))},
                 {"dtype", to_string(n.dtype)},
                 {"src", n.src},
                 {"arg", arg_json(n.arg)},
                 {"tag", arg_json(n.tag)}};
    if (!n.foreign_op.empty()) node["foreign_op"] = n.foreign_op;
    if (!n.foreign_dtype.empty()) node["foreign_dtype"] = n.foreign_dtype;
    nodes[std::to_string(id)] = std::move(node);
  }
  json groups = json::array();
  for (const auto &g : groups_) {
    json rewrites = json::array();
    for (const auto &r : g.rewrites) {
      json steps = json::array();
      for (const auto &s : r.steps)
        steps.push_back({{"before", s.before},
                         {"after", s.after},
                         {"rule", s.rule},
                         {"rule_loc", s.rule_loc},
                         {"ns", s.ns}});
      json rw = {{"name", r.name},           {"loc", r.loc},
                 {"depth", r.depth},         {"mode", r.mode},
                 {"walk", r.walk},           {"enter_calls", r.enter_calls},
                 {"input", r.input},         {"output", r.output ? json(*r.output) : json(nullptr)},
                 {"steps", std::move(steps)}};
      rewrites.push_back(std::move(rw));
    }
    groups.push_back({{"name", g.name}, {"keys", g.keys}, {"rewrites", std::move(rewrites)}});
  }
  json root = {{"version", kVersion},
               {"generator", generator_},
               {"nodes", std::move(nodes)},
               {"groups", std::move(groups)}};
  return root.dump(-1, ' ', false, json::error_handler_t::replace);
}

void RewriteTrace::write_json(const std::filesystem::path &path) const {
  write_file_atomically(path, to_json() + "\n");
}

RewriteTrace RewriteTrace::read_json(std::string_view text, std::string_view origin) {
  Reader in{std::string(origin)};
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception &e) {  // not only parse_error: 1e5012 is out_of_range
    throw Error(ErrorKind::BadInput, fmt::format("{}: not JSON: {}", origin, e.what()));
  }
  RewriteTrace trace;
  const json &version = in.field(root, "(top level)", "version");
  if (in.integer(version, "version") != kVersion)
    in.fail("version",
            fmt::format("unsupported version {} (this reader knows {})", version.dump(), kVersion));
  if (root.is_object() && root.contains("generator") && root["generator"].is_string()) {
    trace.generator_ = root["generator"].get<std::string>();
    // A tinygrad trace written out as JSON replays as VIZ replays it.
    if (trace.generator_ == "tinygrad") trace.semantics_ = ReplaySemantics::Viz;
  }
  const json &nodes = in.field(root, "(top level)", "nodes");
  if (!nodes.is_object()) in.fail("nodes", "expected an object of id -> node");
  for (const auto &[key, value] : nodes.items()) {
    const std::string path = "nodes." + key;
    auto id = parse_int(key);
    if (!id || *id < 0) in.fail(path, "a node id must be a non-negative integer");
    TraceNode n;
    const std::string op = in.string(in.field(value, path, "op"), path + ".op");
    auto parsed_op = parse_op(op);
    if (!parsed_op) in.fail(path + ".op", "unknown op '" + op + "'");
    n.op = *parsed_op;
    n.dtype = in.dtype(in.field(value, path, "dtype"), path + ".dtype");
    const json &src = in.field(value, path, "src");
    if (!src.is_array()) in.fail(path + ".src", "expected an array of node ids");
    for (std::size_t i = 0; i < src.size(); ++i)
      n.src.push_back(in.id(src[i], fmt::format("{}.src[{}]", path, i)));
    n.arg = value.contains("arg") ? in.arg(value["arg"], path + ".arg") : Arg{};
    n.tag = value.contains("tag") ? in.arg(value["tag"], path + ".tag") : Arg{};
    if (value.contains("foreign_op"))
      n.foreign_op = in.string(value["foreign_op"], path + ".foreign_op");
    if (value.contains("foreign_dtype"))
      n.foreign_dtype = in.string(value["foreign_dtype"], path + ".foreign_dtype");
    trace.nodes_.emplace(static_cast<std::uint64_t>(*id), std::move(n));
  }
  for (const auto &[id, n] : trace.nodes_)
    for (std::size_t i = 0; i < n.src.size(); ++i) {
      if (!trace.nodes_.count(n.src[i]))
        in.fail(fmt::format("nodes.{}.src[{}]", id, i),
                fmt::format("node {} is not in the node table", n.src[i]));
      if (n.src[i] >= id)
        in.fail(fmt::format("nodes.{}.src[{}]", id, i),
                "a child must have a smaller id than its parent (children are recorded first)");
    }
  auto node_ref = [&](const json &v, const std::string &path) {
    const std::uint64_t id = in.id(v, path);
    if (!trace.nodes_.count(id)) in.fail(path, fmt::format("node {} is not in the node table", id));
    return id;
  };
  const json &groups = in.field(root, "(top level)", "groups");
  if (!groups.is_array()) in.fail("groups", "expected an array");
  for (std::size_t gi = 0; gi < groups.size(); ++gi) {
    const std::string gpath = fmt::format("groups[{}]", gi);
    const json &g = groups[gi];
    TraceGroupRecord group;
    group.name = in.string(in.field(g, gpath, "name"), gpath + ".name");
    if (g.contains("keys")) {
      if (!g["keys"].is_array()) in.fail(gpath + ".keys", "expected an array of strings");
      for (std::size_t k = 0; k < g["keys"].size(); ++k)
        group.keys.push_back(in.string(g["keys"][k], fmt::format("{}.keys[{}]", gpath, k)));
    }
    const json &rewrites = in.field(g, gpath, "rewrites");
    if (!rewrites.is_array()) in.fail(gpath + ".rewrites", "expected an array");
    for (std::size_t ri = 0; ri < rewrites.size(); ++ri) {
      const std::string rpath = fmt::format("{}.rewrites[{}]", gpath, ri);
      const json &r = rewrites[ri];
      TraceRewrite rw;
      rw.name = in.string(in.field(r, rpath, "name"), rpath + ".name");
      rw.loc = in.string(in.field(r, rpath, "loc"), rpath + ".loc");
      rw.depth = static_cast<int>(in.integer(in.field(r, rpath, "depth"), rpath + ".depth"));
      rw.mode = in.string(in.field(r, rpath, "mode"), rpath + ".mode");
      if (rw.mode != "post" && rw.mode != "pre" && rw.mode != "post+pre")
        in.fail(rpath + ".mode", "expected \"post\", \"pre\" or \"post+pre\"");
      if (r.contains("walk")) rw.walk = in.boolean(r["walk"], rpath + ".walk");
      if (r.contains("enter_calls"))
        rw.enter_calls = in.boolean(r["enter_calls"], rpath + ".enter_calls");
      rw.input = node_ref(in.field(r, rpath, "input"), rpath + ".input");
      if (r.contains("output") && !r["output"].is_null())
        rw.output = node_ref(r["output"], rpath + ".output");
      const json &steps = in.field(r, rpath, "steps");
      if (!steps.is_array()) in.fail(rpath + ".steps", "expected an array");
      for (std::size_t si = 0; si < steps.size(); ++si) {
        const std::string spath = fmt::format("{}.steps[{}]", rpath, si);
        const json &s = steps[si];
        TraceStep step;
        step.before = node_ref(in.field(s, spath, "before"), spath + ".before");
        step.after = node_ref(in.field(s, spath, "after"), spath + ".after");
        step.rule = in.string(in.field(s, spath, "rule"), spath + ".rule");
        if (s.contains("rule_loc")) step.rule_loc = in.string(s["rule_loc"], spath + ".rule_loc");
        if (s.contains("ns")) step.ns = in.id(s["ns"], spath + ".ns");
        rw.steps.push_back(std::move(step));
      }
      group.rewrites.push_back(std::move(rw));
    }
    trace.groups_.push_back(std::move(group));
  }
  return trace;
}

RewriteTrace RewriteTrace::from_records(std::map<std::uint64_t, TraceNode> nodes,
                                        std::vector<TraceGroupRecord> groups, std::string generator,
                                        ReplaySemantics semantics, std::string_view origin) {
  auto missing = [&](const std::string &where, std::uint64_t id) {
    throw Error(ErrorKind::BadInput,
                fmt::format("{}: {}: node {} is not in the node table", origin, where, id));
  };
  for (const auto &[id, n] : nodes)
    for (auto s : n.src)
      if (!nodes.count(s)) missing(fmt::format("node {}", id), s);
  // No cycles: rebuilding walks sources and must end (three colors, no recursion).
  std::unordered_map<std::uint64_t, std::uint8_t> color;  // 1 on the path, 2 done
  for (const auto &[start, unused] : nodes) {
    if (color[start] == 2) continue;
    std::vector<std::pair<std::uint64_t, std::size_t>> path{{start, 0}};
    color[start] = 1;
    while (!path.empty()) {
      auto &[id, next] = path.back();
      const auto &src = nodes.at(id).src;
      if (next == src.size()) {
        color[id] = 2;
        path.pop_back();
        continue;
      }
      const std::uint64_t s = src[next++];
      if (color[s] == 1)
        throw Error(
            ErrorKind::BadInput,
            fmt::format("{}: node {} is its own source (a cycle in the node table)", origin, s));
      if (color[s] == 0) {
        color[s] = 1;
        path.emplace_back(s, 0);
      }
    }
  }
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t r = 0; r < groups[g].rewrites.size(); ++r) {
      const auto &rw = groups[g].rewrites[r];
      const std::string where = fmt::format("context {} step {}", g, r);
      if (!nodes.count(rw.input)) missing(where + " input", rw.input);
      if (rw.output && !nodes.count(*rw.output)) missing(where + " output", *rw.output);
      for (std::size_t k = 0; k < rw.steps.size(); ++k) {
        if (!nodes.count(rw.steps[k].before))
          missing(fmt::format("{} match {}", where, k), rw.steps[k].before);
        if (!nodes.count(rw.steps[k].after))
          missing(fmt::format("{} match {}", where, k), rw.steps[k].after);
      }
    }
  RewriteTrace trace;
  trace.nodes_ = std::move(nodes);
  trace.groups_ = std::move(groups);
  trace.generator_ = std::move(generator);
  trace.semantics_ = semantics;
  return trace;
}

RewriteTrace RewriteTrace::open(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::BadInput, "cannot open rewrite trace " + path.string());
  char head[2] = {0, 0};
  in.read(head, 2);
  const auto *bytes = reinterpret_cast<const std::uint8_t *>(head);
  if (looks_like_pickle({bytes, static_cast<std::size_t>(in.gcount())}))
    return read_tinygrad_rewrites(path);
  return load(path);
}

RewriteTrace RewriteTrace::load(const std::filesystem::path &path) {
  return read_json(read_file_text(path, "rewrite trace"), path.string());
}

TraceSession::TraceSession(RewriteTrace &trace) : previous_(g_active), previous_depth_(g_depth) {
  g_active = &trace;
  g_depth = 0;
}

TraceSession::~TraceSession() {
  g_active = previous_;
  g_depth = previous_depth_;
}

TraceGroup::TraceGroup(std::string name, std::vector<std::string> keys) : trace_(g_active) {
  if (trace_) trace_->open_group(std::move(name), std::move(keys));
}

TraceGroup::~TraceGroup() {
  if (trace_) trace_->close_group();
}

SuspendTracing::SuspendTracing() : previous_(g_active) { g_active = nullptr; }
SuspendTracing::~SuspendTracing() { g_active = previous_; }

RewriteTrace *active_trace() { return g_active; }

int &detail::trace_depth() { return g_depth; }

}  // namespace wavescope::compiler::rewrite
