#include "wavescope/compiler/symbolic/evaluate.hpp"

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "symbolic/alu_semantics.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"

namespace wavescope::compiler::symbolic {

bool same_value(const Value &a, const Value &b) {
  if (a.kind == Value::Kind::Invalid || b.kind == Value::Kind::Invalid) return a.kind == b.kind;
  if (!a.is_defined() || !b.is_defined()) return a.kind == b.kind;
  return a.v == b.v;
}

std::string to_string(const Value &value) {
  switch (value.kind) {
  case Value::Kind::Int: return compiler::to_string(value.v);
  case Value::Kind::Bool: return value.v ? "true" : "false";
  case Value::Kind::Invalid: return "invalid";
  case Value::Kind::Undefined: return "undefined";
  }
  return "undefined";
}

namespace {

using Kind = Value::Kind;

Value make_int(Int v, DType dtype) {
  if (!is_finite(v)) return Value::undefined();
  return Value::integer(wrap_value(v, dtype));
}

// +, -, * and << of a sized int, exactly: two's complement wrap-around is arithmetic modulo
// 2^width, and every sized width divides 64, so the operands reduced modulo 2^64 give the
// wrapped result even where the unwrapped one would exceed the 128-bit range (int64 * int64).
std::optional<Value> wrapped_ring_op(Op op, DType dtype, Int x, Int y) {
  if (!is_sized_int(dtype) || !is_finite(x) || !is_finite(y)) return std::nullopt;
  const auto a = static_cast<std::uint64_t>(x), b = static_cast<std::uint64_t>(y);
  std::uint64_t r = 0;
  switch (op) {
  case Op::ADD: r = a + b; break;
  case Op::SUB: r = a - b; break;
  case Op::MUL: r = a * b; break;
  case Op::SHL:
    if (y < 0 || y >= 120) return std::nullopt;
    r = y >= 64 ? 0 : a << static_cast<unsigned>(y);
    break;
  default: return std::nullopt;
  }
  return Value::integer(wrap_value(Int(r), dtype));
}

}  // namespace

namespace detail {

Value binary_value(Op op, DType dtype, const Value &a, const Value &b) {
  if (!a.is_defined() || !b.is_defined()) return Value::undefined();
  if (a.kind == Kind::Invalid || b.kind == Kind::Invalid) return Value::invalid();
  const bool both_bool = a.kind == Kind::Bool && b.kind == Kind::Bool;
  const Int x = a.v, y = b.v;
  if (!both_bool)
    if (auto wrapped = wrapped_ring_op(op, dtype, x, y)) return *wrapped;
  switch (op) {
  case Op::AND: return both_bool ? Value::boolean(x && y) : make_int(x & y, dtype);
  case Op::OR: return both_bool ? Value::boolean(x || y) : make_int(x | y, dtype);
  case Op::XOR: return both_bool ? Value::boolean(x != y) : make_int(x ^ y, dtype);
  case Op::ADD:
    if (both_bool) return Value::boolean(x || y);
    return make_int(saturating_add(x, y), dtype);
  case Op::SUB: return make_int(saturating_add(x, -y), dtype);
  case Op::MUL:
    if (both_bool) return Value::boolean(x && y);
    return make_int(saturating_mul(x, y), dtype);
  case Op::MAX:
    if (both_bool) return Value::boolean(x || y);
    return make_int(x > y ? x : y, dtype);
  case Op::CMPLT: return Value::boolean(x < y);
  case Op::CMPNE: return Value::boolean(x != y);
  case Op::CMPEQ: return Value::boolean(x == y);
  case Op::FLOORDIV: return y == 0 ? Value::undefined() : make_int(floor_div(x, y), dtype);
  case Op::FLOORMOD: return y == 0 ? Value::undefined() : make_int(floor_mod(x, y), dtype);
  case Op::CDIV: return y == 0 ? Value::undefined() : make_int(trunc_div(x, y), dtype);
  case Op::CMOD: return y == 0 ? Value::undefined() : make_int(trunc_mod(x, y), dtype);
  case Op::SHL:
    if (y < 0 || y >= 120) return Value::undefined();
    return make_int(saturating_mul(x, Int(1) << static_cast<unsigned>(y)), dtype);
  case Op::SHR:
    if (y < 0) return Value::undefined();
    if (y >= 120) return make_int(x < 0 ? -1 : 0, dtype);
    return make_int(floor_div(x, Int(1) << static_cast<unsigned>(y)), dtype);
  default: return Value::undefined();
  }
}

Value cast_value(const Value &x, DType to) {
  if (!x.is_defined() || x.kind == Kind::Invalid) return x;
  if (is_bool(to)) return Value::boolean(x.v != 0);
  return make_int(x.v, to);
}

}  // namespace detail

Evaluator::Evaluator(const UOp &root) {
  std::unordered_map<const UOpNode *, std::int32_t> index;
  std::unordered_map<std::string, std::int32_t> input_of;
  // Leaves stop the traversal: a range's extent is not part of its value.
  std::vector<UOp> order;
  {
    std::vector<std::pair<UOp, bool>> stack{{root, false}};
    std::unordered_map<const UOpNode *, bool> seen;
    while (!stack.empty()) {
      auto [u, expanded] = stack.back();
      stack.pop_back();
      if (expanded) {
        order.push_back(u);
        continue;
      }
      if (seen[u.get()]) continue;
      seen[u.get()] = true;
      stack.emplace_back(u, true);
      const bool leaf = u.op() == Op::CONST || u.op() == Op::PARAM || u.op() == Op::BUFFER ||
                        u.op() == Op::RANGE || u.op() == Op::SPECIAL;
      if (!leaf)
        for (std::size_t i = u.size(); i-- > 0;) stack.emplace_back(u.src(i), false);
    }
  }
  for (const auto &u : order) {
    Step s;
    s.op = u.op();
    s.dtype = u.dtype();
    switch (u.op()) {
    case Op::CONST:
      if (u.is_invalid())
        s.constant = Value::invalid();
      else if (auto b = std::get_if<bool>(&u.arg()))
        s.constant = Value::boolean(*b);
      else if (auto i = std::get_if<Int>(&u.arg()))
        s.constant = Value::integer(*i);
      else
        throw Error(ErrorKind::BadInput,
                    "cannot evaluate the non-integer constant " + to_string(u.arg()));
      break;
    case Op::PARAM:
    case Op::BUFFER:
    case Op::RANGE:
    case Op::SPECIAL: {
      const std::string name = node_name(u);
      auto [it, inserted] = input_of.emplace(name, static_cast<std::int32_t>(inputs_.size()));
      if (inserted) inputs_.push_back(name);
      s.input = it->second;
      break;
    }
    default:
      if (u.size() > 0) s.a = index.at(u.src(0).get());
      if (u.size() > 1) s.b = index.at(u.src(1).get());
      if (u.size() > 2) s.c = index.at(u.src(2).get());
      if (u.op() == Op::CAST) s.cast_to = u.dtype();
      if (!ops::kAlu.contains(u.op()) && u.op() != Op::CAST)
        throw Error(ErrorKind::BadInput,
                    std::string("cannot evaluate a ") + std::string(to_string(u.op())) + " node");
    }
    index.emplace(u.get(), static_cast<std::int32_t>(steps_.size()));
    steps_.push_back(s);
  }
}

Value Evaluator::operator()(const std::vector<Int> &values) const {
  std::vector<Value> v(steps_.size());
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    const Step &s = steps_[i];
    Value &out = v[i];
    switch (s.op) {
    case Op::CONST: out = s.constant; break;
    case Op::PARAM:
    case Op::BUFFER:
    case Op::RANGE:
    case Op::SPECIAL: {
      const Int x = values.at(static_cast<std::size_t>(s.input));
      out = is_bool(s.dtype) ? Value::boolean(x != 0) : Value::integer(x);
      break;
    }
    case Op::WHERE: {
      const Value &c = v[s.a];
      if (!c.is_defined())
        out = Value::undefined();
      else if (c.kind == Kind::Invalid)
        out = Value::invalid();
      else
        out = c.v != 0 ? v[s.b] : v[s.c];  // the selected branch, as it is
      break;
    }
    case Op::CAST: {
      out = detail::cast_value(v[s.a], s.cast_to);
      break;
    }
    case Op::NEG: {
      const Value &x = v[s.a];
      out = (!x.is_defined() || x.kind == Kind::Invalid) ? x : make_int(-x.v, s.dtype);
      break;
    }
    case Op::TRUNC: out = v[s.a]; break;
    default:
      if (s.b < 0) {
        out = Value::undefined();
        break;
      }
      out = detail::binary_value(s.op, s.dtype, v[s.a], v[s.b]);
    }
  }
  return v.empty() ? Value::undefined() : v.back();
}

Value Evaluator::operator()(const std::unordered_map<std::string, Int> &env) const {
  std::vector<Int> values;
  values.reserve(inputs_.size());
  for (const auto &name : inputs_) {
    auto it = env.find(name);
    if (it == env.end()) throw Error(ErrorKind::Usage, "no value given for '" + name + "'");
    values.push_back(it->second);
  }
  return (*this)(values);
}

}  // namespace wavescope::compiler::symbolic
