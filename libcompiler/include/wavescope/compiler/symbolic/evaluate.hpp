#pragma once
// Evaluating integer/boolean expression graphs at a point, with the semantics of spec §9.3:
// mathematical integers unless a node has a sized dtype (then its result wraps), floor `//` and
// `%`, truncating cdiv/cmod, `invalid` propagation, and "undefined" for division by zero and
// negative shifts (also for values beyond the 128-bit range, which real index math never reaches).

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::symbolic {

struct Value {
  enum class Kind : std::uint8_t { Int, Bool, Invalid, Undefined };
  Kind kind = Kind::Undefined;
  Int v = 0;  // the integer, or 0/1 for bools

  static Value integer(Int x) { return {Kind::Int, x}; }
  static Value boolean(bool b) { return {Kind::Bool, b ? 1 : 0}; }
  static Value invalid() { return {Kind::Invalid, 0}; }
  static Value undefined() { return {Kind::Undefined, 0}; }
  bool is_defined() const { return kind != Kind::Undefined; }
  // Same value in the sense of the corpus checker: invalid equals only invalid, bools are 0/1.
  friend bool same_value(const Value &a, const Value &b);
};

std::string to_string(const Value &value);

// An expression compiled for repeated evaluation. Its free names (variables, ranges, specials)
// are the inputs, bound by position in `inputs()` order.
class Evaluator {
public:
  explicit Evaluator(const UOp &root);
  // The input names in a fixed order.
  const std::vector<std::string> &inputs() const { return inputs_; }
  // Evaluates with `values[i]` bound to `inputs()[i]`.
  Value operator()(const std::vector<Int> &values) const;
  // Evaluates with inputs looked up by name; a missing name throws wavescope::Error(Usage).
  Value operator()(const std::unordered_map<std::string, Int> &env) const;

private:
  struct Step {
    Op op;
    DType dtype;
    std::int32_t a = -1, b = -1, c = -1;  // operand steps
    std::int32_t input = -1;              // for leaves bound to an input
    Value constant;
    DType cast_to;
  };
  std::vector<Step> steps_;
  std::vector<std::string> inputs_;
};

}  // namespace wavescope::compiler::symbolic
