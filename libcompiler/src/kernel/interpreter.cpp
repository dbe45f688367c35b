// The reference interpreter (interpreter.hpp).

#include "wavescope/compiler/kernel/interpreter.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <unordered_map>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"

namespace wavescope::compiler::kernel {
namespace {

struct Value {
  double f = 0;
  Int i = 0;
  bool is_float = false;
  bool invalid = false;
  double as_double() const { return is_float ? f : static_cast<double>(i); }
  Int as_int() const { return is_float ? static_cast<Int>(std::trunc(f)) : i; }
};

double round_to(double v, DType t) {
  if (t.scalar == ScalarType::Float) return static_cast<double>(static_cast<float>(v));
  if (t.scalar == ScalarType::Double || t.scalar == ScalarType::WeakFloat) return v;
  return round_to_float(v, t);
}

Value make_value(double v, DType t) {
  Value r;
  if (is_float(t)) {
    r.is_float = true;
    r.f = round_to(v, t);
  } else if (is_bool(t)) {
    r.i = v != 0;
  } else {
    r.i = wrap_value(static_cast<Int>(v), t);
  }
  return r;
}

// Threefry-2x32 with 20 rounds (Random123's threefry2x32_20): counter and key as the low and
// high halves of two uint64 values; the result packs the two output words (high word first).
std::uint64_t threefry(std::uint64_t x, std::uint64_t key) {
  static constexpr int kRot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const std::uint32_t ks[3] = {
      static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32),
      0x1BD11BDAu ^ static_cast<std::uint32_t>(key) ^ static_cast<std::uint32_t>(key >> 32)};
  std::uint32_t x0 = static_cast<std::uint32_t>(x) + ks[0];
  std::uint32_t x1 = static_cast<std::uint32_t>(x >> 32) + ks[1];
  for (int r = 0; r < 20; ++r) {
    x0 += x1;
    x1 = (x1 << kRot[r % 8]) | (x1 >> (32 - kRot[r % 8]));
    x1 ^= x0;
    if (r % 4 == 3) {
      const int i = (r + 1) / 4;
      x0 += ks[i % 3];
      x1 += ks[(i + 1) % 3] + static_cast<std::uint32_t>(i);
    }
  }
  return (static_cast<std::uint64_t>(x1) << 32) | x0;
}

Int floor_div(Int a, Int b) {
  Int q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

class Interpreter {
public:
  Interpreter(const UOp &sink, std::vector<HostBuffer> &buffers, const VariableValues &given)
      : buffers_(buffers), variables_(bind_variables(sink, given)) {
    nodes_ = toposort(sink);
    for (std::size_t i = 0; i < nodes_.size(); ++i) ids_[nodes_[i].get()] = i;
    free_ = open_ranges(nodes_);
    const auto params = kernel_params(sink);
    if (params.size() != buffers.size())
      throw Error(ErrorKind::BadInput, fmt::format("the kernel has {} buffers, {} were given",
                                                   params.size(), buffers.size()));
    for (std::size_t k = 0; k < params.size(); ++k) {
      slot_index_[params[k].slot] = k;
      if (static_cast<std::int64_t>(buffers[k].data.size()) != params[k].size)
        throw Error(ErrorKind::BadInput,
                    fmt::format("buffer {} has {} elements, the kernel's {} has {}", k,
                                buffers[k].data.size(), params[k].name, params[k].size));
    }
    run(sink);
  }

private:
  Error fail(const UOp &u, const std::string &what) const {
    auto it = ids_.find(u.get());
    return Error(ErrorKind::BadInput,
                 fmt::format("interpreter: node {} ({}): {}", it == ids_.end() ? 0 : it->second,
                             to_string(u.op()), what));
  }

  HostBuffer &buffer_of(const UOp &param, std::size_t &out_index) {
    auto p = std::get_if<ParamArg>(&param.arg());
    if (param.op() != Op::PARAM || !p || p->addrspace == AddrSpace::Alu)
      throw fail(param, "not a buffer");
    out_index = slot_index_.at(p->slot);
    return buffers_[out_index];
  }

  std::int64_t element(const UOp &index, const Value &idx, const HostBuffer &b) {
    const Int i = idx.as_int();
    if (i < 0 || i >= static_cast<Int>(b.data.size()))
      throw fail(index, fmt::format("index {} is outside the buffer of {} elements", to_string(i),
                                    b.data.size()));
    return static_cast<std::int64_t>(i);
  }

  // Runs `body` once per point of the ranges' iteration space.
  void loop(const UOp &u, std::size_t first, const std::function<void()> &body) {
    std::vector<UOp> ranges(u.src().begin() + static_cast<std::ptrdiff_t>(first), u.src().end());
    std::function<void(std::size_t)> go = [&](std::size_t k) {
      if (k == ranges.size()) return body();
      const auto &r = ranges[k];
      if (r.op() != Op::RANGE) throw fail(u, "loops over RANGEs only");
      const Int n = eval(r.src(0)).as_int();
      for (Int v = 0; v < n; ++v) {
        env_[r.get()] = static_cast<std::int64_t>(v);
        go(k + 1);
      }
      env_.erase(r.get());
    };
    go(0);
  }

  void run(const UOp &u) {
    switch (u.op()) {
    case Op::SINK:
    case Op::GROUP:
      for (const auto &s : u.src()) run(s);
      return;
    case Op::END: loop(u, 1, [&] { run(u.src(0)); }); return;
    case Op::STORE: {
      if (u.size() > 2 && eval(u.src(2)).as_int() == 0) return;
      const UOp &index = u.src(0);
      const Value idx = eval(index.src(1));
      if (idx.invalid) return;
      const Value v = eval(u.src(1));
      std::size_t bi = 0;
      HostBuffer &b = buffer_of(index.src(0), bi);
      b.data[element(index, idx, b)] = make_value(v.as_double(), b.dtype).as_double();
      memo_.clear();  // a later read may see this store
      return;
    }
    default: throw fail(u, "is not a statement (SINK, GROUP, END or STORE)");
    }
  }

  Value eval(const UOp &u) {
    if (u.op() == Op::RANGE) {
      auto it = env_.find(u.get());
      if (it == env_.end()) throw fail(u, "a RANGE used outside its loop");
      Value v;
      v.i = it->second;
      return v;
    }
    const auto &free = free_[u.get()];
    std::vector<std::int64_t> key;
    key.reserve(free.size());
    for (auto *r : free) {
      auto it = env_.find(r);
      key.push_back(it == env_.end() ? -1 : it->second);
    }
    if (auto it = memo_.find(u.get()); it != memo_.end() && it->second.first == key)
      return it->second.second;
    Value v = compute(u);
    memo_[u.get()] = {std::move(key), v};
    return v;
  }

  Value compute(const UOp &u) {
    const DType t = u.dtype().base();
    const Op op = u.op();
    switch (op) {
    case Op::CONST: {
      const Arg &a = u.arg();
      if (std::holds_alternative<InvalidValue>(a)) {
        Value v;
        v.invalid = true;
        return v;
      }
      if (auto f = std::get_if<FloatValue>(&a)) return make_value(f->value, t);
      if (auto b = std::get_if<bool>(&a)) return make_value(*b ? 1 : 0, t);
      if (auto i = std::get_if<Int>(&a)) {
        if (is_float(t)) return make_value(static_cast<double>(*i), t);
        Value v;
        v.i = wrap_value(*i, t);
        return v;
      }
      throw fail(u, "a CONST without a value");
    }
    case Op::PARAM: {
      auto p = std::get_if<ParamArg>(&u.arg());
      if (!p || p->addrspace != AddrSpace::Alu) throw fail(u, "a buffer used as a value");
      auto it = variables_.find(p->name);
      if (it == variables_.end()) throw fail(u, fmt::format("variable '{}' has no value", p->name));
      Value v;
      v.i = wrap_value(it->second, t);
      return v;
    }
    case Op::INDEX: {
      const Value idx = eval(u.src(1));
      std::size_t bi = 0;
      HostBuffer &b = buffer_of(u.src(0), bi);
      if (idx.invalid) return make_value(0, t);
      Value v = make_value(b.data[element(u, idx, b)], t);
      return v;
    }
    case Op::REDUCE: {
      const Op rop = std::get<ReduceArg>(u.arg()).op;
      const bool f = is_float(t);
      double acc_f = rop == Op::ADD ? 0.0 : rop == Op::MUL ? 1.0 : -INFINITY;
      Int acc_i = rop == Op::ADD ? 0 : rop == Op::MUL ? 1 : dtype_min(t);
      loop(u, 1, [&] {
        const Value x = eval(u.src(0));
        if (f) {
          const double d = x.as_double();
          acc_f = round_to(rop == Op::ADD   ? acc_f + d
                           : rop == Op::MUL ? acc_f * d
                           : std::isnan(d)  ? d
                                            : std::max(acc_f, d),
                           t);
        } else {
          const Int d = x.as_int();
          acc_i = wrap_value(rop == Op::ADD   ? acc_i + d
                             : rop == Op::MUL ? acc_i * d
                                              : std::max(acc_i, d),
                             t);
        }
      });
      Value v;
      v.is_float = f;
      v.f = acc_f;
      v.i = acc_i;
      return v;
    }
    case Op::WHERE: {
      const Value c = eval(u.src(0));
      if (c.invalid) return c;
      return eval(u.src(c.as_int() != 0 ? 1 : 2));
    }
    case Op::CAST: {
      const Value x = eval(u.src(0));
      if (x.invalid) return x;
      if (is_bool(t)) return make_value(x.as_double() != 0 ? 1 : 0, t);
      if (is_float(t)) return make_value(x.as_double(), t);
      Value v;
      if (x.is_float) {
        if (!std::isfinite(x.f)) throw fail(u, "casting a non-finite float to an integer");
        v.i = wrap_value(static_cast<Int>(std::trunc(x.f)), t);
      } else {
        v.i = wrap_value(x.i, t);
      }
      return v;
    }
    case Op::BITCAST: {
      const Value x = eval(u.src(0));
      const DType from = u.src(0).dtype().base();
      const unsigned size = byte_size(from);
      if (size != byte_size(t) || (size != 2 && size != 4 && size != 8) ||
          (is_float(from) && size == 2 && from != dtypes::half && from != dtypes::bfloat16) ||
          (is_float(t) && size == 2 && t != dtypes::half && t != dtypes::bfloat16))
        throw fail(u, "only 16-, 32- and 64-bit bitcasts of ints, half, bfloat16, float and "
                      "double are interpreted");
      std::uint64_t bits = 0;
      if (is_float(from)) {
        if (size == 2) {
          bits = float16_bits(x.f, from);
        } else if (size == 4) {
          const float f = static_cast<float>(x.f);
          std::uint32_t b = 0;
          std::memcpy(&b, &f, 4);
          bits = b;
        } else {
          std::memcpy(&bits, &x.f, 8);
        }
      } else {
        bits =
            static_cast<std::uint64_t>(static_cast<std::int64_t>(wrap_value(x.i, dtypes::int64)));
        if (size < 8) bits &= (std::uint64_t{1} << (8 * size)) - 1;
      }
      if (is_float(t)) {
        if (size == 2) return make_value(float16_value(static_cast<std::uint16_t>(bits), t), t);
        if (size == 4) {
          float f = 0;
          const auto b = static_cast<std::uint32_t>(bits);
          std::memcpy(&f, &b, 4);
          return make_value(f, t);
        }
        double d = 0;
        std::memcpy(&d, &bits, 8);
        return make_value(d, t);
      }
      Value v;
      v.i = wrap_value(Int(bits), t);
      return v;
    }
    default: break;
    }
    if (!ops::kAlu.contains(op)) throw fail(u, fmt::format("cannot evaluate {}", to_string(op)));
    std::vector<Value> a;
    for (const auto &s : u.src()) {
      a.push_back(eval(s));
      if (a.back().invalid) return a.back();
    }
    // The operand type decides float or integer math (comparisons yield bools).
    const DType ot = u.src(0).dtype().base();
    if (is_float(ot) || (ops::kBinary.contains(op) && is_float(u.src(1).dtype()))) {
      const double x = a[0].as_double(), y = a.size() > 1 ? a[1].as_double() : 0;
      double r = 0;
      switch (op) {
      case Op::EXP2: r = std::exp2(x); break;
      case Op::LOG2: r = std::log2(x); break;
      case Op::SIN: r = std::sin(x); break;
      case Op::SQRT: r = std::sqrt(x); break;
      case Op::RECIPROCAL: r = 1.0 / x; break;
      case Op::NEG: r = -x; break;
      case Op::TRUNC: r = std::trunc(x); break;
      case Op::ADD: r = x + y; break;
      case Op::SUB: r = x - y; break;
      case Op::MUL: r = x * y; break;
      case Op::FDIV: r = x / y; break;
      case Op::POW: r = std::pow(x, y); break;
      case Op::MAX: r = std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y); break;
      case Op::CMPLT: return make_value(x < y, dtypes::bool_);
      case Op::CMPNE: return make_value(x != y, dtypes::bool_);
      case Op::CMPEQ: return make_value(x == y, dtypes::bool_);
      case Op::MULACC: r = x * y + a[2].as_double(); break;
      default: throw fail(u, fmt::format("{} on floats", to_string(op)));
      }
      return make_value(r, t);
    }
    const Int x = a[0].as_int(), y = a.size() > 1 ? a[1].as_int() : 0;
    auto nonzero = [&] {
      if (y == 0) throw fail(u, "division by zero");
    };
    Int r = 0;
    switch (op) {
    case Op::NEG: r = -x; break;
    case Op::ADD: r = x + y; break;
    case Op::SUB: r = x - y; break;
    case Op::MUL: r = x * y; break;
    case Op::MAX: r = std::max(x, y); break;
    case Op::CDIV:
      nonzero();
      r = x / y;
      break;
    case Op::CMOD:
      nonzero();
      r = x % y;
      break;
    case Op::FLOORDIV:
      nonzero();
      r = floor_div(x, y);
      break;
    case Op::FLOORMOD:
      nonzero();
      r = x - floor_div(x, y) * y;
      break;
    case Op::AND: r = x & y; break;
    case Op::OR: r = x | y; break;
    case Op::XOR: r = x ^ y; break;
    case Op::SHL:
      if (y < 0 || y > 63) throw fail(u, "shift out of range");
      r = x << static_cast<int>(y);
      break;
    case Op::SHR:
      if (y < 0 || y > 63) throw fail(u, "shift out of range");
      r = x >> static_cast<int>(y);
      break;
    case Op::CMPLT: r = x < y; break;
    case Op::CMPNE: r = x != y; break;
    case Op::CMPEQ: r = x == y; break;
    case Op::MULACC: r = x * y + a[2].as_int(); break;
    case Op::THREEFRY:
      r = static_cast<Int>(threefry(static_cast<std::uint64_t>(x), static_cast<std::uint64_t>(y)));
      break;
    default: throw fail(u, fmt::format("{} on integers", to_string(op)));
    }
    Value v;
    v.i = wrap_value(r, is_bool(t) ? dtypes::bool_ : t);
    if (is_bool(t)) v.i = r != 0;
    return v;
  }

  std::vector<HostBuffer> &buffers_;
  std::vector<UOp> nodes_;
  std::unordered_map<const UOpNode *, std::size_t> ids_;
  OpenRanges free_;
  std::unordered_map<const UOpNode *, std::int64_t> env_;
  std::unordered_map<const UOpNode *, std::pair<std::vector<std::int64_t>, Value>> memo_;
  std::unordered_map<std::int64_t, std::size_t> slot_index_;
  VariableValues variables_;
};

}  // namespace

