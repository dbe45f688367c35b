// wavectl compile: a kernel (a built-in example or a kernel JSON file) lowered for a target.
//
//   wavectl compile matmul --target c --emit c            the C source
//   wavectl compile softmax --emit ast -o softmax.json      the kernel AST as JSON
//   wavectl compile conv2d --target c --trace t.json        every lowering pass, for the browser
//   wavectl compile matmul --target cpu --emit llvm         the LLVM IR for the host CPU
//   wavectl compile matmul --target gfx1100 --emit elf -o m   one code object per kernel in m/

#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands/compiler/compiler_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/render/llvm_ir.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavectl {
namespace {

using namespace wavescope::compiler;
using wavescope::Error;
using wavescope::ErrorKind;

struct CompileArgs {
  std::string source, kernel, target = "c", emit, output, trace;
};

void write_text(const std::filesystem::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw Error(ErrorKind::BadInput, fmt::format("{}: cannot write", path.string()));
}

// What a target emits when --emit is not given, and what it can emit.
std::string default_emit(const std::string &target) {
  return target == "c" ? "c" : target == "cpu" ? "llvm" : "asm";
}

void check_emit(const CompileArgs &args) {
  if (args.emit == "c" && args.target != "c")
    throw Error(ErrorKind::Usage, fmt::format("--emit c needs --target c (not {})", args.target));
  if (args.emit == "llvm" && args.target == "c")
    throw Error(ErrorKind::Usage, "--emit llvm needs --target cpu or a GPU target");
  const bool gpu = codegen::is_amdgpu_target(args.target);
  if ((args.emit == "asm" || args.emit == "elf") && !gpu)
    throw Error(ErrorKind::Usage, fmt::format("--emit {} needs a GPU target (gfx1100, gfx1201 or "
                                              "gfx950), not {}",
                                              args.emit, args.target));
  if (args.emit == "elf" && args.output.empty())
    throw Error(ErrorKind::Usage, "--emit elf writes a binary code object: give -o FILE or FOLDER");
}

void compile(CompileArgs args, const CliContext &context) {
  if (args.emit.empty()) args.emit = default_emit(args.target);
  check_emit(args);
  const auto kernels = kernel::load_kernels(args.source, args.kernel);
  rewrite::RewriteTrace trace;
  std::vector<std::pair<std::string, std::string>> outputs;  // name, text
  {
    rewrite::TraceSession session(trace);
    for (const auto &k : kernels) {
      const std::string name = kernel::kernel_name(k);
      rewrite::TraceGroup group(name);
      std::string text;
      if (args.emit == "ast") {
        text = kernel::kernel_to_json(k) + "\n";
        if (!args.trace.empty()) render::lower_kernel(k);
      } else if (args.emit == "text") {
        text = kernel::kernel_to_text(k);
      } else if (codegen::is_amdgpu_target(args.target) && args.emit == "llvm") {
        text = codegen::render_amdgpu(k, args.target).llvm_ir;
      } else if (args.emit == "asm" || args.emit == "elf") {
        const auto compiled = codegen::compile_amdgpu(k, args.target, args.emit == "asm");
        text = args.emit == "asm"
                   ? compiled.assembly
                   : std::string(compiled.code_object.begin(), compiled.code_object.end());
      } else if (args.emit == "llvm") {
        text = render::llvm_ir_for_cpu(k);
      } else {
        text = render::render_c(render::lower_for_c(k));
      }
      outputs.emplace_back(name, std::move(text));
    }
  }
  if (!args.trace.empty()) trace.write_json(args.trace);
  const std::string ext = args.emit == "ast"    ? "json"
                          : args.emit == "text" ? "txt"
                          : args.emit == "llvm" ? "ll"
                          : args.emit == "asm"  ? "s"
                          : args.emit == "elf"  ? "hsaco"
                                                : "c";
  if (!args.output.empty() && outputs.size() > 1) {
    std::filesystem::create_directories(args.output);
    for (std::size_t i = 0; i < outputs.size(); ++i)
      write_text(std::filesystem::path(args.output) /
                     fmt::format("{}_{}.{}", i, render::c_identifier(outputs[i].first), ext),
                 outputs[i].second);
  } else if (!args.output.empty()) {
    write_text(args.output, outputs[0].second);
  } else if (!context.json) {
    for (const auto &[name, text] : outputs) std::cout << text;
  }
  if (context.json)
    for (std::size_t i = 0; i < outputs.size(); ++i) {
      nlohmann::ordered_json j;
      j["kernel"] = outputs[i].first;
      j["target"] = args.target;
      j["emit"] = args.emit;
      j["bytes"] = outputs[i].second.size();
      if (args.output.empty()) j["text"] = outputs[i].second;
      print_ordered_json_line(j);
    }
}

}  // namespace

void register_compile_command(CLI::App &app, CliContext &context) {
  auto args = std::make_shared<CompileArgs>();
  auto *cmd = app.add_subcommand("compile", "Lower a kernel AST for a target and print the result");
  cmd->footer("SOURCE: a kernel JSON file, a tinygrad rewrites.pkl or a built-in example "
              "(elementwise, reduce, matmul, "
              "softmax, layernorm, conv2d).\nExamples:\n  wavectl compile matmul --target c\n"
              "  wavectl compile softmax --emit ast -o softmax.json\n"
              "  wavectl compile conv2d --trace trace.json\n"
              "  wavectl compile matmul --target cpu --emit llvm\n"
              "  wavectl compile softmax --target gfx1100 --emit elf -o softmax.hsaco");
  cmd->add_option("SOURCE", args->source, "A kernel JSON file or a built-in example")->required();
  cmd->add_option("--kernel", args->kernel, "Only the kernel of this name");
  cmd->add_option("--target", args->target,
                  "Target: c (C11 for the system compiler), cpu (LLVM IR for the host CPU), "
                  "or an AMD GPU: gfx1100, gfx1201, gfx950 (code objects by LLVM + lld)")
      ->check(CLI::IsMember({"c", "cpu", "gfx1100", "gfx1201", "gfx950"}));
  cmd->add_option("--emit", args->emit,
                  "What to emit: ast (JSON), text, c (target c), llvm (cpu or GPU), asm or elf "
                  "(GPU; elf needs -o); default the target's source (c, llvm, asm)")
      ->check(CLI::IsMember({"ast", "text", "c", "llvm", "asm", "elf"}));
  cmd->add_option("-o,--output", args->output,
                  "Write here (a folder with one <index>_<name> file per kernel when several)");
  cmd->add_option("--trace", args->trace, "Write the rewrite trace of the lowering as JSON here");
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { compile(*args, context); });
}

}  // namespace wavectl
