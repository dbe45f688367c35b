// wavectl run --save's bundle (codegen/run_bundle.hpp), read back independently: every built-in
// example's kernels saved, the raw files have the manifest's sizes, the interpreter run on the
// saved inputs reproduces the saved CPU outputs within tolerance, and each code object's kernel,
// symbol, kernarg layout and segments are what the manifest says. (tests/gpu_emu runs the code
// objects themselves on the saved inputs.)

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "temp_dir.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/codegen/run_bundle.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

using namespace wavescope::compiler;

namespace {

// A raw float32 file as doubles (the built-in examples are float32 throughout).
std::vector<double> read_floats(const std::filesystem::path &file) {
  const auto bytes = wavescope::read_file_bytes(file);
  std::vector<double> out(bytes.size() / sizeof(float));
  for (std::size_t i = 0; i < out.size(); ++i) {
    float v;
    std::memcpy(&v, bytes.data() + i * sizeof(float), sizeof v);
    out[i] = v;
  }
  return out;
}

}  // namespace

TEST_CASE("a saved run reads back: sizes, the interpreter on its inputs, its code objects") {
  wavescope::testing::TempDir dir;
  std::size_t kernels = 0, args_checked = 0;
  for (const auto &example : kernel::builtin_example_names())
    for (const auto &k : kernel::builtin_example(example)) {
      const auto name = kernel::kernel_name(k);
      INFO(example << " " << name);
      codegen::RunBundle bundle;
      bundle.cpu_target = "c";
      bundle.seed = 11;
      bundle.inputs = kernel::make_buffers(kernel::kernel_params(k), bundle.seed);
      bundle.outputs = bundle.inputs;
      codegen::compile_for_host(k, "c")(bundle.outputs);
      const auto folder = dir.path / name;
      const auto files = codegen::save_run(folder, k, bundle);
      REQUIRE(files.back() == folder / "manifest.json");

      std::ifstream in(folder / "manifest.json");
      const auto manifest = nlohmann::json::parse(in);
      CHECK(manifest["format"] == "wavescope-run/1");
      CHECK(manifest["kernel"] == name);
      CHECK(manifest["seed"] == 11);
      const auto params = kernel::kernel_params(k);
      const auto &args = manifest["args"];
      REQUIRE(args.size() == params.size());
      std::vector<kernel::HostBuffer> replay;
      for (std::size_t i = 0; i < params.size(); ++i) {
        const auto &a = args[i];
        CHECK(a["dtype"] == "float");
        CHECK(a["elements"] == params[i].size);
        CHECK(a["written"] == params[i].written);
        CHECK(a["kernarg_offset"] == 8 * i);
        const auto input = folder / a["input"].get<std::string>();
        CHECK(std::filesystem::file_size(input) == a["bytes"].get<std::uint64_t>());
        CHECK(a["bytes"] == 4 * params[i].size);
        replay.push_back({params[i].dtype, read_floats(input)});
        CHECK(a["output"].is_null() == !params[i].written);
      }
      // The interpreter, on the inputs as saved, computes what the CPU saved.
      kernel::interpret(k, replay);
      std::vector<kernel::HostBuffer> saved = replay;
      for (std::size_t i = 0; i < params.size(); ++i)
        if (params[i].written) {
          saved[i].data = read_floats(folder / args[i]["output"].get<std::string>());
          ++args_checked;
        }
      CHECK(kernel::compare_outputs(params, saved, replay).ok);

      for (const auto &processor : codegen::amdgpu_targets()) {
        INFO(processor);
        const auto &t = manifest["targets"][processor];
        const auto code = isa::CodeObject::load(folder / t["code_object"].get<std::string>());
        CHECK(code.target().processor == processor);
        REQUIRE(code.kernels().size() == 1);
        CHECK(code.kernels()[0].name == t["symbol"]);
        CHECK(t["kernarg_bytes"] == code.kernels()[0].descriptor.kernarg_size);
        CHECK(t["kernarg_bytes"].get<std::size_t>() >= 8 * params.size());
        // The launch facts from the metadata note agree with the descriptor.
        CHECK(t["descriptor"] == t["symbol"].get<std::string>() + ".kd");
        REQUIRE(t["kernarg_offsets"].size() == params.size());
        for (std::size_t i = 0; i < params.size(); ++i) CHECK(t["kernarg_offsets"][i] == 8 * i);
        CHECK(t["hidden_args"].is_array());
        const auto &desc = code.kernels()[0].descriptor;
        CHECK(t["group_segment_bytes"] == desc.group_segment_fixed_size);
        CHECK(t["private_segment_bytes"] == desc.private_segment_fixed_size);
        CHECK(t["wavefront_size"] == desc.wave_size);
        const auto launch = codegen::render_amdgpu(k, processor).launch;
        for (int d = 0; d < 3; ++d) {
          CHECK(t["workgroups"][d] == launch.workgroups[d]);
          CHECK(t["workgroup_size"][d] == launch.local[d]);
        }
      }
      ++kernels;
    }
  CHECK(kernels == 8);
  CHECK(args_checked >= kernels);
}
