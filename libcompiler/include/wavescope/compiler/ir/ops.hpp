#pragma once
// The operations of the IR and their groups (spec §1.3).
//
// The enum order is significant: it is the first key of the canonical order of commutative
// operands, and it follows tinygrad's so that canonical forms coincide (leaves such as PARAM and
// SPECIAL sort before ALU ops, which sort before RANGE and CONST).

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace wavescope::compiler {

enum class Op : std::uint8_t {
  // defines
  SPECIAL,
  BUFFER,
  // structure / program
  NOOP,
  REWRITE_ERROR,
  PARAM,
  FUNCTION,
  CALL,
  PROGRAM,
  LINEAR,
  SOURCE,
  BINARY,
  SINK,
  AFTER,
  GROUP,
  STACK,
  TUPLE,
  GETTUPLE,
  GETADDR,
  // memory
  INDEX,
  SHRINK,
  LOAD,
  STORE,
  // math
  WMMA,
  CAST,
  BITCAST,
  EXP2,
  LOG2,
  SIN,
  SQRT,
  RECIPROCAL,
  NEG,
  TRUNC,
  ADD,
  MUL,
  SHL,
  SHR,
  CDIV,
  MAX,
  CMOD,
  CMPLT,
  CMPNE,
  CMPEQ,
  XOR,
  OR,
  AND,
  THREEFRY,
  SUB,
  FDIV,
  POW,
  FLOORDIV,
  FLOORMOD,
  WHERE,
  MULACC,
  // control flow
  BARRIER,
  RANGE,
  IF,
  END,
  ENDIF,
  WAIT,
  // constants and escape hatches
  CONST,
  CUSTOM,
  CUSTOMI,
  INS,
  // tensor level only
  CONTIGUOUS,
  CONTIGUOUS_BACKWARD,
  DETACH,
  STAGE,
  COPY,
  MSELECT,
  MSTACK,
  CUSTOM_FUNCTION,
  RESHAPE,
  PERMUTE,
  EXPAND,
  PAD,
  FLIP,
  UNSHARD,
  REDUCE,
  ALLREDUCE,
  // pattern compiler internal
  PYLITERAL,
};

inline constexpr std::size_t kOpCount = static_cast<std::size_t>(Op::PYLITERAL) + 1;

std::string_view to_string(Op op);
std::optional<Op> parse_op(std::string_view name);

// A set of ops as a 128-bit mask; constexpr so groups are compile-time constants.
class OpSet {
public:
  constexpr OpSet() = default;
  constexpr OpSet(Op op) { add(op); }  // NOLINT: an op converts to the set holding it
  constexpr OpSet(std::initializer_list<Op> ops) {
    for (Op op : ops) add(op);
  }
  static constexpr OpSet all() {
    OpSet s;
    for (std::size_t i = 0; i < kOpCount; ++i) s.add(static_cast<Op>(i));
    return s;
  }

  constexpr void add(Op op) {
    const auto i = static_cast<unsigned>(op);
    words_[i / 64] |= std::uint64_t(1) << (i % 64);
  }
  constexpr bool contains(Op op) const {
    const auto i = static_cast<unsigned>(op);
    return (words_[i / 64] >> (i % 64)) & 1;
  }
  constexpr bool empty() const { return words_[0] == 0 && words_[1] == 0; }
  constexpr bool intersects(OpSet other) const {
    return (words_[0] & other.words_[0]) != 0 || (words_[1] & other.words_[1]) != 0;
  }
  constexpr bool is_subset_of(OpSet other) const {
    return (words_[0] & ~other.words_[0]) == 0 && (words_[1] & ~other.words_[1]) == 0;
  }
  // The only member when the set has exactly one, else nullopt.
  std::optional<Op> single() const;

  friend constexpr OpSet operator|(OpSet a, OpSet b) {
    OpSet r;
    r.words_[0] = a.words_[0] | b.words_[0];
    r.words_[1] = a.words_[1] | b.words_[1];
    return r;
  }
  friend constexpr OpSet operator-(OpSet a, OpSet b) {
    OpSet r;
    r.words_[0] = a.words_[0] & ~b.words_[0];
    r.words_[1] = a.words_[1] & ~b.words_[1];
    return r;
  }
  friend constexpr bool operator==(OpSet a, OpSet b) {
    return a.words_[0] == b.words_[0] && a.words_[1] == b.words_[1];
  }

private:
  std::uint64_t words_[2] = {0, 0};
};

namespace ops {
inline constexpr OpSet kUnary{Op::EXP2,       Op::LOG2, Op::SIN,  Op::SQRT,
                              Op::RECIPROCAL, Op::NEG,  Op::TRUNC};
inline constexpr OpSet kBinary{Op::ADD,   Op::MUL,   Op::CDIV,     Op::MAX,      Op::CMOD,
                               Op::CMPLT, Op::CMPNE, Op::CMPEQ,    Op::XOR,      Op::SHL,
                               Op::SHR,   Op::OR,    Op::AND,      Op::THREEFRY, Op::SUB,
                               Op::FDIV,  Op::POW,   Op::FLOORDIV, Op::FLOORMOD};
inline constexpr OpSet kTernary{Op::WHERE, Op::MULACC};
inline constexpr OpSet kAlu = kUnary | kBinary | kTernary;
inline constexpr OpSet kBroadcastable = kBinary | kTernary;
inline constexpr OpSet kElementwise = kAlu | OpSet{Op::CAST, Op::BITCAST};
inline constexpr OpSet kDefines{Op::PARAM, Op::BUFFER};
inline constexpr OpSet kIrreducible{Op::CONST, Op::SPECIAL, Op::RANGE, Op::PARAM, Op::GETADDR};
inline constexpr OpSet kMovement{Op::RESHAPE, Op::EXPAND, Op::PERMUTE,
                                 Op::PAD,     Op::SHRINK, Op::FLIP};
inline constexpr OpSet kCommutative{Op::ADD,   Op::MUL, Op::MAX, Op::CMPNE,
                                    Op::CMPEQ, Op::XOR, Op::AND, Op::OR};
inline constexpr OpSet kAssociative{Op::ADD, Op::MUL, Op::AND, Op::OR, Op::MAX};
inline constexpr OpSet kIdempotent{Op::OR, Op::AND, Op::MAX};
inline constexpr OpSet kReduce{Op::ADD, Op::MUL, Op::MAX};
inline constexpr OpSet kComparison{Op::CMPLT, Op::CMPNE, Op::CMPEQ};
inline constexpr OpSet kAll = OpSet::all();
}  // namespace ops

}  // namespace wavescope::compiler
