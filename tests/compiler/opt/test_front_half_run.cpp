// The front half of the lowering on every kernel we have (the built-in examples and tinygrad's
// own kernels of the tinygrad-viz workloads): without opts, with the heuristic and with explicit
// opt lists, for the host targets (C and LLVM) computing what the reference interpreter computes
// on the unoptimized AST, for the GPU targets compiling into code objects that disassemble; and
// the GPU targets' optimizations (LOCAL, GROUP) run on the CPU with their ranges as loops.

#include <string>
#include <unordered_set>
#include <vector>

#include <catch2/catch.hpp>

#include "opt_cases.hpp"
#include "testdata.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/lowering.hpp"
#include "wavescope/compiler/lower/target.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"
#include "wavescope/compiler/opt/target.hpp"
#include "wavescope/compiler/render/c_backend.hpp"
#include "wavescope/compiler/render/lowering.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::opt;

namespace {

struct Choice {
  std::string label;
  OptChoice choice;
};

std::vector<Choice> choices(const UOp &k, const Target &t) {
  std::vector<Choice> out{{"--noopt", OptChoice::none()}, {"--heuristic", OptChoice::heuristic()}};
  for (const auto &list : opt_cases::explicit_lists(k, t))
    out.push_back({"--opts " + to_string(list), OptChoice::list(list)});
  return out;
}

void check_host(const std::string &target) {
  bool corpus = false;
  const auto cases = opt_cases::all_kernels(&corpus);
  if (!corpus && wavescope::testing::running_in_ci()) FAIL("the tinygrad-viz corpus is missing");
  std::size_t runs = 0, lists = 0;
  for (const auto &c : cases)
    for (const auto &ch : choices(c.kernel, opt::target(target))) {
      INFO(c.label << " " << target << " " << ch.label);
      const UOp k = with_opt_choice(c.kernel, ch.choice);
      const auto compiled = codegen::compile_for_host(k, target);
      const auto cmp = kernel::check_with_interpreter(c.kernel, 3, compiled);
      CHECK(cmp.ok);
      CHECK(cmp.mismatches == 0);
      ++runs;
      lists += ch.choice.mode == OptChoice::Mode::List;
    }
  CHECK(cases.size() == (corpus ? 8u + 13u : 8u));
  CHECK(runs >= 2 * cases.size() + lists);
  CHECK(lists >= cases.size());  // every kernel has at least one explicit list
}

}  // namespace

TEST_CASE("front half: every kernel runs on c as the interpreter says, with and without opts",
          "[compiler][opt][c]") {
  check_host("c");
}

TEST_CASE("front half: every kernel runs on cpu as the interpreter says, with and without opts",
          "[compiler][opt][llvm]") {
  check_host("cpu");
}

TEST_CASE("front half: a GPU target's opts (LOCAL, GROUP) run on the CPU with their ranges as "
          "loops",
          "[compiler][opt][c]") {
  // gfx1100's front half without its launch grid: LOCAL and GROUP_REDUCE ranges stay loops,
  // the LOCAL buffer an array, the barrier a no-op. The results must not change.
  Target t = opt::target("gfx1100");
  t.gpu = false;
  std::size_t runs = 0, grouped = 0;
  for (const auto &c : opt_cases::all_kernels())
    for (const auto &ch : choices(c.kernel, t)) {
      INFO(c.label << " gfx1100 as loops " << ch.label);
      const UOp k = with_opt_choice(c.kernel, ch.choice);
      const auto lowered = render::lower_kernel(k, t);
      grouped += graph_has_op(lowered.sink, Op::BARRIER);
      const auto compiled =
          render::CKernel::compile(render::render_c(lowered), lowered.buffers, lowered.scalars);
      const auto cmp = kernel::check_with_interpreter(
          c.kernel, 5, [&](std::vector<kernel::HostBuffer> &b) { compiled.run(b); });
      CHECK(cmp.ok);
      ++runs;
    }
  CHECK(runs > 0);
  CHECK(grouped >= 4);  // GROUPTOP (heuristic and explicit) on the reduce kernels
}

TEST_CASE("front half: every kernel compiles for every GPU target, with and without opts",
          "[compiler][opt][amdgpu]") {
  std::size_t objects = 0;
  const auto cases = opt_cases::all_kernels();
  for (const auto &gpu : codegen::amdgpu_targets())
    for (const auto &c : cases)
      for (const auto &ch : choices(c.kernel, opt::target(gpu))) {
        INFO(c.label << " " << gpu << " " << ch.label);
        const auto compiled = codegen::compile_amdgpu(with_opt_choice(c.kernel, ch.choice), gpu);
        const auto code = isa::CodeObject::from_bytes(compiled.code_object, {}, compiled.name);
        REQUIRE(code.kernels().size() == 1);
        const auto insts = isa::disassemble_kernel(code, code.kernels()[0]);
        REQUIRE(!insts.empty());
        CHECK(insts.back().mnemonic == "s_endpgm");
        CHECK(compiled.launch.local_items() <= 1024);
        ++objects;
      }
  CHECK(objects >= 3 * 3 * cases.size());
}

TEST_CASE("lowering: the program holds every SPECIAL of the lowered graph and the launch read "
          "from it is the graph's",
          "[compiler][opt][lower]") {
  // lower() reads the launch off the linearized program instead of walking the graph again.
  bool corpus = false;
  const auto cases = opt_cases::all_kernels(&corpus);
  if (!corpus && wavescope::testing::running_in_ci()) FAIL("the tinygrad-viz corpus is missing");
  std::size_t checked = 0, with_gpu_dims = 0;
  for (const auto &c : cases)
    for (const char *t : {"c", "gfx1100"}) {
      INFO(c.label << " " << t);
      const auto k = lower::lower(c.kernel, lower::render_target(t));
      std::unordered_set<const UOpNode *> listed;
      for (const UOp &u : k.program) listed.insert(u.get());
      for (const UOp &u : toposort(k.sink))
        if (u.op() == Op::SPECIAL) CHECK(listed.count(u.get()) == 1);
      const auto expected = lower::launch_of(k.sink);
      CHECK(k.launch.workgroups == expected.workgroups);
      CHECK(k.launch.local == expected.local);
      with_gpu_dims += k.launch.total_items() > 1;
      ++checked;
    }
  CHECK(checked == 2 * cases.size());
  CHECK(cases.size() == (corpus ? 8u + 13u : 8u));
  CHECK(with_gpu_dims > 0);  // the GPU launches do name workgroups
}
