// VIZ's view steps of a kernel's program (program_views.hpp).

#include "wavescope/compiler/rewrite/program_views.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"
#include "wavescope/compiler/isa/isa_report.hpp"

namespace wavescope::compiler::rewrite {
namespace {

// The PROGRAM's source that holds a view's part, and that part's op.
struct Part {
  std::size_t index;
  Op op;
};

Part part_of(ProgramView view) {
  switch (view) {
  case ProgramView::UOpList: return {1, Op::LINEAR};
  case ProgramView::Source: return {2, Op::SOURCE};
  case ProgramView::Disassembly: return {3, Op::BINARY};
  }
  return {1, Op::LINEAR};
}

// The trace id of the part in the first PROGRAM of the rewrite that holds it.
std::optional<std::uint64_t> find_part(const RewriteTrace &trace, const TraceRewrite &rewrite,
                                       Part part) {
  const auto &nodes = trace.nodes();
  auto part_in = [&](std::uint64_t id) -> std::optional<std::uint64_t> {
    const auto it = nodes.find(id);
    if (it == nodes.end() || it->second.op != Op::PROGRAM || it->second.src.size() <= part.index)
      return std::nullopt;
    const auto src = nodes.find(it->second.src[part.index]);
    if (src == nodes.end() || src->second.op != part.op) return std::nullopt;
    return src->first;
  };
  if (auto p = part_in(rewrite.input)) return p;
  for (const auto &step : rewrite.steps)
    if (auto p = part_in(step.after)) return p;
  return std::nullopt;
}

std::string op_name(const TraceNode &n) {
  return n.foreign_op.empty() ? std::string(to_string(n.op)) : n.foreign_op;
}

std::string dtype_name(const TraceNode &n) {
  return n.foreign_dtype.empty() ? to_string(n.dtype) : n.foreign_dtype;
}

std::string arg_text(const Arg &arg) {
  if (is_none(arg)) return "None";
  if (const auto *f = std::get_if<ForeignArg>(&arg)) return f->text;
  return to_string(arg);
}

bool is_elf(const std::string &bytes) {
  return bytes.size() >= 20 && bytes.compare(0, 4,
                                             "\x7f"
                                             "ELF") == 0;
}

// e_machine (EM_AMDGPU is 0xe0); tinygrad's own AMD ELF packer leaves it 0.
unsigned elf_machine(const std::string &bytes) {
  const auto byte = [&](std::size_t i) {
    return static_cast<unsigned>(static_cast<unsigned char>(bytes[i]));
  };
  return bytes[5] == 2 ? (byte(18) << 8) | byte(19) : byte(18) | (byte(19) << 8);
}

std::string describe_binary(const std::string &bytes) {
  if (!is_elf(bytes)) return fmt::format("{} bytes, not an ELF file", bytes.size());
  const unsigned machine = elf_machine(bytes);
  std::string arch = machine == 0x3e   ? "x86-64"
                     : machine == 0xb7 ? "AArch64"
                     : machine == 0xf3 ? "RISC-V"
                                       : fmt::format("machine {:#x}", machine);
  return fmt::format("{} ELF object, {} bytes", arch, bytes.size());
}

// The ranges a node is in (tinygrad's UOp.ranges): its sources' ranges, less those an END,
// REDUCE, WMMA or STAGE closes (an AFTER closes what its sources close), and a RANGE itself.
class RangeScopes {
public:
  explicit RangeScopes(const std::map<std::uint64_t, TraceNode> &nodes) : nodes_(nodes) {}

  // "0,1,2": the ranges' axes in order, as tinygrad's multirange_str.
  std::string text(std::uint64_t id) {
    std::vector<std::pair<std::string, std::string>> axes;  // sort key, label
    for (std::uint64_t r : ranges(id)) {
      const Arg &arg = nodes_.at(r).arg;
      if (const auto *range = std::get_if<RangeArg>(&arg))
        axes.emplace_back(fmt::format("{:020d}", range->axis + (std::int64_t{1} << 40)),
                          range->axis < 0 ? fmt::format("m{}", -range->axis)
                                          : std::to_string(range->axis));
      else
        axes.emplace_back(arg_text(arg), arg_text(arg));
    }
    std::sort(axes.begin(), axes.end());
    std::string out;
    for (const auto &[key, label] : axes) out += (out.empty() ? "" : ",") + label;
    return out;
  }

private:
  const std::vector<std::uint64_t> &ranges(std::uint64_t id) {
    if (auto it = memo_.find(id); it != memo_.end()) return it->second;
    const TraceNode &n = nodes_.at(id);
    std::vector<std::uint64_t> in;
    auto add = [&](std::uint64_t r) {
      if (std::find(in.begin(), in.end(), r) == in.end()) in.push_back(r);
    };
    for (std::uint64_t s : n.src)
      for (std::uint64_t r : ranges(s)) add(r);
    for (std::uint64_t e : ended(id)) {
      if (nodes_.at(e).op == Op::RANGE) {
        std::erase(in, e);
      } else {
        const std::vector<std::uint64_t> closed = ranges(e);
        std::erase_if(in, [&](std::uint64_t r) {
          return std::find(closed.begin(), closed.end(), r) != closed.end();
        });
      }
    }
    if (n.op == Op::RANGE) add(id);
    return memo_[id] = std::move(in);
  }

