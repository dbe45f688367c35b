#pragma once
// Control-flow graph of a kernel's instructions: basic blocks and labelled edges.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/compiler/isa/instruction.hpp"

namespace wavescope::compiler::isa {

enum class EdgeKind {
  Taken,          // a conditional branch's target
  NotTaken,       // a conditional branch's fall-through
  Unconditional,  // s_branch's target
  FallThrough,    // a block that ends because the next instruction is a leader
};

std::string_view to_string(EdgeKind kind);

struct BasicBlock {
  std::size_t id = 0;
  std::size_t first = 0;       // index of the first instruction
  std::size_t count = 0;       // number of instructions
  std::uint64_t start = 0;     // address of the first instruction
  std::uint64_t end = 0;       // address one past the last instruction's bytes
  bool indirect_exit = false;  // ends in s_setpc/s_swappc: successors unknown, never guessed
  bool is_exit = false;        // ends in s_endpgm
};

struct CfgEdge {
  std::size_t from = 0;
  std::size_t to = 0;
  EdgeKind kind = EdgeKind::FallThrough;
  bool is_back_edge = false;  // target block starts at or before the source block
};

struct Cfg {
  std::vector<BasicBlock> blocks;
  std::vector<CfgEdge> edges;
  // Direct branch targets that are not an instruction start in the input (kept, not guessed).
  std::vector<std::uint64_t> unresolved_targets;

  // Blocks from leaders: the entry, every branch target, and the instruction after a branch or
  // s_endpgm. Padding (s_code_end) after the last reachable code forms no blocks.
  static Cfg build(const std::vector<Instruction> &instructions);

  // The block holding the instruction at `index`, or npos.
  std::size_t block_of(std::size_t instruction_index) const;
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);
};

// Graphviz DOT text of the graph; block labels list the instructions.
std::string to_dot(const Cfg &cfg, const std::vector<Instruction> &instructions,
                   std::string_view graph_name = "cfg");

}  // namespace wavescope::compiler::isa
