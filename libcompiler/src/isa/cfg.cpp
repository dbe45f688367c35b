#include "wavescope/compiler/isa/cfg.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

namespace wavescope::compiler::isa {

std::string_view to_string(EdgeKind kind) {
  switch (kind) {
  case EdgeKind::Taken: return "taken";
  case EdgeKind::NotTaken: return "not-taken";
  case EdgeKind::Unconditional: return "unconditional";
  case EdgeKind::FallThrough: return "fall-through";
  }
  return "fall-through";
}

Cfg Cfg::build(const std::vector<Instruction> &insts) {
  Cfg cfg;
  // Trailing s_code_end padding is not code.
  std::size_t count = insts.size();
  while (count > 0 && insts[count - 1].mnemonic == "s_code_end") --count;
  if (count == 0) return cfg;

  std::map<std::uint64_t, std::size_t> index_of;  // instruction start address -> index
  for (std::size_t i = 0; i < count; ++i) index_of[insts[i].address] = i;

  std::set<std::size_t> leaders{0};
  for (std::size_t i = 0; i < count; ++i) {
    const auto &inst = insts[i];
    if (inst.branch == BranchKind::None) continue;
    if (i + 1 < count) leaders.insert(i + 1);
    if (inst.branch_target && inst.branch != BranchKind::Call) {
      if (auto it = index_of.find(*inst.branch_target); it != index_of.end())
        leaders.insert(it->second);
      else
        cfg.unresolved_targets.push_back(*inst.branch_target);
    }
  }

  std::vector<std::size_t> starts(leaders.begin(), leaders.end());
  std::map<std::size_t, std::size_t> block_at;  // leader index -> block id
  for (std::size_t b = 0; b < starts.size(); ++b) {
    const std::size_t first = starts[b];
    const std::size_t last = (b + 1 < starts.size() ? starts[b + 1] : count) - 1;
    BasicBlock block;
    block.id = b;
    block.first = first;
    block.count = last - first + 1;
    block.start = insts[first].address;
    block.end = insts[last].address + insts[last].size;
    cfg.blocks.push_back(block);
    block_at[first] = b;
  }

  auto add_edge = [&](std::size_t from, std::size_t to_index, EdgeKind kind) {
    const std::size_t to = block_at.at(to_index);
    cfg.edges.push_back({from, to, kind, cfg.blocks[to].start <= cfg.blocks[from].start});
  };
  for (auto &block : cfg.blocks) {
    const std::size_t last = block.first + block.count - 1;
    const auto &inst = insts[last];
    const bool has_next = last + 1 < count;
    std::optional<std::size_t> target_index;
    if (inst.branch_target)
      if (auto it = index_of.find(*inst.branch_target); it != index_of.end())
        target_index = it->second;
    switch (inst.branch) {
    case BranchKind::Conditional:
      if (target_index) add_edge(block.id, *target_index, EdgeKind::Taken);
      if (has_next) add_edge(block.id, last + 1, EdgeKind::NotTaken);
      break;
    case BranchKind::Unconditional:
      if (target_index) add_edge(block.id, *target_index, EdgeKind::Unconditional);
      break;
    case BranchKind::Indirect: block.indirect_exit = true; break;
    case BranchKind::Return: block.is_exit = true; break;
    case BranchKind::Call:
      // A call returns to the next instruction; an indirect call's callee stays unknown.
      if (!inst.branch_target) block.indirect_exit = true;
      if (has_next) add_edge(block.id, last + 1, EdgeKind::FallThrough);
      break;
    case BranchKind::None:
      if (has_next) add_edge(block.id, last + 1, EdgeKind::FallThrough);
      break;
    }
  }
  return cfg;
}

std::size_t Cfg::block_of(std::size_t index) const {
  auto it = std::upper_bound(blocks.begin(), blocks.end(), index,
                             [](std::size_t i, const BasicBlock &b) { return i < b.first; });
  if (it == blocks.begin()) return npos;
  --it;
  return index < it->first + it->count ? it->id : npos;
}

namespace {
std::string dot_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\' || c == '{' || c == '}' || c == '<' || c == '>' || c == '|')
      out += '\\';
    out += c;
  }
  return out;
}
}  // namespace

std::string to_dot(const Cfg &cfg, const std::vector<Instruction> &insts,
                   std::string_view graph_name) {
  std::string out = fmt::format(
      "digraph \"{}\" {{\n  node [shape=record fontname=\"monospace\"];\n", dot_escape(graph_name));
  for (const auto &block : cfg.blocks) {
    std::string label = fmt::format("{{bb{} @ {:#x}", block.id, block.start);
    for (std::size_t i = block.first; i < block.first + block.count; ++i)
      label += fmt::format("|{:#x}: {}\\l", insts[i].address, dot_escape(insts[i].text));
    if (block.indirect_exit) label += "|(indirect: successors unknown)\\l";
    label += "}";
    out += fmt::format("  bb{} [label=\"{}\"];\n", block.id, label);
  }
  for (const auto &edge : cfg.edges) {
    const char *color = edge.kind == EdgeKind::Taken           ? "green3"
                        : edge.kind == EdgeKind::NotTaken      ? "red3"
                        : edge.kind == EdgeKind::Unconditional ? "blue3"
                                                               : "gray40";
    out += fmt::format("  bb{} -> bb{} [label=\"{}\" color={}{}];\n", edge.from, edge.to,
                       to_string(edge.kind), color, edge.is_back_edge ? " constraint=false" : "");
  }
  out += "}\n";
  return out;
}

}  // namespace wavescope::compiler::isa
