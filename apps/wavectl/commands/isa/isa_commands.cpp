// wavectl's ISA subcommands: codeobj, disasm, cfg, asm.

#include <iostream>

#include "commands/registry.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/compiler/isa/assembler.hpp"
#include "wavescope/compiler/isa/cfg.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"
#include "wavescope/compiler/isa/isa_report.hpp"

namespace wavectl {
namespace {

using namespace wavescope::compiler::isa;

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

void run_codeobj(const CodeObjectArgs &args, const CliContext &context) {
  const auto code = args.load();
  print_report(CodeObjectReport{code}, context);
  // Code the summary cannot show as broken (an instruction cut off at the end of .text) is an
  // error all the same: the summary of what reads, then the error and exit 3.
  (void)disassemble_text(code);
}

void run_disasm(const CodeObjectArgs &args, const std::string &kernel, bool no_collapse,
                const CliContext &context) {
  const auto code = args.load();
  const auto insts = select_code(code, kernel);
  print_report(DisassemblyReport{code, insts, !no_collapse}, context);
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
    if (dot)
      std::cout << to_dot(cfg, insts, name);
    else
      print_report(CfgReport{name, cfg}, context);
  }
}

void run_asm(const std::string &file, const std::string &target, const std::string &output,
             const CliContext &context) {
  const std::string source = wavescope::read_file_text(file, "assembly");
  std::vector<std::uint8_t> bytes;
  try {
    bytes = assemble(source, parse_gpu_target(target));
  } catch (const AssemblyError &e) {
    throw wavescope::Error(wavescope::ErrorKind::BadInput, describe(e, file));
  }
  if (!output.empty())
    wavescope::write_file_atomically(output,
                                     std::span<const unsigned char>(bytes.data(), bytes.size()));
  print_report(AssemblyReport{target, bytes, output}, context);
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
