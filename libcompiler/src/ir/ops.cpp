#include "wavescope/compiler/ir/ops.hpp"

#include <array>

namespace wavescope::compiler {
namespace {
constexpr std::array<std::string_view, kOpCount> kOpNames = {
    "SPECIAL",
    "BUFFER",
    "NOOP",
    "REWRITE_ERROR",
    "PARAM",
    "FUNCTION",
    "CALL",
    "PROGRAM",
    "LINEAR",
    "SOURCE",
    "BINARY",
    "SINK",
    "AFTER",
    "GROUP",
    "STACK",
    "TUPLE",
    "GETTUPLE",
    "GETADDR",
    "INDEX",
    "SHRINK",
    "LOAD",
    "STORE",
    "WMMA",
    "CAST",
    "BITCAST",
    "EXP2",
    "LOG2",
    "SIN",
    "SQRT",
    "RECIPROCAL",
    "NEG",
    "TRUNC",
    "ADD",
    "MUL",
    "SHL",
    "SHR",
    "CDIV",
    "MAX",
    "CMOD",
    "CMPLT",
    "CMPNE",
    "CMPEQ",
    "XOR",
    "OR",
    "AND",
    "THREEFRY",
    "SUB",
    "FDIV",
    "POW",
    "FLOORDIV",
    "FLOORMOD",
    "WHERE",
    "MULACC",
    "BARRIER",
    "RANGE",
    "IF",
    "END",
    "ENDIF",
    "WAIT",
    "CONST",
    "CUSTOM",
    "CUSTOMI",
    "INS",
    "CONTIGUOUS",
    "CONTIGUOUS_BACKWARD",
    "DETACH",
    "STAGE",
    "COPY",
    "MSELECT",
    "MSTACK",
    "CUSTOM_FUNCTION",
    "RESHAPE",
    "PERMUTE",
    "EXPAND",
    "PAD",
    "FLIP",
    "UNSHARD",
    "REDUCE",
    "ALLREDUCE",
    "PYLITERAL",
};
}  // namespace

std::string_view to_string(Op op) { return kOpNames[static_cast<std::size_t>(op)]; }

std::optional<Op> parse_op(std::string_view name) {
  for (std::size_t i = 0; i < kOpCount; ++i)
    if (kOpNames[i] == name) return static_cast<Op>(i);
  return std::nullopt;
}

std::optional<Op> OpSet::single() const {
  std::optional<Op> found;
  for (std::size_t i = 0; i < kOpCount; ++i) {
    if (!contains(static_cast<Op>(i))) continue;
    if (found) return std::nullopt;
    found = static_cast<Op>(i);
  }
  return found;
}

}  // namespace wavescope::compiler
