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

// The bytes a seeded case is made from.
std::vector<std::uint8_t> seed_bytes(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> bytes(512);
  for (auto &b : bytes) b = static_cast<std::uint8_t>(rng());
  return bytes;
}

class Generator {
public:
  // `mixed`: the variables have several dtypes and meet without casts, as users write them; now
  // and then a value is cast or a condition is used as a number.
  Generator(ByteSource &in, std::size_t vars, bool mixed = false)
      : in_(in), vars_(vars), mixed_(mixed) {}

  std::string value(int depth) {
    if (depth <= 0 || in_.pick(5) == 0) return leaf();
    if (mixed_ && in_.pick(6) == 0) {
      static constexpr DType kCasts[] = {dtypes::index, dtypes::bool_, dtypes::int8,
                                         dtypes::uint8, dtypes::int32, dtypes::int64};
      const DType t = kCasts[in_.pick(std::size(kCasts))];
      return fmt::format("{}({})", to_string(t),
                         in_.pick(3) == 0 ? condition(depth - 1) : value(depth - 1));
    }
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
  bool mixed_;
};

// Well-typed expressions over mixed dtypes, as tinygrad's UOps are: both operands of a binary
// operator (and both branches of a where) share one dtype, constants are written as casts to it,
// and a change of dtype is an explicit cast (to another int, to bool, or from a condition).
class TypedGenerator {
public:
  TypedGenerator(ByteSource &in, const std::vector<VariableDecl> &vars) : in_(in), vars_(vars) {}

  std::string value(int depth, DType t) {
    if (depth <= 0 || in_.pick(5) == 0) return leaf(t);
    auto a = [&] { return value(depth - 1, t); };
    switch (in_.pick(24)) {
    case 0:
    case 1: return fmt::format("({}+{})", a(), a());
    case 2: return fmt::format("({}+({}*{}))", a(), a(), constant(t, -1));  // a-b
    case 3: return fmt::format("({}*{})", a(), constant(t));
    case 4: return fmt::format("({}*{})", a(), a());
    case 5: return fmt::format("({}//{})", a(), divisor(t));
    case 6: return fmt::format("({}%{})", a(), divisor(t));
    case 7: return fmt::format("({}//{})", a(), a());
    case 8: return fmt::format("({}%{})", a(), a());
    case 9: return fmt::format("max({}, {})", a(), a());
    case 10: return fmt::format("where({}, {}, {})", condition(depth - 1), a(), a());
    case 11: return fmt::format("where({}, {}, invalid)", condition(depth - 1), a());
    case 12: return fmt::format("({}&{})", a(), constant(t));
    case 13: return fmt::format("({}|{})", a(), a());
    case 14: return fmt::format("({}^{})", a(), a());
    case 15: return fmt::format("({}<<{})", a(), constant(t, static_cast<int>(in_.pick(4))));
    case 16: return fmt::format("({}>>{})", a(), constant(t, static_cast<int>(in_.pick(4))));
    case 17: return fmt::format("cdiv({}, {})", a(), divisor(t));
    case 18: return fmt::format("cmod({}, {})", a(), divisor(t));
    case 19:
    case 20: return cast(t, condition(depth - 1));
    default: return cast(t, value(depth - 1, other_type(t)));
    }
  }

  std::string condition(int depth) {
    const DType t = any_type();
    auto a = [&] { return value(depth, t); };
    switch (in_.pick(depth > 0 ? 10 : 6)) {
    case 0: return fmt::format("({}<{})", a(), a());
    case 1: return fmt::format("({}<={})", a(), a());
    case 2: return fmt::format("({}!={})", a(), a());
    case 3: return fmt::format("({}=={})", a(), a());
    case 4: return fmt::format("({}<{})", a(), constant(t));
    case 5: return cast(dtypes::bool_, a());
    case 6: return fmt::format("({}&{})", condition(depth - 1), condition(depth - 1));
    case 7: return fmt::format("({}|{})", condition(depth - 1), condition(depth - 1));
    case 8: return fmt::format("({}^{})", condition(depth - 1), condition(depth - 1));
    default: return fmt::format("!{}", condition(depth - 1));
    }
  }

  DType any_type() { return kTypes[in_.pick(std::size(kTypes))]; }

