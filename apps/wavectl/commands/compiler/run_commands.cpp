// wavectl run: a kernel compiled for the CPU, run on random inputs, and with --check compared
// with the reference interpreter.
//
//   wavectl run matmul --target c --check          r_16_20_24  c  max abs 4.8e-07 ...  ok
//   wavectl run softmax --check --json              {"kernel":...,"max_abs_err":...,"ok":true}
//   wavectl run matmul --target cpu --check        the LLVM IR compiled in process (ORC JIT)
//   wavectl run softmax --save out/                  inputs, CPU outputs, code objects, manifest
//   wavectl run conv2d --profile runs.json          each run timed, as a Chrome trace
//   wavectl run rewrites.pkl --check --var i=4      a kernel's variable given a value

#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "commands/compiler/compiler_commands.hpp"
#include "commands/compiler/run_profile.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/codegen/run_bundle.hpp"
#include "wavescope/compiler/codegen/run_event.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"

namespace wavectl {
namespace {

using namespace wavescope::compiler;
using wavescope::Error;
using wavescope::ErrorKind;

struct RunArgs {
  std::string source, kernel, target = "c";
  std::uint64_t seed = 1;
  bool check = false;
  std::string save;     // folder: one <index>_<name> subfolder per kernel (codegen/run_bundle.hpp)
  std::string profile;  // Chrome trace JSON of the timed runs
  std::vector<std::string> vars;  // NAME=VALUE
  OptFlags opt;
};

void run(const RunArgs &args, const CliContext &context) {
  const auto kernels = with_opt_flags(kernel::load_kernels(args.source, args.kernel), args.opt);
  kernel::VariableValues given;
  for (const auto &v : args.vars) {
    auto [name, value] = kernel::parse_variable_assignment(v);
    bool known = false;
    for (const auto &k : kernels)
      for (const auto &kv : kernel::kernel_variables(k)) known |= kv.name == name;
    if (!known)
      throw Error(ErrorKind::Usage, fmt::format("--var {}: no kernel of {} has a variable '{}'", v,
                                                args.source, name));
    given[name] = value;
  }
  // Every kernel's values first, so that a value out of bounds fails before anything runs.
  std::vector<kernel::VariableValues> bound;
  for (const auto &k : kernels) {
    try {
      bound.push_back(kernel::bind_variables(k, given));
    } catch (const Error &e) {
      throw Error(e.kind(), fmt::format("kernel {}: {}", kernel::kernel_name(k), e.what()));
    }
  }
  std::size_t failed = 0;
  std::vector<codegen::RunEvent> runs;
  for (const auto &k : kernels) {
    kernel::RunRecord r;
    r.kernel = kernel::kernel_name(k);
    r.target = args.target;
    r.variables = bound[static_cast<std::size_t>(&k - kernels.data())];
    const auto compiled = codegen::compile_for_host(k, args.target, r.variables);
    if (args.check) {
      const auto c = kernel::check_with_interpreter(k, args.seed, compiled, r.variables);
      r.checked = true;
      r.max_abs_err = c.max_abs_err;
      r.max_rel_err = c.max_rel_err;
      r.mismatches = c.mismatches;
      r.ok = c.ok;
      failed += !c.ok;
    } else if (args.save.empty() && args.profile.empty()) {
      auto buffers = kernel::make_buffers(kernel::kernel_params(k), args.seed);
      compiled(buffers);
    }
    if (!args.profile.empty()) {
      auto buffers = kernel::make_buffers(kernel::kernel_params(k), args.seed);
      runs.push_back(codegen::timed_run(compiled, buffers, k, args.target));
    }
    if (!args.save.empty()) {
      codegen::RunBundle bundle;
      bundle.cpu_target = args.target;
      bundle.seed = args.seed;
      const auto tolerance = kernel::tolerance_for(k);
      bundle.atol = tolerance.atol;
      bundle.rtol = tolerance.rtol;
      bundle.inputs = kernel::make_buffers(kernel::kernel_params(k), args.seed);
      bundle.outputs = bundle.inputs;
      bundle.variables = r.variables;
      compiled(bundle.outputs);
      const auto folder = std::filesystem::path(args.save) /
                          fmt::format("{}_{}", &k - kernels.data(), render::c_identifier(r.kernel));
      codegen::save_run(folder, k, bundle);
    }
    std::cout << (context.json ? kernel::to_json_line(r) : kernel::to_text_line(r)) << '\n';
  }
  if (!args.profile.empty())
    wavescope::trace::profile::write_chrome_trace(run_profile(runs), args.profile);
  if (failed)
    throw Error(ErrorKind::Mismatch, fmt::format("{} of {} kernels differ from the interpreter",
                                                 failed, kernels.size()));
}

}  // namespace

void register_run_command(CLI::App &app, CliContext &context) {
  auto args = std::make_shared<RunArgs>();
  auto *cmd = app.add_subcommand("run", "Compile a kernel for the CPU, run it on random inputs "
                                        "and (--check) compare with the interpreter");
  add_kernel_source_options(*cmd, args->source, args->kernel,
                            "  wavectl run matmul --check\n"
                            "  wavectl run conv2d --check --json --seed 7\n"
                            "  wavectl run softmax --target cpu --check\n"
                            "  wavectl run matmul --check --opts UPCAST:0:4,UNROLL:0:4");
  cmd->add_option("--target", args->target,
                  "Target: c (system C compiler) or cpu (LLVM, compiled in process)")
      ->check(CLI::IsMember({"c", "cpu"}));
  cmd->add_option("--seed", args->seed, "Seed of the random inputs (default 1)");
  cmd->add_flag("--check", args->check,
                "Compare with the reference interpreter; exit 7 if over tolerance");
  cmd->add_option("--save", args->save,
                  "Write each kernel's inputs, CPU outputs, AMDGPU code objects and manifest.json "
                  "into DIR/<index>_<name>/, for a GPU or an emulator to rerun");
  cmd->add_option("--profile", args->profile,
                  "Time one run of each kernel and write the runs as Chrome trace JSON (ops, "
                  "bytes, GFLOP/s and GB/s per span), for the app's timeline or Perfetto");
  cmd->add_option("--var", args->vars,
                  "Value of a kernel variable (tinygrad Variable), NAME=VALUE, checked against its "
                  "bounds; repeatable. Default: the largest value in bounds that is a multiple of "
                  "its multiple_of");
  add_opt_options(*cmd, args->opt);
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { run(*args, context); });
}

}  // namespace wavectl
