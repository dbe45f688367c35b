// The "linearize/render" rewrite of a kernel's PROGRAM (program.hpp).

#include "wavescope/compiler/lower/program.hpp"

#include <fmt/format.h>

#include "wavescope/compiler/rewrite/graph_rewrite.hpp"
#include "wavescope/compiler/rewrite/pattern_matcher.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

namespace wavescope::compiler::lower {
namespace {

using namespace rewrite;

struct ProgramContext {
  const LoweredKernel &kernel;
  const ProgramParts &parts;
};

UOp with_one_more(const UOp &program, UOp part) {
  std::vector<UOp> src = program.src();
  src.push_back(std::move(part));
  return program.with_src(std::move(src));
}

const PatternMatcher &to_program_rules() {
  // Pre-order on the PROGRAM alone: each rule adds the next part; once complete the walk stops
  // there, so the kernel's graph under it is not visited.
  static const PatternMatcher pm(
      "to program",
      {
          rule("PROGRAM(SINK) -> PROGRAM(SINK, LINEAR): the linearized list",
               pat(Op::PROGRAM, {pat_any_src(Op::SINK)}).named("p"),
               [](const Match &m) {
                 const auto &ctx = m.context<ProgramContext>();
                 return with_one_more(m["p"],
                                      UOp::make(Op::LINEAR, dtypes::void_, ctx.kernel.program));
               }),
          rule("PROGRAM(SINK, LINEAR) -> PROGRAM(SINK, LINEAR, SOURCE): the rendered program",
               pat(Op::PROGRAM, {pat_any_src(Op::SINK), pat_any_src(Op::LINEAR)}).named("p"),
               [](const Match &m) {
                 const auto &ctx = m.context<ProgramContext>();
                 return with_one_more(
                     m["p"], UOp::make(Op::SOURCE, dtypes::void_, {}, Arg{ctx.parts.source}));
               }),
          rule("PROGRAM(SINK, LINEAR, SOURCE) -> PROGRAM(.., BINARY): the compiled code object",
               pat(Op::PROGRAM,
                   {pat_any_src(Op::SINK), pat_any_src(Op::LINEAR), pat_any_src(Op::SOURCE)})
                   .named("p"),
               [](const Match &m) -> UOp {
                 const auto &binary = m.context<ProgramContext>().parts.binary;
                 if (binary.empty()) throw StopDescent{};
                 ForeignArg bytes{"bytes", std::string(binary.begin(), binary.end())};
                 return with_one_more(
                     m["p"], UOp::make(Op::BINARY, dtypes::void_, {}, Arg{std::move(bytes)}));
               }),
          rule("PROGRAM complete: stop", pat_any_src(Op::PROGRAM),
               [](const Match &) -> UOp { throw StopDescent{}; }),
      });
  return pm;
}

std::string program_title(const LoweredKernel &k, const std::string &target) {
  std::string title = fmt::format("{} for {}", k.name, target);
  const Launch &l = k.launch;
  if (l.workgroups != Launch{}.workgroups || l.local != Launch{}.local)
    title += fmt::format(", {}x{}x{} workgroups of {}x{}x{}", l.workgroups[0], l.workgroups[1],
                         l.workgroups[2], l.local[0], l.local[1], l.local[2]);
  return title;
}

}  // namespace

UOp record_program(const LoweredKernel &kernel, const ProgramParts &parts) {
  // The kernel's group takes the name the optimizer gave it (its axes after the opts), as VIZ
  // lists a kernel by its final name.
  if (RewriteTrace *trace = active_trace()) trace->rename_open_group(kernel.name);
  const UOp program = UOp::make(Op::PROGRAM, dtypes::void_, {kernel.sink},
                                Arg{program_title(kernel, parts.target)});
  ProgramContext ctx{kernel, parts};
  RewriteOptions options;
  options.name = "linearize/render";
  options.pre_order = true;
  options.context = ctx;
  return graph_rewrite(program, to_program_rules(), options);
}

}  // namespace wavescope::compiler::lower
