// A kernel's "linearize/render" rewrite (lower/program.hpp) in the trace of its compilation, and
// VIZ's view steps on it (rewrite/program_views.hpp): for c, cpu and gfx1100 the PROGRAM gains
// LINEAR, SOURCE and (for the GPU) BINARY in that order, the views show the linearized list, the
// emitted text and the code object's disassembly, and survive the trace's JSON round trip; on
// tinygrad's own traces the same views show its lists and describe its CPU objects.

#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "testdata.hpp"
#include "wavescope/compiler/codegen/emit.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/lower/program.hpp"
#include "wavescope/compiler/lower/target.hpp"
#include "wavescope/compiler/rewrite/program_views.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::rewrite;

namespace {

struct Compiled {
  RewriteTrace trace;
  std::string emitted;
};

// conv2d's kernel compiled as `wavectl compile conv2d --target T --emit E --trace` records it.
Compiled compile_traced(const std::string &target, const std::string &emit) {
  Compiled c;
  const UOp kernel = kernel::builtin_example("conv2d").at(0);
  {
    TraceSession session(c.trace);
    TraceGroup group(kernel::kernel_name(kernel));
    c.emitted = codegen::emit_kernel(kernel, target, emit);
  }
  return c;
}

std::size_t line_count(const std::string &text) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

const TraceRewrite &last_rewrite(const RewriteTrace &trace) {
  REQUIRE(trace.groups().size() == 1);
  REQUIRE_FALSE(trace.groups()[0].rewrites.empty());
  return trace.groups()[0].rewrites.back();
}

}  // namespace

TEST_CASE("compiling a kernel ends its trace group with linearize/render, as tinygrad's do") {
  const UOp kernel = kernel::builtin_example("conv2d").at(0);
  struct Case {
    std::string target, emit;
    std::size_t steps;
  };
  for (const Case &tc : {Case{"c", "c", 2}, Case{"cpu", "llvm", 2}, Case{"gfx1100", "llvm", 2},
                         Case{"gfx1100", "asm", 3}}) {
    INFO(tc.target << " --emit " << tc.emit);
    const Compiled c = compile_traced(tc.target, tc.emit);
    const TraceRewrite &rw = last_rewrite(c.trace);
    CHECK(rw.name == "linearize/render");
    CHECK(rw.mode == "pre");
    REQUIRE(rw.steps.size() == tc.steps);
    CHECK(rw.steps[0].rule.find("-> PROGRAM(SINK, LINEAR): the linearized list") !=
          std::string::npos);
    CHECK(rw.steps[1].rule.find("-> PROGRAM(SINK, LINEAR, SOURCE): the rendered program") !=
          std::string::npos);
    CHECK(rw.steps[0].rule_loc.find("program.cpp:") == 0);
    // Input PROGRAM(SINK), then each step adds one part; the graphs replay to the output.
    const auto &nodes = c.trace.nodes();
    CHECK(nodes.at(rw.input).op == Op::PROGRAM);
    CHECK(nodes.at(rw.input).src.size() == 1);
    const auto graphs = c.trace.replay(rw);
    REQUIRE(graphs.size() == tc.steps + 1);
    for (std::size_t k = 0; k < graphs.size(); ++k) CHECK(graphs[k].size() == k + 1);
    REQUIRE(rw.output);
    CHECK(graphs.back() == c.trace.rebuild(*rw.output));
    const std::vector<Op> parts{Op::SINK, Op::LINEAR, Op::SOURCE, Op::BINARY};
    for (std::size_t i = 0; i < graphs.back().size(); ++i)
      CHECK(graphs.back().src(i).op() == parts[i]);

    // The views: the list the renderers walked, the text emitted, the code object.
    const auto lowered = lower::lower(kernel, lower::render_target(tc.target));
    const auto list = program_view_text(c.trace, rw, ProgramView::UOpList);
    REQUIRE(list);
    CHECK(line_count(*list) == lowered.program.size());
    CHECK(list->find("STORE") != std::string::npos);
    CHECK(list->find("RANGE") != std::string::npos);
    const auto source = program_view_text(c.trace, rw, ProgramView::Source);
    REQUIRE(source);
    if (tc.emit != "asm") CHECK(*source == c.emitted);
    CHECK(*source == rendered_source(c.trace, rw).value());
    const auto disassembly = program_view_text(c.trace, rw, ProgramView::Disassembly);
    if (tc.emit == "asm") {
      REQUIRE(disassembly);
      CHECK(disassembly->find("VGPRs") != std::string::npos);
      CHECK(disassembly->find("(gfx1100)") != std::string::npos);
      CHECK(disassembly->find("s_endpgm") != std::string::npos);
      CHECK(source->find("amdgpu_kernel") != std::string::npos);
    } else {
      CHECK_FALSE(disassembly);
      CHECK(missing_part_text(ProgramView::Disassembly) == "No binary found");
    }
  }
}

