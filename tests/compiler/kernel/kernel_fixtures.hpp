#pragma once
// Test kernels kept as files and built by hand, shared by the compiler's kernel tests.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/lower/linearize.hpp"
#include "wavescope/compiler/lower/lowering.hpp"

namespace wavescope::compiler::testing {

// The kernel JSON files of `dir` (tests/compiler/data/kernels/...), by file name, sorted.
inline std::vector<std::pair<std::string, UOp>> kernel_fixtures(const std::filesystem::path &dir) {
  std::vector<std::pair<std::string, UOp>> out;
  for (const auto &e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    out.emplace_back(e.path().filename().string(),
                     kernel::kernel_from_json(text.str(), e.path().string()));
  }
  std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  return out;
}

// out[i] = float(bfloat16(in[i])), linearized without the lowering: bfloat16 casts a renderer
// must refuse (the lowering emulates them).
inline lower::LoweredKernel unlowered_bfloat16_casts() {
  kernel::KernelBuilder b("bf16");
  auto o = b.buffer(dtypes::float32, 4), x = b.buffer(dtypes::float32, 4);
  auto r = b.range(4);
  b.store(o, r, cast(cast(b.read(x, r), dtypes::bfloat16), dtypes::float32), {r});
  lower::LoweredKernel raw;
  raw.name = "raw";
  raw.program = lower::linearize(b.finish());
  return raw;
}

}  // namespace wavescope::compiler::testing
