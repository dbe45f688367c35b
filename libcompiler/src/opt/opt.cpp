// Optimization actions: names, text forms and tinygrad's repr (opt.hpp).

#include "wavescope/compiler/opt/opt.hpp"

#include <array>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace wavescope::compiler::opt {
namespace {

constexpr std::array<std::string_view, 10> kNames = {"SPLIT", "UPCAST",   "UNROLL", "LOCAL",
                                                     "GROUP", "GROUPTOP", "THREAD", "PADTO",
                                                     "SWAP",  "NOLOCALS"};

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  return out;
}

std::optional<std::int64_t> number(std::string_view s) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// Reads "Opt(op=OptOps.X, axis=N, arg=...)" items of a Python tuple.
class ReprReader {
public:
  explicit ReprReader(std::string_view text) : s_(text) {}

  std::vector<Opt> tuple() {
    std::vector<Opt> out;
    skip();
    expect('(');
    for (;;) {
      skip();
      if (peek() == ')') {
        ++i_;
        break;
      }
      out.push_back(opt());
      skip();
      if (peek() == ',') ++i_;
    }
    return out;
  }

private:
  Error fail(const std::string &what) const {
    return Error(ErrorKind::BadInput, fmt::format("opts '{}': at {}: {}", s_, i_, what));
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void expect(char c) {
    skip();
    if (peek() != c) throw fail(fmt::format("expected '{}'", c));
    ++i_;
  }
  void word(std::string_view w) {
    skip();
    if (s_.substr(i_, w.size()) != w) throw fail(fmt::format("expected '{}'", w));
    i_ += w.size();
  }
  std::string ident() {
    skip();
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' ||
                              s_[i_] == '.' || s_[i_] == '-'))
      ++i_;
    if (start == i_) throw fail("expected a name or a number");
    return std::string(s_.substr(start, i_ - start));
  }
  std::int64_t integer() {
    const std::string t = ident();
    auto v = number(t);
    if (!v) throw fail(fmt::format("'{}' is not an integer", t));
    return *v;
  }

  Opt opt() {
    word("Opt(");
    word("op=");
    std::string name = ident();
    if (name.rfind("OptOps.", 0) == 0) name = name.substr(7);
    auto op = parse_opt_op(name);
    if (!op) throw fail(fmt::format("unknown opt '{}'", name));
    Opt o;
    o.op = *op;
    expect(',');
    word("axis=");
    const std::string axis = ident();
    o.axis = axis == "None" ? 0 : number(axis).value_or(0);
    expect(',');
    word("arg=");
    skip();
    if (peek() == '(') {  // SPLIT: (amount, AxisType.X[, top])
      ++i_;
      o.arg = integer();
      expect(',');
      std::string type = ident();
      if (type.rfind("AxisType.", 0) == 0) type = type.substr(9);
      auto t = parse_axis_type(type);
      if (!t) throw fail(fmt::format("unknown axis type '{}'", type));
      o.type = *t;
      skip();
      if (peek() == ',') {
        ++i_;
        skip();
        if (peek() != ')') o.top = ident() == "True";
      }
      expect(')');
    } else {
      const std::string a = ident();
      o.arg = a == "None" ? 0 : number(a).value_or(0);
    }
    expect(')');
    return o;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

std::string_view to_string(OptOp op) { return kNames[static_cast<std::size_t>(op)]; }

std::optional<OptOp> parse_opt_op(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<OptOp>(i);
  return std::nullopt;
}

std::string to_string(const Opt &o) {
  switch (o.op) {
  case OptOp::NoLocals: return "NOLOCALS";
  case OptOp::Split:
    return fmt::format("SPLIT:{}:{}:{}{}", o.axis, o.arg, to_string(o.type), o.top ? ":top" : "");
  default: return fmt::format("{}:{}:{}", to_string(o.op), o.axis, o.arg);
  }
}

std::string to_string(const std::vector<Opt> &opts) {
  std::string out;
  for (const auto &o : opts) out += (out.empty() ? "" : ",") + to_string(o);
  return out;
}

std::string to_repr(const Opt &o) {
  const std::string axis = o.op == OptOp::NoLocals ? "None" : std::to_string(o.axis);
  std::string arg = o.op == OptOp::NoLocals ? "None" : std::to_string(o.arg);
  if (o.op == OptOp::Split)
    arg = fmt::format("({}, AxisType.{}{})", o.arg, to_string(o.type), o.top ? ", True" : "");
  return fmt::format("Opt(op=OptOps.{}, axis={}, arg={})", to_string(o.op), axis, arg);
}

std::vector<Opt> parse_opt_list(std::string_view text) {
  std::vector<Opt> out;
  if (trim(text).empty()) return out;
  for (const auto &item : split(text, ',')) {
    auto fail = [&](const std::string &what) {
      return Error(ErrorKind::Usage, fmt::format("opt '{}': {} (OP[:AXIS[:ARG[:TYPE[:top]]]], "
                                                 "e.g. UPCAST:0:4 or SPLIT:1:4:UNROLL)",
                                                 item, what));
    };
    const auto parts = split(item, ':');
    std::string name = parts[0];
    for (auto &c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    auto op = parse_opt_op(name);
    if (!op)
      throw fail("unknown opt (SPLIT, UPCAST, UNROLL, LOCAL, GROUP, GROUPTOP, THREAD, PADTO, "
                 "SWAP or NOLOCALS)");
    Opt o;
    o.op = *op;
    if (o.op == OptOp::NoLocals) {
      if (parts.size() != 1) throw fail("NOLOCALS takes no axis");
      out.push_back(o);
      continue;
    }
    const std::size_t want = o.op == OptOp::Split ? 4 : 3;
    if (parts.size() < want || parts.size() > (o.op == OptOp::Split ? 5u : 3u))
      throw fail(o.op == OptOp::Split ? "SPLIT takes AXIS:AMOUNT:TYPE[:top]"
                                      : fmt::format("{} takes AXIS:AMOUNT", name));
    auto axis = number(parts[1]), arg = number(parts[2]);
    if (!axis || *axis < 0) throw fail(fmt::format("axis '{}' is not a number >= 0", parts[1]));
    if (!arg || *arg < 0) throw fail(fmt::format("amount '{}' is not a number >= 0", parts[2]));
    o.axis = *axis;
    o.arg = *arg;
    if (o.op == OptOp::Split) {
      std::string type = parts[3];
      for (auto &c : type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      auto t = parse_axis_type(type);
      if (!t)
        throw fail(fmt::format("unknown axis type '{}' (UPCAST, UNROLL, LOCAL, "
                               "GROUP_REDUCE, THREAD)",
                               parts[3]));
      o.type = *t;
      if (parts.size() == 5) {
        if (parts[4] != "top") throw fail(fmt::format("'{}' is not 'top'", parts[4]));
        o.top = true;
      }
    }
    out.push_back(o);
  }
  return out;
}

std::vector<Opt> parse_opt_reprs(std::string_view text) { return ReprReader(text).tuple(); }

}  // namespace wavescope::compiler::opt
