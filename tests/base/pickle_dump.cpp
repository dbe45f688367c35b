#include "pickle_dump.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace wavescope::testing {
namespace {

using pickle::Kind;
using pickle::Value;

// Decimal text of a little-endian two's-complement integer.
std::string big_decimal(std::span<const std::uint8_t> bytes) {
  std::vector<std::uint8_t> magnitude(bytes.begin(), bytes.end());
  const bool negative = !magnitude.empty() && (magnitude.back() & 0x80);
  if (negative) {  // two's complement negate
    unsigned carry = 1;
    for (auto &b : magnitude) {
      const unsigned v = static_cast<std::uint8_t>(~b) + carry;
      b = static_cast<std::uint8_t>(v);
      carry = v >> 8;
    }
  }
  std::string digits;
  while (std::any_of(magnitude.begin(), magnitude.end(), [](std::uint8_t b) { return b; })) {
    unsigned remainder = 0;
    for (auto it = magnitude.rbegin(); it != magnitude.rend(); ++it) {
      const unsigned cur = remainder * 256 + *it;
      *it = static_cast<std::uint8_t>(cur / 10);
      remainder = cur % 10;
    }
    digits += static_cast<char>('0' + remainder);
  }
  if (digits.empty()) digits.push_back('0');
  if (negative) digits += '-';
  std::reverse(digits.begin(), digits.end());
  return digits;
}

class Dumper {
public:
  std::string out;

  void visit(const Value &v, bool shareable_here = true) {
    const bool shareable = shareable_here && is_shareable(v);
    if (shareable) {
      auto [it, fresh] = ids_.emplace(&v, ids_.size());
      if (!fresh) {
        out += fmt::format("@{}", it->second);
        return;
      }
    }
    switch (v.kind()) {
    case Kind::None: out += 'N'; break;
    case Kind::Bool: out += v.as_bool() ? 'T' : 'F'; break;
    case Kind::Int:
      out += 'i';
      out += v.int_fits_int64() ? std::to_string(v.as_int64()) : big_decimal(v.big_int_bytes());
      break;
    case Kind::Float: {
      const double d = v.as_double();
      std::uint64_t bits = 0;
      std::memcpy(&bits, &d, sizeof bits);
      out += fmt::format("f{:016x}", bits);
      break;
    }
    case Kind::Str:
      out += fmt::format("s{}:", v.as_str().size());
      out += v.as_str();
      break;
    case Kind::Bytes: {
      const auto b = v.as_bytes();
      out += fmt::format("b{}:{:016x}", b.size(),
                         fnv1a64({reinterpret_cast<const char *>(b.data()), b.size()}));
      break;
    }
    case Kind::Tuple: sequence(v, "(", ")"); break;
    case Kind::List: sequence(v, "[", "]"); break;
    case Kind::Dict:
      out += '{';
      for (std::size_t i = 0; i < v.dict_size(); ++i) {
        visit(*v.dict_entry(i).key);
        out += ':';
        visit(*v.dict_entry(i).value);
      }
      out += '}';
      break;
    case Kind::Set:
    case Kind::FrozenSet: {
      out += v.kind() == Kind::Set ? "<" : "<<";
      std::vector<std::string> parts;
      for (const Value *x : v.items()) parts.push_back(canonical_dump(*x));
      std::sort(parts.begin(), parts.end());
      for (const auto &p : parts) out += p;
      out += '>';
      break;
    }
    case Kind::Global: out += fmt::format("g{}.{};", v.module(), v.name()); break;
    case Kind::Object: object(v); break;
    }
  }

private:
  static bool is_shareable(const Value &v) {
    switch (v.kind()) {
    case Kind::Tuple:
    case Kind::FrozenSet: return v.size() > 0;
    case Kind::List:
    case Kind::Dict:
    case Kind::Set:
    case Kind::Object:
    case Kind::Global: return true;
    default: return false;
    }
  }
  void sequence(const Value &v, const char *open, const char *close) {
    out += open;
    for (const Value *x : v.items()) visit(*x);
    out += close;
  }
  void object(const Value &v) {
    const auto &o = *v.object();
    out += o.construction == pickle::Construction::Reduce ? "or" : "on";
    if (o.callable->kind() == Kind::Global)
      out += fmt::format("g{}.{};", o.callable->module(), o.callable->name());
    else
      visit(*o.callable);
    sequence_inline(*o.args);
    if (o.kwargs && o.kwargs->dict_size()) {
      out += 'k';
      out += '{';
      for (std::size_t i = 0; i < o.kwargs->dict_size(); ++i) {
        visit(*o.kwargs->dict_entry(i).key);
        out += ':';
        visit(*o.kwargs->dict_entry(i).value);
      }
      out += '}';
    }
    if (o.state) {
      out += 's';
      visit(*o.state);
    }
    if (!o.list_items.empty()) {
      out += "l[";
      for (const Value *x : o.list_items) visit(*x);
      out += ']';
    }
    if (!o.dict_items.empty()) {
      out += "d{";
      for (std::size_t i = 0; i + 1 < o.dict_items.size(); i += 2) {
        visit(*o.dict_items[i]);
        out += ':';
        visit(*o.dict_items[i + 1]);
      }
      out += '}';
    }
    out += ';';
  }
  // Python packs a fresh argument tuple for every call, so arguments are never back-references.
  void sequence_inline(const Value &args) {
    out += '(';
    for (const Value *x : args.items()) visit(*x);
    out += ')';
  }

  std::unordered_map<const Value *, std::size_t> ids_;
};

}  // namespace

std::string canonical_dump(const pickle::Value &root) {
  Dumper d;
  d.visit(root);
  return std::move(d.out);
}

std::uint64_t fnv1a64(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

}  // namespace wavescope::testing
