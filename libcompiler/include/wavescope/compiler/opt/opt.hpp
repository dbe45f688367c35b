#pragma once
// Optimization actions (spec §6.2, §6.4). SPLIT is the one splitting action: it splits an axis of
// the kernel's sorted axis list (scheduler.hpp) by an amount into a new axis of a given type,
// the new axis low (inner) or, with `top`, high (outer). The classic names are thin constructors
// of it with their own axis numbering:
//
//   UPCAST:a:n    SPLIT of axis a (an output axis) into an UPCAST axis of n
//   UNROLL:a:n    SPLIT of the a-th unrollable axis (REDUCE/GROUP_REDUCE) into UNROLL
//   LOCAL:a:n     SPLIT of axis a (a GLOBAL/loop axis) into LOCAL
//   GROUP:a:n     SPLIT of the a-th REDUCE axis into GROUP_REDUCE
//   GROUPTOP:a:n  the same, top
//   THREAD:a:n    SPLIT of axis a into THREAD, top
// and beside them PADTO:a:n (round axis a up to a multiple of n, gating the accesses beyond),
// SWAP:a:b (exchange two GLOBAL axes), NOLOCALS. An amount of 0 means the whole axis.
//
// Text form (the CLI's --opts): a comma-separated list of OP[:AXIS[:ARG[:TYPE[:top]]]], e.g.
// "UPCAST:0:4,UNROLL:0:4", "SPLIT:1:4:UNROLL", "SPLIT:3:8:GROUP_REDUCE:top", "NOLOCALS".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/arg.hpp"

namespace wavescope::compiler::opt {

enum class OptOp { Split, Upcast, Unroll, Local, Group, GroupTop, Thread, Padto, Swap, NoLocals };

std::string_view to_string(OptOp op);
std::optional<OptOp> parse_opt_op(std::string_view name);

struct Opt {
  OptOp op = OptOp::Split;
  std::int64_t axis = 0;
  std::int64_t arg = 0;              // the amount (PADTO: the multiple, SWAP: the other axis)
  AxisType type = AxisType::Upcast;  // SPLIT only: what the split-off axis becomes
  bool top = false;                  // SPLIT only: split off the high part
  friend bool operator==(const Opt &, const Opt &) = default;
};

// "UPCAST:0:4", "SPLIT:3:8:GROUP_REDUCE:top", "NOLOCALS".
std::string to_string(const Opt &opt);
std::string to_string(const std::vector<Opt> &opts);  // comma-separated; "" for none
// tinygrad's repr: "Opt(op=OptOps.UPCAST, axis=0, arg=4)",
// "Opt(op=OptOps.SPLIT, axis=3, arg=(8, AxisType.GROUP_REDUCE, True))".
std::string to_repr(const Opt &opt);

// Parses the text form; Error(Usage) naming the item and what is wrong.
std::vector<Opt> parse_opt_list(std::string_view text);
// Parses tinygrad's repr of a tuple of Opts ("(Opt(op=OptOps.UNROLL, axis=0, arg=4),)");
// Error(BadInput) for what it cannot read.
std::vector<Opt> parse_opt_reprs(std::string_view text);

// An opt that does not apply to a kernel: Error(BadInput) whose message names the opt, the axis
// and why ("invalid opt UPCAST:0:3 on r_64_256: 3 does not divide axis 0 (L 64)").
class InvalidOpt : public Error {
public:
  explicit InvalidOpt(const std::string &message) : Error(ErrorKind::BadInput, message) {}
};

// How a kernel is optimized: tinygrad's heuristic, nothing, or an explicit list.
struct OptChoice {
  enum class Mode { Heuristic, None, List };
  Mode mode = Mode::Heuristic;
  std::vector<Opt> opts;
  static OptChoice heuristic() { return {}; }
  static OptChoice none() { return {Mode::None, {}}; }
  static OptChoice list(std::vector<Opt> opts) { return {Mode::List, std::move(opts)}; }
};

}  // namespace wavescope::compiler::opt