void interpret(const UOp &sink, std::vector<HostBuffer> &buffers, const VariableValues &variables) {
  Interpreter run(sink, buffers, variables);
}

std::vector<HostBuffer> make_buffers(const std::vector<KernelParam> &params, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<HostBuffer> out;
  for (const auto &p : params) {
    HostBuffer b{p.dtype, std::vector<double>(static_cast<std::size_t>(p.size), 0.0)};
    if (!p.written) {
      for (auto &v : b.data) {
        if (is_float(p.dtype)) {
          std::uniform_real_distribution<double> d(-1.0, 1.0);
          v = round_to(d(rng), p.dtype);
        } else if (is_bool(p.dtype)) {
          v = static_cast<double>(rng() & 1);
        } else {
          std::uniform_int_distribution<int> d(is_unsigned(p.dtype) ? 0 : -8, 7);
          v = d(rng);
        }
      }
    }
    out.push_back(std::move(b));
  }
  return out;
}

Comparison compare_outputs(const std::vector<KernelParam> &params,
                           const std::vector<HostBuffer> &got, const std::vector<HostBuffer> &want,
                           double atol, double rtol) {
  Comparison c;
  for (std::size_t k = 0; k < params.size() && k < got.size() && k < want.size(); ++k) {
    if (!params[k].written) continue;
    const auto &g = got[k].data, &w = want[k].data;
    if (g.size() != w.size()) {
      c.ok = false;
      ++c.mismatches;
      continue;
    }
    for (std::size_t i = 0; i < g.size(); ++i) {
      if (std::isnan(g[i]) && std::isnan(w[i])) continue;
      if (g[i] == w[i]) continue;
      const double abs = std::fabs(g[i] - w[i]);
      const double rel = abs / std::max(std::fabs(w[i]), 1e-30);
      if (std::isnan(abs)) {
        c.max_abs_err = c.max_rel_err = INFINITY;
      } else {
        c.max_abs_err = std::max(c.max_abs_err, abs);
        c.max_rel_err = std::max(c.max_rel_err, rel);
      }
      if (!(abs <= atol + rtol * std::fabs(w[i]))) {
        ++c.mismatches;
        c.ok = false;
      }
    }
  }
  return c;
}

Tolerance tolerance_for(const UOp &sink) {
  int bits = 52;  // the mantissa bits of the narrowest float computed in
  for (const UOp &u : toposort(sink))
    if (is_float(u.dtype())) bits = std::min(bits, mantissa_bits(u.dtype()));
  Tolerance t;
  const double wide = 8 * std::ldexp(1.0, -bits);
  t.atol = std::max(t.atol, wide);
  t.rtol = std::max(t.rtol, wide);
  return t;
}

Comparison check_with_interpreter(const UOp &sink, std::uint64_t seed,
                                  const std::function<void(std::vector<HostBuffer> &)> &run,
                                  const VariableValues &variables) {
  const auto params = kernel_params(sink);
  auto got = make_buffers(params, seed);
  auto want = got;
  run(got);
  interpret(sink, want, variables);
  const Tolerance t = tolerance_for(sink);
  return compare_outputs(params, got, want, t.atol, t.rtol);
}

}  // namespace wavescope::compiler::kernel
