// wavectl compile: a kernel (a built-in example or a kernel JSON file) lowered for a target.
//
//   wavectl compile matmul --target c --emit c            the C source
//   wavectl compile softmax --emit ast -o softmax.json      the kernel AST as JSON
//   wavectl compile conv2d --target c --trace t.json        every lowering pass, for the browser

#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands/compiler/compiler_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavectl {
namespace {

using namespace wavescope::compiler;
using wavescope::Error;
using wavescope::ErrorKind;

struct CompileArgs {
  std::string source, kernel, target = "c", emit = "c", output, trace;
};

void write_text(const std::filesystem::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw Error(ErrorKind::BadInput, fmt::format("{}: cannot write", path.string()));
}

void compile(const CompileArgs &args, const CliContext &context) {
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
        if (!args.trace.empty()) render::lower_for_c(k);
      } else if (args.emit == "text") {
        text = kernel::kernel_to_text(k);
      } else {
        text = render::render_c(render::lower_for_c(k));
      }
      outputs.emplace_back(name, std::move(text));
    }
  }
  if (!args.trace.empty()) trace.write_json(args.trace);
  const std::string ext = args.emit == "ast" ? "json" : args.emit == "text" ? "txt" : "c";
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
              "  wavectl compile conv2d --trace trace.json");
  cmd->add_option("SOURCE", args->source, "A kernel JSON file or a built-in example")->required();
  cmd->add_option("--kernel", args->kernel, "Only the kernel of this name");
  cmd->add_option("--target", args->target, "Target (c)")->check(CLI::IsMember({"c"}));
  cmd->add_option("--emit", args->emit, "What to print: ast (JSON), text, or c")
      ->check(CLI::IsMember({"ast", "text", "c"}));
  cmd->add_option("-o,--output", args->output,
                  "Write here (a folder with one <index>_<name> file per kernel when several)");
  cmd->add_option("--trace", args->trace, "Write the rewrite trace of the lowering as JSON here");
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { compile(*args, context); });
}

}  // namespace wavectl
