// wavectl's compiler subcommands: simplify, rewrite-trace, compile, run.

#include "commands/compiler/compiler_commands.hpp"
#include "commands/registry.hpp"

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

}  // namespace wavectl