  std::vector<std::uint64_t> ended(std::uint64_t id) const {
    const TraceNode &n = nodes_.at(id);
    std::size_t start = n.src.size();
    if (n.op == Op::END || n.op == Op::REDUCE || n.op == Op::STAGE) start = 1;
    if (n.op == Op::WMMA) start = 3;
    std::vector<std::uint64_t> out;
    if (n.op == Op::AFTER) {
      for (std::size_t k = 1; k < n.src.size(); ++k)
        for (std::uint64_t e : ended(n.src[k])) out.push_back(e);
      return out;
    }
    for (std::size_t k = start; k < n.src.size(); ++k) out.push_back(n.src[k]);
    return out;
  }

  const std::map<std::uint64_t, TraceNode> &nodes_;
  std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> memo_;
};

}  // namespace

std::string missing_part_text(ProgramView view) {
  switch (view) {
  case ProgramView::UOpList: return "No linear found";
  case ProgramView::Source: return "No source found";
  case ProgramView::Disassembly: return "No binary found";
  }
  return {};
}

std::optional<std::string> program_view_text(const RewriteTrace &trace, const TraceRewrite &rewrite,
                                             ProgramView view) {
  const auto id = find_part(trace, rewrite, part_of(view));
  if (!id) return std::nullopt;
  const TraceNode &node = trace.nodes().at(*id);
  switch (view) {
  case ProgramView::UOpList: return uop_list_text(trace, *id);
  case ProgramView::Source:
    if (const auto *text = std::get_if<std::string>(&node.arg)) return *text;
    return std::nullopt;
  case ProgramView::Disassembly:
    if (const auto *f = std::get_if<ForeignArg>(&node.arg); f && f->type == "bytes")
      return disassembly_text(f->text, "the kernel's code object");
    return std::nullopt;
  }
  return std::nullopt;
}

std::string uop_list_text(const RewriteTrace &trace, std::uint64_t linear) {
  const auto &nodes = trace.nodes();
  const TraceNode &list = nodes.at(linear);
  std::unordered_map<std::uint64_t, std::size_t> position;
  for (std::size_t i = 0; i < list.src.size(); ++i) position.emplace(list.src[i], i);
  RangeScopes scopes(nodes);
  std::string out;
  for (std::size_t i = 0; i < list.src.size(); ++i) {
    const TraceNode &n = nodes.at(list.src[i]);
    // tinygrad prints the Python list: indices bare, constants' values and "--" quoted
    std::string srcs = "[";
    for (std::size_t k = 0; k < n.src.size(); ++k) {
      if (k) srcs += ", ";
      const TraceNode &s = nodes.at(n.src[k]);
      const auto it = position.find(n.src[k]);
      if (it == position.end())
        srcs += "'--'";
      else if (s.op == Op::CONST)
        srcs += "'" + arg_text(s.arg) + "'";
      else
        srcs += std::to_string(it->second);
    }
    srcs += "]";
    out += fmt::format("{:4d} {:<20}: {:<10} {:<24} {:<32} {}\n", i, op_name(n),
                       scopes.text(list.src[i]), dtype_name(n), srcs, arg_text(n.arg));
  }
  return out;
}

std::string disassembly_text(const std::string &bytes, const std::string &origin) {
  if (!is_elf(bytes) || (elf_machine(bytes) != 0xe0 && elf_machine(bytes) != 0))
    return fmt::format("{}: {}. Only AMDGPU code objects are disassembled here.\n", origin,
                       describe_binary(bytes));
  try {
    const auto code = isa::CodeObject::from_bytes(
        std::vector<std::uint8_t>(bytes.begin(), bytes.end()), {}, origin);
    std::string out;
    for (const auto &k : code.kernels()) {
      const auto &d = k.descriptor;
      out += fmt::format("; {}: {} VGPRs", k.name, d.vgpr_count);
      if (d.agpr_count) out += fmt::format(", {} AGPRs", d.agpr_count);
      if (d.sgpr_count) out += fmt::format(", {} SGPRs", d.sgpr_count);
      out += fmt::format(", LDS {} bytes, scratch {} bytes per item, kernargs {} bytes, wave{}\n",
                         d.group_segment_fixed_size, d.private_segment_fixed_size, d.kernarg_size,
                         d.wave_size);
    }
    const auto instructions = isa::disassemble_text(code);
    return out + isa::to_text(isa::DisassemblyReport{code, instructions});
  } catch (const Error &e) {
    return fmt::format("{}: {}\n", origin, e.what());
  }
}

}  // namespace wavescope::compiler::rewrite
