// Control-flow graphs: leaders, labelled edges, back edges, indirect exits; on the corpus kernels.

#include <catch2/catch.hpp>

#include <set>

#include "testdata.hpp"
#include "wavescope/compiler/isa/assembler.hpp"
#include "wavescope/compiler/isa/cfg.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/isa/disassembler.hpp"

using namespace wavescope::compiler::isa;

namespace {
std::vector<Instruction> code(const char *source) {
  const auto gpu = parse_gpu_target("gfx1100");
  return Disassembler(gpu).disassemble(assemble(source, gpu), 0);
}
bool has_edge(const Cfg &cfg, std::size_t from, std::size_t to, EdgeKind kind) {
  return std::any_of(cfg.edges.begin(), cfg.edges.end(), [&](const CfgEdge &e) {
    return e.from == from && e.to == to && e.kind == kind;
  });
}
}  // namespace

TEST_CASE("straight-line code is one block, and trailing padding forms none") {
  const auto insts = code("s_mov_b32 s0, 1\ns_endpgm\ns_code_end\ns_code_end");
  const auto cfg = Cfg::build(insts);
  REQUIRE(cfg.blocks.size() == 1);
  CHECK(cfg.blocks[0].count == 2);
  CHECK(cfg.blocks[0].is_exit);
  CHECK(cfg.edges.empty());
}

TEST_CASE("a loop has a taken back edge and a not-taken exit") {
  const auto insts = code(R"(
    s_mov_b32 s0, 0
  loop:
    s_add_u32 s0, s0, 1
    s_cmp_lt_u32 s0, 8
    s_cbranch_scc1 loop
    s_endpgm
  )");
  const auto cfg = Cfg::build(insts);
  REQUIRE(cfg.blocks.size() == 3);
  CHECK(has_edge(cfg, 0, 1, EdgeKind::FallThrough));
  CHECK(has_edge(cfg, 1, 1, EdgeKind::Taken));
  CHECK(has_edge(cfg, 1, 2, EdgeKind::NotTaken));
  const auto back = std::find_if(cfg.edges.begin(), cfg.edges.end(),
                                 [](const CfgEdge &e) { return e.is_back_edge; });
  REQUIRE(back != cfg.edges.end());
  CHECK(back->from == 1);
  CHECK(cfg.block_of(0) == 0);
  CHECK(cfg.block_of(3) == 1);
  CHECK(cfg.block_of(99) == Cfg::npos);
}

TEST_CASE("if/else with an unconditional jump, and an indirect jump left unknown") {
  const auto insts = code(R"(
    s_cmp_eq_u32 s0, 0
    s_cbranch_scc1 else_part
    s_mov_b32 s1, 1
    s_branch join
  else_part:
    s_mov_b32 s1, 2
  join:
    s_setpc_b64 s[2:3]
    s_endpgm
  )");
  const auto cfg = Cfg::build(insts);
  REQUIRE(cfg.blocks.size() == 5);
  CHECK(has_edge(cfg, 0, 2, EdgeKind::Taken));
  CHECK(has_edge(cfg, 0, 1, EdgeKind::NotTaken));
  CHECK(has_edge(cfg, 1, 3, EdgeKind::Unconditional));
  CHECK(has_edge(cfg, 2, 3, EdgeKind::FallThrough));
  CHECK(cfg.blocks[3].indirect_exit);
  // Nothing is guessed after an indirect jump: the next block has no predecessor.
  for (const auto &e : cfg.edges) CHECK(e.from != 3);
  CHECK(cfg.blocks[4].is_exit);
}

TEST_CASE(
    "corpus kernels: empty is one block, the handwritten kernel loops, edges hit instructions") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "sqtt");
  for (const auto &p : wavescope::testing::corpus_programs()) {
    INFO(p.elf.string());
    const auto object = CodeObject::load(p.elf, {p.target, p.name});
    const auto insts = disassemble_kernel(object, object.kernels().at(0));
    const auto cfg = Cfg::build(insts);
    std::set<std::uint64_t> starts;
    for (const auto &i : insts) starts.insert(i.address);
    for (const auto &e : cfg.edges) CHECK(starts.count(cfg.blocks[e.to].start) == 1);
    CHECK(cfg.unresolved_targets.empty());
    const bool has_back_edge = std::any_of(cfg.edges.begin(), cfg.edges.end(),
                                           [](const CfgEdge &e) { return e.is_back_edge; });
    const std::string example = p.capture.filename().string();
    if (example == "empty") {
      CHECK(cfg.blocks.size() == 1);
    }
    if (example == "handwritten") CHECK(has_back_edge);
    if (example == "gemm") {
      // tinygrad fully unrolls the 32x32 gemm's reduce: one forward s_cbranch_execz, no loop.
      CHECK_FALSE(has_back_edge);
      CHECK(cfg.blocks.size() == 3);
    }
  }
}
