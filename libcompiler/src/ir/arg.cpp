#include "wavescope/compiler/ir/arg.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <functional>

#include <fmt/format.h>

namespace wavescope::compiler {
namespace {

constexpr std::array<std::string_view, 12> kAxisNames = {
    "DEVICE", "GLOBAL", "WARP",   "LOCAL",  "WEAK",        "GROUP_REDUCE",
    "REDUCE", "UPCAST", "UNROLL", "THREAD", "PLACEHOLDER", "LOOP"};

std::size_t mix(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

std::size_t hash_int(Int v) {
  const auto u = static_cast<UInt>(v);
  return mix(std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(u)),
             std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(u >> 64)));
}

std::uint64_t bits_of(double v) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

template <class T> int three_way(const T &a, const T &b) { return a < b ? -1 : b < a ? 1 : 0; }

// The numeric value of a constant-like arg, if it has one.
std::optional<double> numeric(const Arg &a) {
  if (auto i = std::get_if<Int>(&a)) return static_cast<double>(*i);
  if (auto b = std::get_if<bool>(&a)) return *b ? 1.0 : 0.0;
  if (auto f = std::get_if<FloatValue>(&a)) return f->value;
  return std::nullopt;
}

std::string bounds_text(const std::optional<std::pair<Int, Int>> &bounds) {
  if (!bounds) return "";
  return fmt::format(", [{}, {}]", to_string(bounds->first), to_string(bounds->second));
}

}  // namespace

bool operator==(FloatValue a, FloatValue b) { return bits_of(a.value) == bits_of(b.value); }

std::string_view to_string(AxisType type) { return kAxisNames[static_cast<std::size_t>(type)]; }

std::optional<AxisType> parse_axis_type(std::string_view text) {
  for (std::size_t i = 0; i < kAxisNames.size(); ++i)
    if (kAxisNames[i] == text) return static_cast<AxisType>(i);
  return std::nullopt;
}

char axis_letter(AxisType type) {
  switch (type) {
  case AxisType::Device: return 'd';
  case AxisType::Global: return 'g';
  case AxisType::Thread: return 't';
  case AxisType::Local: return 'l';
  case AxisType::Warp: return 'w';
  case AxisType::Weak:
  case AxisType::Loop: return 'L';
  case AxisType::Upcast: return 'u';
  case AxisType::GroupReduce: return 'G';
  case AxisType::Reduce: return 'R';
  case AxisType::Unroll: return 'r';
  case AxisType::Placeholder: return 'P';
  }
  return 'L';
}

bool is_none(const Arg &arg) { return std::holds_alternative<std::monostate>(arg); }

std::size_t hash_arg(const Arg &arg) {
  std::size_t h = arg.index();
  std::visit(
      [&](const auto &v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, InvalidValue>) {
        } else if constexpr (std::is_same_v<T, Int>) {
          h = mix(h, hash_int(v));
        } else if constexpr (std::is_same_v<T, bool>) {
          h = mix(h, v ? 1 : 0);
        } else if constexpr (std::is_same_v<T, FloatValue>) {
          h = mix(h, std::hash<std::uint64_t>{}(bits_of(v.value)));
        } else if constexpr (std::is_same_v<T, DType>) {
          h = mix(h, (static_cast<std::size_t>(v.scalar) << 24) | (std::size_t(v.lanes) << 8) |
                         static_cast<std::size_t>(v.addrspace));
        } else if constexpr (std::is_same_v<T, std::string>) {
          h = mix(h, std::hash<std::string>{}(v));
        } else if constexpr (std::is_same_v<T, AxisList>) {
          for (auto x : v) h = mix(h, std::hash<std::int64_t>{}(x));
        } else if constexpr (std::is_same_v<T, ParamArg>) {
          h = mix(h, std::hash<std::int64_t>{}(v.slot));
          h = mix(h, std::hash<std::string>{}(v.name));
          if (v.bounds) h = mix(mix(h, hash_int(v.bounds->first)), hash_int(v.bounds->second));
          h = mix(h, static_cast<std::size_t>(v.dtype.scalar));
        } else if constexpr (std::is_same_v<T, RangeArg>) {
          h = mix(mix(h, std::hash<std::int64_t>{}(v.axis)), static_cast<std::size_t>(v.type));
          h = mix(h, std::hash<std::string>{}(v.name));
        } else if constexpr (std::is_same_v<T, ReduceArg>) {
          h = mix(mix(h, static_cast<std::size_t>(v.op)), std::hash<std::int64_t>{}(v.axes));
        } else if constexpr (std::is_same_v<T, ForeignArg>) {
          h = mix(mix(h, std::hash<std::string>{}(v.type)), std::hash<std::string>{}(v.text));
        }
      },
      arg);
  return h;
}

