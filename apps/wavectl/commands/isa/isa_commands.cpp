// wavectl's ISA subcommands: codeobj, disasm, cfg, asm.

#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "commands/registry.hpp"
#include "table.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/compiler/isa/assembler.hpp"
#include "wavescope/compiler/isa/cfg.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"
#include "wavescope/compiler/isa/listing.hpp"

namespace wavectl {
namespace {

using namespace wavescope::compiler::isa;
using json = nlohmann::ordered_json;

struct CodeObjectArgs {
  std::string file;
  std::string target;  // overrides e_flags; required for tinygrad packer ELFs
  std::string kernel_name;

  void add_to(CLI::App &command) {
    command.add_option("FILE", file, "AMDGPU code object (.elf, .hsaco, .co)")->required();
    command.add_option("--target", target,
                       "Processor (e.g. gfx1100, gfx1201, gfx950) when e_flags names none");
  }
  CodeObject load() const {
    CodeObjectOptions options;
    if (!target.empty()) options.target = target;
    return CodeObject::load(file, options);
  }
};

// The instructions to show: one kernel's (--kernel) or the whole .text.
std::vector<Instruction> select_code(const CodeObject &code, const std::string &kernel) {
  return kernel.empty() ? disassemble_text(code) : disassemble_kernel(code, code.kernel(kernel));
}

json instruction_json(const Instruction &inst) {
  json j = {{"address", inst.address},
            {"size", inst.size},
            {"bytes", inst.hex_words()},
            {"text", inst.text},
            {"category", to_string(inst.category)}};
  if (inst.branch != BranchKind::None) j["branch"] = to_string(inst.branch);
  if (inst.branch_target) j["target"] = *inst.branch_target;
  if (!inst.valid) j["valid"] = false;
  return j;
}

json kernel_json(const Kernel &k) {
  const auto &d = k.descriptor;
  return {{"name", k.name},
          {"entry", k.entry},
          {"code_size", k.code_size},
          {"descriptor_address", k.descriptor_address},
          {"wave_size", d.wave_size},
          {"vgprs", d.vgpr_count},
          {"agprs", d.agpr_count},
          {"sgprs", d.sgpr_count},
          {"lds_bytes", d.group_segment_fixed_size},
          {"scratch_bytes", d.private_segment_fixed_size},
          {"kernarg_bytes", d.kernarg_size},
          {"user_sgprs", d.user_sgpr_count},
          {"dynamic_stack", d.uses_dynamic_stack},
          {"rsrc1", d.compute_pgm_rsrc1},
          {"rsrc2", d.compute_pgm_rsrc2},
          {"rsrc3", d.compute_pgm_rsrc3}};
}

void run_codeobj(const CodeObjectArgs &args, const CliContext &context) {
  const auto code = args.load();
  if (context.json) {
    json j = {{"file", code.origin()},
              {"target", code.target().processor},
              {"family", to_string(code.target().family())},
              {"e_flags", code.elf_flags()},
              {"quirks", code.quirks()},
              {"text", {{"address", code.text().address}, {"size", code.text().size}}}};
    for (const auto &k : code.kernels()) j["kernels"].push_back(kernel_json(k));
    for (const auto &s : code.sections())
      j["sections"].push_back({{"name", s.name}, {"address", s.address}, {"size", s.size}});
    for (const auto &s : code.symbols())
      j["symbols"].push_back({{"name", s.name}, {"value", s.value}, {"size", s.size}});
    print_ordered_json_line(j);
    return;
  }
  std::cout << fmt::format("{}: AMDGPU code object for {} ({}), e_flags {:#x}\n", code.origin(),
                           code.target().processor, to_string(code.target().family()),
                           code.elf_flags());
  for (const auto &q : code.quirks()) std::cout << "  unusual: " << q << '\n';
  std::cout << fmt::format(".text: {:#x}..{:#x} ({} bytes)\n\n", code.text().address,
                           code.text().address + code.text().size, code.text().size);
  Table kernels(
      {"kernel", "entry", "code", "wave", "VGPRs", "AGPRs", "SGPRs", "LDS", "scratch", "kernarg"},
      {Table::Align::Left, Table::Align::Right, Table::Align::Right, Table::Align::Right,
       Table::Align::Right, Table::Align::Right, Table::Align::Right, Table::Align::Right,
       Table::Align::Right, Table::Align::Right});
  for (const auto &k : code.kernels()) {
    const auto &d = k.descriptor;
    kernels.add_row({k.name, fmt::format("{:#x}", k.entry), std::to_string(k.code_size),
                     std::to_string(d.wave_size), std::to_string(d.vgpr_count),
                     std::to_string(d.agpr_count),
                     d.sgpr_count ? std::to_string(d.sgpr_count) : "-",
                     std::to_string(d.group_segment_fixed_size),
                     std::to_string(d.private_segment_fixed_size), std::to_string(d.kernarg_size)});
  }
  std::cout << kernels.render();
}

void run_disasm(const CodeObjectArgs &args, const std::string &kernel, bool no_collapse,
                const CliContext &context) {
  const auto code = args.load();
  const auto insts = select_code(code, kernel);
  if (context.json) {
    for (const auto &inst : insts) print_ordered_json_line(instruction_json(inst));
    return;
  }
  std::map<std::uint64_t, std::string> labels;
  for (const auto &k : code.kernels()) labels[k.entry] = k.name;
  std::ostringstream out;
  out << fmt::format("; {} ({})\n", code.origin(), code.target().processor);
  for (const auto &line : make_listing(insts, no_collapse ? SIZE_MAX : 2)) {
    const auto &inst = insts[line.first];
    if (auto it = labels.find(inst.address); it != labels.end())
      out << fmt::format("\n{:016x} <{}>:\n", inst.address, it->second);
    if (line.is_padding_run()) {
      const auto &last = insts[line.first + line.count - 1];
      out << fmt::format("  {:8x}:  s_code_end x {} (padding to {:#x})\n", inst.address, line.count,
                         last.address + last.size);
      continue;
    }
    std::string text = inst.text;
    if (inst.branch_target) text += fmt::format("  ; -> {:#x}", *inst.branch_target);
    out << fmt::format("  {:8x}:  {:<56} // {}\n", inst.address, text, inst.hex_words());
  }
  std::cout << out.str();
}

void run_cfg(const CodeObjectArgs &args, const std::string &kernel, bool dot,
             const CliContext &context) {
  const auto code = args.load();
  std::vector<std::pair<std::string, std::vector<Instruction>>> units;
  if (!kernel.empty())
    units.emplace_back(kernel, disassemble_kernel(code, code.kernel(kernel)));
  else if (code.kernels().empty())
    units.emplace_back(".text", disassemble_text(code));
  else
    for (const auto &k : code.kernels()) units.emplace_back(k.name, disassemble_kernel(code, k));

  for (const auto &[name, insts] : units) {
    const auto cfg = Cfg::build(insts);
    if (dot) {
      std::cout << to_dot(cfg, insts, name);
    } else if (context.json) {
      json j = {{"kernel", name}, {"blocks", json::array()}, {"edges", json::array()}};
      for (const auto &b : cfg.blocks)
        j["blocks"].push_back({{"id", b.id},
                               {"start", b.start},
                               {"end", b.end},
                               {"instructions", b.count},
                               {"exit", b.is_exit},
                               {"indirect_exit", b.indirect_exit}});
      for (const auto &e : cfg.edges)
        j["edges"].push_back({{"from", e.from},
                              {"to", e.to},
                              {"kind", to_string(e.kind)},
                              {"back_edge", e.is_back_edge}});
      j["unresolved_targets"] = cfg.unresolved_targets;
      print_ordered_json_line(j);
    } else {
      std::cout << fmt::format("{}: {} blocks, {} edges\n", name, cfg.blocks.size(),
                               cfg.edges.size());
      for (const auto &b : cfg.blocks) {
        std::string succ;
        for (const auto &e : cfg.edges)
          if (e.from == b.id)
            succ +=
                fmt::format(" bb{}({}{})", e.to, to_string(e.kind), e.is_back_edge ? ", back" : "");
        if (b.is_exit) succ += " exit";
        if (b.indirect_exit) succ += " indirect(unknown)";
        std::cout << fmt::format("  bb{:<3} {:#x}..{:#x}  {:3} insts ->{}\n", b.id, b.start, b.end,
                                 b.count, succ);
      }
    }
  }
}

void run_asm(const std::string &file, const std::string &target, const std::string &output,
             const CliContext &context) {
  const std::string source = wavescope::read_file_text(file, "assembly");
  std::vector<std::uint8_t> bytes;
  try {
    bytes = assemble(source, parse_gpu_target(target));
  } catch (const AssemblyError &e) {
    std::string all;
    for (const auto &d : e.diagnostics())
      all += fmt::format("\n{}:{}:{}: {}: {}", file, d.line, d.column,
                         d.is_error ? "error" : "warning", d.message);
    throw wavescope::Error(wavescope::ErrorKind::BadInput,
                           fmt::format("{}: {}{}", file, e.what(), all));
  }
  if (!output.empty())
    wavescope::write_file_atomically(output,
                                     std::span<const unsigned char>(bytes.data(), bytes.size()));
  if (context.json) {
    print_ordered_json_line({{"target", target}, {"size", bytes.size()}, {"output", output}});
  } else if (output.empty()) {
    for (std::size_t i = 0; i < bytes.size(); i += 4) {
      std::uint32_t word = 0;
      for (std::size_t b = 0; b < 4 && i + b < bytes.size(); ++b) word |= bytes[i + b] << (8 * b);
      std::cout << fmt::format("{:08X}{}", word, (i / 4) % 8 == 7 ? "\n" : " ");
    }
    std::cout << '\n';
  }
}

}  // namespace

void register_isa_commands(CLI::App &app, CliContext &context) {
  auto *codeobj = app.add_subcommand("codeobj", "Show a code object's target, kernels and quirks");
  auto codeobj_args = std::make_shared<CodeObjectArgs>();
  codeobj_args->add_to(*codeobj);
  add_json_flag(*codeobj, context);
  codeobj->callback([codeobj_args, &context] { run_codeobj(*codeobj_args, context); });

  auto *disasm = app.add_subcommand("disasm", "Disassemble a code object's .text with LLVM MC");
  auto disasm_args = std::make_shared<CodeObjectArgs>();
  disasm_args->add_to(*disasm);
  auto disasm_kernel = std::make_shared<std::string>();
  auto no_collapse = std::make_shared<bool>(false);
  disasm->add_option("--kernel", *disasm_kernel, "Only this kernel's code");
  disasm->add_flag("--no-collapse", *no_collapse, "List every s_code_end padding instruction");
  add_json_flag(*disasm, context);
  disasm->callback(
      [=, &context] { run_disasm(*disasm_args, *disasm_kernel, *no_collapse, context); });

  auto *cfg = app.add_subcommand("cfg", "Control-flow graph of each kernel (or one)");
  auto cfg_args = std::make_shared<CodeObjectArgs>();
  cfg_args->add_to(*cfg);
  auto cfg_kernel = std::make_shared<std::string>();
  auto dot = std::make_shared<bool>(false);
  cfg->add_option("--kernel", *cfg_kernel, "Only this kernel");
  cfg->add_flag("--dot", *dot, "Print Graphviz DOT");
  add_json_flag(*cfg, context);
  cfg->callback([=, &context] { run_cfg(*cfg_args, *cfg_kernel, *dot, context); });

  auto *asm_cmd = app.add_subcommand("asm", "Assemble AMDGPU assembly text into machine code");
  auto asm_file = std::make_shared<std::string>();
  auto asm_target = std::make_shared<std::string>();
  auto asm_output = std::make_shared<std::string>();
  asm_cmd->add_option("FILE", *asm_file, "Assembly source")->required();
  asm_cmd->add_option("--target", *asm_target, "Processor, e.g. gfx1100")->required();
  asm_cmd->add_option("-o,--output", *asm_output, "Write the raw code bytes here");
  add_json_flag(*asm_cmd, context);
  asm_cmd->callback([=, &context] { run_asm(*asm_file, *asm_target, *asm_output, context); });
}

}  // namespace wavectl
