// wavectl compile: a kernel (a built-in example or a kernel JSON file) lowered for a target.
//
//   wavectl compile matmul --target c --emit c            the C source
//   wavectl compile softmax --emit ast -o softmax.json      the kernel AST as JSON
//   wavectl compile conv2d --target c --trace t.json        every lowering pass, for the browser
//   wavectl compile matmul --target cpu --emit llvm         the LLVM IR for the host CPU
//   wavectl compile matmul --target gfx1100 --emit elf -o m   one code object per kernel in m/
//   wavectl compile matmul --opts UPCAST:0:4,UNROLL:0:4     explicit optimizations (--noopt: none)

#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "commands/compiler/compiler_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/codegen/emit.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavectl {
namespace {

using namespace wavescope::compiler;
using wavescope::Error;
using wavescope::ErrorKind;

struct CompileArgs {
  std::string source, kernel, target = "c", emit, output, trace;
  OptFlags opt;
};

void write_text(const std::filesystem::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw Error(ErrorKind::BadInput, fmt::format("{}: cannot write", path.string()));
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
  if (args.emit.empty()) args.emit = codegen::default_emit(args.target);
  check_emit(args);
  const auto kernels = with_opt_flags(kernel::load_kernels(args.source, args.kernel), args.opt);
  rewrite::RewriteTrace trace;
  std::vector<std::pair<std::string, std::string>> outputs;  // name, text
  {
    rewrite::TraceSession session(trace);
    for (const auto &k : kernels) {
      const std::string name = kernel::kernel_name(k);
      rewrite::TraceGroup group(name);
      std::string text = codegen::emit_kernel(k, args.target, args.emit, !args.trace.empty());
      outputs.emplace_back(name, std::move(text));
    }
  }
  if (!args.trace.empty()) trace.write_json(args.trace);
  const std::string ext = codegen::emit_extension(args.emit);
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
    for (const auto &[name, text] : outputs)
      std::cout << codegen::to_json_line({name, args.target, args.emit, text, !args.output.empty()})
                << '\n';
}

}  // namespace

void register_compile_command(CLI::App &app, CliContext &context) {
  auto args = std::make_shared<CompileArgs>();
  auto *cmd = app.add_subcommand("compile", "Lower a kernel AST for a target and print the result");
  add_kernel_source_options(*cmd, args->source, args->kernel,
                            "  wavectl compile matmul --target c\n"
                            "  wavectl compile softmax --emit ast -o softmax.json\n"
                            "  wavectl compile conv2d --trace trace.json\n"
                            "  wavectl compile matmul --target cpu --emit llvm\n"
                            "  wavectl compile matmul --opts UPCAST:0:4,UNROLL:0:4\n"
                            "  wavectl compile softmax --noopt\n"
                            "  wavectl compile softmax --target gfx1100 --emit elf -o "
                            "softmax.hsaco");
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
  add_opt_options(*cmd, args->opt);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { compile(*args, context); });
}

}  // namespace wavectl