TEST_CASE("the program's source is the target's language: C for c, LLVM IR for cpu") {
  const Compiled c = compile_traced("c", "c");
  const auto source = program_view_text(c.trace, last_rewrite(c.trace), ProgramView::Source);
  REQUIRE(source);
  CHECK(source->find("void wavescope_entry(void **args)") != std::string::npos);
  const Compiled cpu = compile_traced("cpu", "llvm");
  const auto ir = program_view_text(cpu.trace, last_rewrite(cpu.trace), ProgramView::Source);
  REQUIRE(ir);
  CHECK(ir->find("define void @") != std::string::npos);
  // The PROGRAM names the kernel and the target; a GPU program its launch.
  const auto &nodes = c.trace.nodes();
  const auto *title = std::get_if<std::string>(&nodes.at(last_rewrite(c.trace).input).arg);
  REQUIRE(title);
  CHECK(*title == "r_4_9_9_3_3_3 for c");
  const Compiled gpu = compile_traced("gfx1100", "llvm");
  const auto *gpu_title =
      std::get_if<std::string>(&gpu.trace.nodes().at(last_rewrite(gpu.trace).input).arg);
  REQUIRE(gpu_title);
  CHECK(gpu_title->find(" for gfx1100, ") != std::string::npos);
  CHECK(gpu_title->find(" workgroups of ") != std::string::npos);
}

TEST_CASE("VIZ's view steps follow our linearize/render, and survive the JSON round trip") {
  const Compiled c = compile_traced("gfx1100", "elf");
  const auto steps = context_steps(c.trace.groups()[0]);
  REQUIRE(steps.size() >= 4);
  const std::size_t n = steps.size();
  CHECK(steps[n - 4].name == "linearize/render");
  CHECK(steps[n - 4].match_count == std::optional<std::size_t>(3));
  const char *views[] = {"View UOp List", "View Source", "View Disassembly"};
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(steps[n - 3 + i].name == views[i]);
    CHECK(steps[n - 3 + i].depth == steps[n - 4].depth);
    CHECK_FALSE(steps[n - 3 + i].match_count);
    CHECK(steps[n - 3 + i].rewrite == steps[n - 4].rewrite);
  }
  // The code object's bytes go through the JSON as hex and come back equal.
  const RewriteTrace back = RewriteTrace::read_json(c.trace.to_json());
  for (ProgramView view : {ProgramView::UOpList, ProgramView::Source, ProgramView::Disassembly}) {
    const auto before = program_view_text(c.trace, last_rewrite(c.trace), view);
    const auto after = program_view_text(back, last_rewrite(back), view);
    REQUIRE(before);
    CHECK(after == before);
  }
  CHECK(program_view_text(back, last_rewrite(back), ProgramView::Disassembly)->find("s_endpgm") !=
        std::string::npos);
  // A BINARY whose hex is damaged is refused with the node's path and the character.
  std::string json = c.trace.to_json();
  const auto elf = json.find("\"7f454c46");
  REQUIRE(elf != std::string::npos);
  json.replace(elf + 1, 2, "zz");
  CHECK_THROWS_WITH(RewriteTrace::read_json(json), Catch::Contains("arg.foreign.text: not hex at "
                                                                   "character 0"));
}

TEST_CASE("a PROGRAM is made without a trace too, and refuses nothing it is given") {
  const UOp kernel = kernel::builtin_example("elementwise").at(0);
  const auto lowered = lower::lower(kernel, lower::render_target("c"));
  const UOp program = lower::record_program(lowered, {"c", "int x;", {}});
  REQUIRE(program.op() == Op::PROGRAM);
  REQUIRE(program.size() == 3);
  CHECK(program.src(0) == lowered.sink);
  CHECK(program.src(1).size() == lowered.program.size());
  CHECK(std::get<std::string>(program.src(2).arg()) == "int x;");
  CHECK(active_trace() == nullptr);
}

TEST_CASE("tinygrad's programs: the UOp list and its CPU objects described") {
  WAVESCOPE_REQUIRE_TESTDATA(pkl, "tinygrad-viz/matmul_relu_sum/rewrites.pkl");
  const RewriteTrace trace = RewriteTrace::open(pkl);
  std::size_t kernels = 0;
  for (const auto &g : trace.groups())
    for (const auto &rw : g.rewrites) {
      if (rw.name != "linearize/render") continue;
      INFO(strip_ansi(g.name));
      const auto list = program_view_text(trace, rw, ProgramView::UOpList);
      REQUIRE(list);
      CHECK(list->find("SINK") != std::string::npos);  // tinygrad's list ends with its SINK
      if (strip_ansi(g.name) == "r_32_2_64_16_4") {
        // As VIZ's /uops prints this kernel (reference/viz/06_uop_list.png): constants quoted,
        // the ranges each node is in.
        std::vector<std::string> lines;
        std::istringstream in(*list);
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        REQUIRE(lines.size() > 55);
        auto column = [&](std::size_t i) { return lines[i].substr(27, 10); };
        CHECK(lines[1].find("['64']") != std::string::npos);  // CAST of CONST 64
        CHECK(column(33) == "          ");                    // SHL: in no range
        CHECK(column(35) == "2         ");                    // RANGE 2: itself
        CHECK(column(41) == "1,2       ");
        CHECK(column(52) == "0,1,2     ");
        CHECK(column(55) == "0,1,2     ");
      }
      CHECK(list->find("STORE") != std::string::npos);
      const auto binary = program_view_text(trace, rw, ProgramView::Disassembly);
      REQUIRE(binary);
      CHECK(binary->find("x86-64 ELF object") != std::string::npos);
      ++kernels;
    }
  CHECK(kernels == 5);
}
