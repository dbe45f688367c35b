// The AMDGPU linker (codegen/linker.hpp) and the kernel metadata a runner launches with
// (codegen/kernel_metadata.hpp): links repeated in one process (lld keeps global state when it
// runs in process) give the same bytes, a bad input is a clear error after which linking still
// works, links from several threads all succeed, and the metadata note of every built-in
// kernel's code object gives the kernarg layout the descriptor and the kernel agree with.

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/codegen/kernel_metadata.hpp"
#include "wavescope/compiler/codegen/linker.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

using namespace wavescope::compiler;
using Catch::Matchers::Contains;

TEST_CASE("AMDGPU linker: repeated links in one process give the same code object",
          "[compiler][kernel][amdgpu]") {
  INFO(codegen::linker_description());
  const UOp reduce = kernel::builtin_example("reduce")[0];
  const UOp elementwise = kernel::builtin_example("elementwise")[0];
  const auto first = codegen::compile_amdgpu(reduce, "gfx1100").code_object;
  REQUIRE_FALSE(first.empty());
  std::size_t links = 1;
  for (int round = 0; round < 5; ++round) {
    // Another kernel and target in between: nothing of one link leaks into the next.
    CHECK_FALSE(codegen::compile_amdgpu(elementwise, "gfx950").code_object.empty());
    CHECK(codegen::compile_amdgpu(reduce, "gfx1100").code_object == first);
    links += 2;
  }
  CHECK(links == 11);
}

TEST_CASE("AMDGPU linker: a bad input is a clear error and the next link works",
          "[compiler][kernel][amdgpu]") {
  const std::vector<std::uint8_t> garbage{'n', 'o', 't', ' ', 'a', 'n', ' ', 'E', 'L', 'F'};
  try {
    codegen::link_code_object(garbage, "garbage.o");
    FAIL("linked garbage");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    CHECK_THAT(std::string(e.what()), Contains("garbage.o"));
  }
  // The linker recovered: a real kernel still links.
  const auto k = codegen::compile_amdgpu(kernel::builtin_example("softmax")[0], "gfx1201");
  CHECK(isa::CodeObject::from_bytes(k.code_object, {}, k.name).kernels().size() == 1);
}

TEST_CASE("AMDGPU linker: links from several threads all succeed", "[compiler][kernel][amdgpu]") {
  const UOp k = kernel::builtin_example("elementwise")[0];
  const auto want = codegen::compile_amdgpu(k, "gfx1100").code_object;
  constexpr int kThreads = 3, kLinks = 3;
  std::vector<int> same(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kLinks; ++i)
        same[t] += codegen::compile_amdgpu(k, "gfx1100").code_object == want;
    });
  for (auto &t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) CHECK(same[t] == kLinks);
}

TEST_CASE("AMDGPU metadata: buffers in kernarg order at the descriptor's offsets",
          "[compiler][kernel][amdgpu]") {
  std::size_t objects = 0;
  for (const auto &example : kernel::builtin_example_names())
    for (const auto &ast : kernel::builtin_example(example))
      for (const auto &processor : codegen::amdgpu_targets()) {
        const auto k = codegen::compile_amdgpu(ast, processor);
        INFO(k.name << " " << processor);
        const auto kernels = codegen::read_kernel_metadata(k.code_object, k.name);
        REQUIRE(kernels.size() == 1);
        const auto &m = kernels[0];
        CHECK(m.name == k.symbol);
        CHECK(m.symbol == k.symbol + ".kd");
        CHECK(m.wavefront_size == (processor == "gfx950" ? 64u : 32u));
        const auto params = kernel::kernel_params(ast);
        std::vector<std::uint32_t> offsets;
        for (const auto &a : m.args)
          if (a.value_kind == "global_buffer") {
            CHECK(a.size == 8);
            offsets.push_back(a.offset);
          }
        REQUIRE(offsets.size() == params.size());
        for (std::size_t i = 0; i < params.size(); ++i) {
          CHECK(offsets[i] == 8 * i);
          CHECK(m.args[i].name == params[i].name);
        }
        const auto code = isa::CodeObject::from_bytes(k.code_object, {}, k.name);
        const auto &d = code.kernels().at(0).descriptor;
        CHECK(m.kernarg_segment_size == d.kernarg_size);
        CHECK(m.group_segment_fixed_size == d.group_segment_fixed_size);
        CHECK(m.group_segment_fixed_size == k.local_bytes);
        CHECK(m.private_segment_fixed_size == d.private_segment_fixed_size);
        if (k.launch.local_items() > 1)
          for (int dim = 0; dim < 3; ++dim)
            CHECK(m.reqd_workgroup_size[dim] == k.launch.local[dim]);
        ++objects;
      }
  CHECK(objects == 8 * 3);
}

TEST_CASE("AMDGPU metadata: a file that is no code object is a clear error",
          "[compiler][kernel][amdgpu]") {
  const std::vector<std::uint8_t> garbage(64, 0x5A);
  try {
    codegen::read_kernel_metadata(garbage, "x.hsaco");
    FAIL("read metadata from garbage");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    CHECK_THAT(std::string(e.what()), Contains("x.hsaco: not an ELF64 code object"));
  }
}
