// wavectl: command-line access to wavescope's libraries.

#include <cstdio>
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli_context.hpp"
#include "commands/registry.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/version.hpp"
#include "wavescope/compiler/isa/gpu_target.hpp"

int main(int argc, char **argv) {
  wavectl::CliContext context;
  CLI::App app{"wavectl: bring up, debug and profile AMD GPUs", "wavectl"};
  app.set_version_flag("--version", fmt::format("wavectl {} (LLVM {})", wavescope::kVersion,
                                                wavescope::compiler::isa::llvm_version()));
  app.add_flag("--json", context.json, "Print machine-readable JSON, one object per line");
  app.add_flag("-q,--quiet", context.quiet, "No progress lines on stderr");
  app.require_subcommand(1);
  app.fallthrough();

  wavectl::register_isa_commands(app, context);
  wavectl::register_trace_commands(app, context);
  wavectl::register_compiler_commands(app, context);
  wavectl::register_hw_commands(app, context);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp &e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion &e) {
    return app.exit(e);
  } catch (const CLI::ParseError &e) {
    std::fflush(stdout);
    std::cerr << "error: " << e.what() << "\n(run with --help for usage)\n";
    return static_cast<int>(wavescope::ErrorKind::Usage);
  } catch (const wavescope::Error &e) {
    std::fflush(stdout);
    std::cerr << "error: " << wavectl::error_message(e) << '\n';
    return e.exit_code();
  } catch (const std::exception &e) {
    std::fflush(stdout);
    std::cerr << "error: " << e.what() << '\n';
    return static_cast<int>(wavescope::ErrorKind::Internal);
  }
  return 0;
}
