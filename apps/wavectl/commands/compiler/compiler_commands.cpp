// wavectl's compiler subcommands: simplify, rewrite-trace, compile, run.

#include "commands/compiler/compiler_commands.hpp"

#include <optional>

#include "commands/registry.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/opt/opt.hpp"

namespace wavectl {

void register_compiler_commands(CLI::App &app, CliContext &context) {
  register_simplify_command(app, context);
  register_rewrite_trace_command(app, context);
  register_compile_command(app, context);
  register_run_command(app, context);
}

void add_kernel_source_options(CLI::App &command, std::string &source, std::string &kernel,
                               const std::string &examples) {
  command.footer("SOURCE: a kernel JSON file, a tinygrad rewrites.pkl or a built-in example "
                 "(elementwise, reduce, matmul, softmax, layernorm, conv2d).\nExamples:\n" +
                 examples);
  command.add_option("SOURCE", source, "A kernel JSON file or a built-in example")->required();
  command.add_option("--kernel", kernel, "Only the kernel of this name");
}

void add_opt_options(CLI::App &command, OptFlags &flags) {
  auto *opts = command.add_option(
      "--opts", flags.opts,
      "Apply these optimizations instead of the heuristic: a comma-separated list of "
      "OP[:AXIS[:ARG[:TYPE[:top]]]] with OP one of SPLIT, UPCAST, UNROLL, LOCAL, GROUP, GROUPTOP, "
      "THREAD, PADTO, SWAP, NOLOCALS; e.g. UPCAST:0:4,UNROLL:0:4 or SPLIT:1:4:UNROLL "
      "(docs/compiler.md, Optimizations)");
  auto *heuristic = command.add_flag(
      "--heuristic", flags.heuristic,
      "Optimize with tinygrad's hand-coded heuristic (the default, unless the kernel file names "
      "its opts)");
  auto *noopt = command.add_flag("--noopt", flags.noopt, "Do not optimize: plain loop nests");
  opts->excludes(heuristic)->excludes(noopt);
  heuristic->excludes(noopt);
}

std::vector<wavescope::compiler::UOp> with_opt_flags(std::vector<wavescope::compiler::UOp> kernels,
                                                     const OptFlags &flags) {
  namespace opt = wavescope::compiler::opt;
  std::optional<opt::OptChoice> choice;
  if (flags.noopt) choice = opt::OptChoice::none();
  if (flags.heuristic) choice = opt::OptChoice::heuristic();
  if (!flags.opts.empty()) choice = opt::OptChoice::list(opt::parse_opt_list(flags.opts));
  if (choice)
    for (auto &k : kernels) k = opt::with_opt_choice(k, *choice);
  return kernels;
}

}  // namespace wavectl