  static constexpr DType kTypes[] = {dtypes::index, dtypes::int8, dtypes::uint8, dtypes::int32,
                                     dtypes::int64};

private:
  DType other_type(DType t) {
    DType u = any_type();
    return u == t ? kTypes[(in_.pick(std::size(kTypes) - 1) + 1 + index_of(t)) % std::size(kTypes)]
                  : u;
  }
  static std::size_t index_of(DType t) {
    for (std::size_t i = 0; i < std::size(kTypes); ++i)
      if (kTypes[i] == t) return i;
    return 0;
  }
  static std::string cast(DType t, const std::string &x) {
    return fmt::format("{}({})", to_string(t), x);
  }
  std::string leaf(DType t) {
    if (in_.pick(3) == 0) return constant(t);
    const VariableDecl &v = vars_[in_.pick(static_cast<unsigned>(vars_.size()))];
    return v.dtype == t ? v.name : cast(t, v.name);
  }
  // Small constants, now and then one at the edge of a sized type (where results wrap).
  std::string constant(DType t) {
    Int c = static_cast<Int>(in_.pick(41)) - 20;
    if (in_.pick(4) == 0) {
      static constexpr std::int64_t kEdges[] = {127, 128,        -128,          -129,        255,
                                                256, 2147483647, -2147483648LL, 4294967295LL};
      c = kEdges[in_.pick(std::size(kEdges))];
      if (is_sized_int(t) && in_.pick(2) == 0) c = in_.pick(2) ? dtype_max(t) : dtype_min(t);
    }
    return constant(t, c);
  }
  static std::string constant(DType t, Int c) {
    if (t == dtypes::index) return c < 0 ? fmt::format("({})", to_string(c)) : to_string(c);
    return cast(t, to_string(c));
  }
  std::string divisor(DType t) {
    static constexpr int kDivisors[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, -1, -2, -3, -4, -8};
    return constant(t, kDivisors[in_.pick(16)]);
  }

  ByteSource &in_;
  const std::vector<VariableDecl> &vars_;
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

SymbolicCase random_case(std::uint64_t seed) { return random_case(seed_bytes(seed)); }

}  // namespace wavescope::compiler::symbolic

namespace wavescope::compiler::symbolic {

namespace {

// One to three variables of the dtypes TypedGenerator uses, some at the edge of their type.
std::vector<VariableDecl> typed_variables(ByteSource &in) {
  std::vector<VariableDecl> vars;
  const std::size_t nvars = 1 + in.pick(3);
  for (std::size_t i = 0; i < nvars; ++i) {
    VariableDecl v;
    v.name = fmt::format("v{}", i);
    v.dtype = TypedGenerator::kTypes[in.pick(std::size(TypedGenerator::kTypes))];
    const Int width = static_cast<Int>(in.pick(14));
    if (is_sized_int(v.dtype) && in.pick(3) == 0) {
      // a domain at one end of the type, where arithmetic wraps
      v.min = in.pick(2) ? dtype_max(v.dtype) - width : dtype_min(v.dtype);
    } else {
      v.min = static_cast<Int>(in.pick(25)) - (is_unsigned(v.dtype) ? 0 : 12);
    }
    v.max = v.min + width;
    vars.push_back(v);
  }
  return vars;
}

}  // namespace

SymbolicCase random_typed_case(std::span<const std::uint8_t> bytes) {
  ByteSource in(bytes);
  SymbolicCase c;
  c.id = "random-typed";
  c.vars = typed_variables(in);
  TypedGenerator gen(in, c.vars);
  const int depth = 1 + static_cast<int>(in.pick(5));
  c.expr = in.pick(4) == 0 ? gen.condition(depth) : gen.value(depth, gen.any_type());
  return c;
}

SymbolicCase random_typed_case(std::uint64_t seed) { return random_typed_case(seed_bytes(seed)); }

SymbolicCase random_mixed_case(std::span<const std::uint8_t> bytes) {
  ByteSource in(bytes);
  SymbolicCase c;
  c.id = "random-mixed";
  c.vars = typed_variables(in);
  Generator gen(in, c.vars.size(), true);
  const int depth = 1 + static_cast<int>(in.pick(5));
  c.expr = in.pick(4) == 0 ? gen.condition(depth) : gen.value(depth);
  return c;
}

SymbolicCase random_mixed_case(std::uint64_t seed) { return random_mixed_case(seed_bytes(seed)); }

}  // namespace wavescope::compiler::symbolic