int compare_args(const Arg &a, const Arg &b) {
  if (a.index() != b.index()) return a.index() < b.index() ? -1 : 1;
  return std::visit(
      [&](const auto &x) -> int {
        using T = std::decay_t<decltype(x)>;
        const auto &y = std::get<T>(b);
        if constexpr (std::is_same_v<T, std::monostate> || std::is_same_v<T, InvalidValue>) {
          return 0;
        } else if constexpr (std::is_same_v<T, FloatValue>) {
          if (x == y) return 0;
          if (std::isnan(x.value) || std::isnan(y.value)) return std::isnan(x.value) ? 1 : -1;
          if (x.value == y.value) return std::signbit(x.value) ? -1 : 1;  // -0.0 before 0.0
          return x.value < y.value ? -1 : 1;
        } else if constexpr (std::is_same_v<T, DType>) {
          return compare(x, y);
        } else if constexpr (std::is_same_v<T, ParamArg>) {
          // tinygrad's field order (slot, dtype, vmin_vmax, multiple_of, name, ...): variables
          // sort by range before name, so canonical operand orders coincide with tinygrad's.
          if (int c = three_way(x.slot, y.slot)) return c;
          if (int c = compare(x.dtype, y.dtype)) return c;
          if (int c = three_way(x.bounds.has_value(), y.bounds.has_value())) return c;
          if (x.bounds) {
            if (int c = three_way(x.bounds->first, y.bounds->first)) return c;
            if (int c = three_way(x.bounds->second, y.bounds->second)) return c;
          }
          if (int c = three_way(x.multiple_of, y.multiple_of)) return c;
          if (int c = three_way(x.name, y.name)) return c;
          if (int c = three_way(x.addrspace, y.addrspace)) return c;
          return three_way(x.extra, y.extra);
        } else if constexpr (std::is_same_v<T, RangeArg>) {
          if (int c = three_way(x.axis, y.axis)) return c;
          if (int c = three_way(x.type, y.type)) return c;
          return three_way(x.name, y.name);
        } else if constexpr (std::is_same_v<T, ReduceArg>) {
          if (int c = three_way(x.op, y.op)) return c;
          return three_way(x.axes, y.axes);
        } else {
          return three_way(x, y);
        }
      },
      a);
}

bool value_equals(const Arg &a, const Arg &b) {
  if (a.index() == b.index()) return a == b;
  auto x = numeric(a), y = numeric(b);
  return x && y && *x == *y;
}

std::string to_string(const Arg &arg) {
  return std::visit(
      [](const auto &v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return "";
        else if constexpr (std::is_same_v<T, Int>)
          return to_string(v);
        else if constexpr (std::is_same_v<T, bool>)
          return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, FloatValue>)
          return fmt::format("{}", v.value);
        else if constexpr (std::is_same_v<T, InvalidValue>)
          return "Invalid";
        else if constexpr (std::is_same_v<T, DType>)
          return to_string(v);
        else if constexpr (std::is_same_v<T, std::string>)
          return v;
        else if constexpr (std::is_same_v<T, AxisList>)
          return fmt::format("({})", fmt::join(v, ", "));
        else if constexpr (std::is_same_v<T, ParamArg>) {
          std::string text = fmt::format("ParamArg({}, {}", v.slot, to_string(v.dtype));
          if (!v.name.empty()) text += ", " + v.name;
          text += bounds_text(v.bounds);
          if (v.multiple_of != 1) text += fmt::format(", multiple_of={}", to_string(v.multiple_of));
          if (v.addrspace != AddrSpace::Global) text += fmt::format(", {}", to_string(v.addrspace));
          if (!v.extra.empty()) text += ", " + v.extra;
          return text + ")";
        } else if constexpr (std::is_same_v<T, RangeArg>) {
          std::string text = fmt::format("({}, {}", v.axis, to_string(v.type));
          if (!v.name.empty()) text += ", " + v.name;
          return text + ")";
        } else if constexpr (std::is_same_v<T, ReduceArg>) {
          return fmt::format("({}, {})", to_string(v.op), v.axes);
        } else {
          if (v.type == "bytes") return fmt::format("<{} bytes>", v.text.size());
          return v.text;
        }
      },
      arg);
}

}  // namespace wavescope::compiler
