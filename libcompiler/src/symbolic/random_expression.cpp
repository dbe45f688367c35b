#include "wavescope/compiler/symbolic/random_expression.hpp"

#include <random>
#include <vector>

#include <fmt/format.h>

namespace wavescope::compiler::symbolic {
namespace {

class ByteSource {
public:
  explicit ByteSource(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  unsigned next() { return pos_ < bytes_.size() ? bytes_[pos_++] : 0u; }
  unsigned pick(unsigned n) { return next() % n; }

private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

class Generator {
public:
  Generator(ByteSource &in, std::size_t vars) : in_(in), vars_(vars) {}

  std::string value(int depth) {
    if (depth <= 0 || in_.pick(5) == 0) return leaf();
    const unsigned choice = in_.pick(24);
    auto a = [&] { return value(depth - 1); };
    switch (choice) {
    case 0:
    case 1: return fmt::format("({}+{})", a(), a());
    case 2: return fmt::format("({}-{})", a(), a());
    case 3:
    case 4: return fmt::format("({}*{})", a(), constant());
    case 5: return fmt::format("({}*{})", a(), a());
    case 6:
    case 7: return fmt::format("({}//{})", a(), divisor());
    case 8:
    case 9: return fmt::format("({}%{})", a(), divisor());
    case 10: return fmt::format("({}//{})", a(), a());
    case 11: return fmt::format("({}%{})", a(), a());
    case 12: return fmt::format("max({}, {})", a(), a());
    case 13: return fmt::format("min({}, {})", a(), a());
    case 14: return fmt::format("where({}, {}, {})", condition(depth - 1), a(), a());
    case 15: return fmt::format("where({}, {}, invalid)", condition(depth - 1), a());
    case 16: return fmt::format("(-{})", a());
    case 17: return fmt::format("({}&{})", a(), constant());
    case 18: return fmt::format("({}|{})", a(), a());
    case 19: return fmt::format("({}^{})", a(), a());
    case 20: return fmt::format("({}<<{})", a(), in_.pick(4));
    case 21: return fmt::format("({}>>{})", a(), in_.pick(4));
    case 22: return fmt::format("cdiv({}, {})", a(), divisor());
    default: return fmt::format("cmod({}, {})", a(), divisor());
    }
  }

  std::string condition(int depth) {
    auto a = [&] { return value(depth); };
    // Combinations of conditions nest only while depth remains (bounded nesting).
    switch (in_.pick(depth > 0 ? 9 : 5)) {
    case 0: return fmt::format("({}<{})", a(), a());
    case 1: return fmt::format("({}<={})", a(), a());
    case 2: return fmt::format("({}!={})", a(), a());
    case 3: return fmt::format("({}=={})", a(), a());
    case 4: return fmt::format("({}>={})", a(), constant());
    case 5: return fmt::format("({}&{})", condition(depth - 1), condition(depth - 1));
    case 6: return fmt::format("({}|{})", condition(depth - 1), condition(depth - 1));
    case 7: return fmt::format("!{}", condition(depth - 1));
    default: return fmt::format("({}<{})", a(), constant());
    }
  }

private:
  std::string leaf() {
    if (in_.pick(3) == 0) return constant();
    return fmt::format("v{}", in_.pick(static_cast<unsigned>(vars_)));
  }
  std::string constant() {
    const int c = static_cast<int>(in_.pick(41)) - 20;
    return std::to_string(c);
  }
  std::string divisor() {
    static constexpr int kDivisors[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, -1, -2, -3, -4, -8};
    return std::to_string(kDivisors[in_.pick(16)]);
  }

  ByteSource &in_;
  std::size_t vars_;
};

}  // namespace

SymbolicCase random_case(std::span<const std::uint8_t> bytes) {
  ByteSource in(bytes);
  SymbolicCase c;
  c.id = "random";
  const std::size_t nvars = 1 + in.pick(3);
  const bool sized = in.pick(8) == 0;  // now and then: int8 variables, whose results wrap
  for (std::size_t i = 0; i < nvars; ++i) {
    VariableDecl v;
    v.name = fmt::format("v{}", i);
    v.min = static_cast<Int>(in.pick(25)) - 12;
    v.max = v.min + static_cast<Int>(in.pick(14));
    if (sized) v.dtype = dtypes::int8;
    c.vars.push_back(v);
  }
  Generator gen(in, nvars);
  const int depth = 1 + static_cast<int>(in.pick(5));
  c.expr = in.pick(4) == 0 ? gen.condition(depth) : gen.value(depth);
  return c;
}

SymbolicCase random_case(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> bytes(512);
  for (auto &b : bytes) b = static_cast<std::uint8_t>(rng());
  return random_case(bytes);
}

}  // namespace wavescope::compiler::symbolic
