#include "wavescope/compiler/codegen/run_bundle.hpp"

#include <span>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/host_buffers.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/render/c_backend.hpp"

namespace wavescope::compiler::codegen {
namespace {

constexpr std::int64_t kPointerBytes = 8;  // a buffer argument in the kernarg segment

// The kernarg segment the code object's descriptor asks for: the buffers, then any hidden
// arguments LLVM appended.
std::uint32_t kernarg_bytes(const AmdgpuKernel &gpu) {
  const auto code = isa::CodeObject::from_bytes(gpu.code_object, {}, gpu.name);
  return code.kernels().at(0).descriptor.kernarg_size;
}

nlohmann::json dims(const std::array<std::int64_t, 3> &d) { return {d[0], d[1], d[2]}; }

}  // namespace

std::vector<std::filesystem::path> save_run(const std::filesystem::path &folder, const UOp &kernel,
                                            const RunBundle &bundle) {
  const auto params = kernel::kernel_params(kernel);
  if (bundle.inputs.size() != params.size() || bundle.outputs.size() != params.size())
    throw Error(ErrorKind::Internal,
                fmt::format("save_run: {} arguments, {} inputs and {} outputs", params.size(),
                            bundle.inputs.size(), bundle.outputs.size()));
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec)
    throw Error(ErrorKind::BadInput,
                fmt::format("{}: cannot create the folder: {}", folder.string(), ec.message()));

  std::vector<std::filesystem::path> written;
  const auto write = [&](const std::string &name, std::span<const unsigned char> bytes) {
    write_file_atomically(folder / name, bytes);
    written.push_back(folder / name);
  };
  const auto inputs = render::pack_buffers(params, bundle.inputs);
  const auto outputs = render::pack_buffers(params, bundle.outputs);
  nlohmann::json args = nlohmann::json::array();
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto &p = params[i];
    const std::string stem = fmt::format("arg{}_{}", i, render::c_identifier(p.name));
    // pack_buffers pads an empty buffer so that it has an address; the files hold the elements.
    const auto size = static_cast<std::size_t>(p.size) * byte_size(p.dtype);
    write(stem + ".in.bin", std::span(inputs.bytes[i]).first(size));
    nlohmann::json output = nullptr;
    if (p.written) {
      write(stem + ".out.bin", std::span(outputs.bytes[i]).first(size));
      output = stem + ".out.bin";
    }
    args.push_back({{"index", i},
                    {"slot", p.slot},
                    {"name", p.name},
                    {"dtype", to_string(p.dtype)},
                    {"elements", p.size},
                    {"bytes", size},
                    {"written", p.written},
                    {"kernarg_offset", static_cast<std::int64_t>(i) * kPointerBytes},
                    {"input", stem + ".in.bin"},
                    {"output", output}});
  }
  nlohmann::json targets = nlohmann::json::object();
  for (const auto &processor : amdgpu_targets()) {
    const auto gpu = compile_amdgpu(kernel, processor);
    const std::string name = processor + ".hsaco";
    write(name, gpu.code_object);
    targets[processor] = {{"code_object", name},
                          {"symbol", gpu.symbol},
                          {"kernarg_bytes", kernarg_bytes(gpu)},
                          {"workgroups", dims(gpu.launch.workgroups)},
                          {"workgroup_size", dims(gpu.launch.local)}};
  }
  const nlohmann::json manifest = {{"format", "wavescope-run/1"},
                                   {"kernel", kernel::kernel_name(kernel)},
                                   {"cpu_target", bundle.cpu_target},
                                   {"seed", bundle.seed},
                                   {"tolerance", {{"atol", bundle.atol}, {"rtol", bundle.rtol}}},
                                   {"args", args},
                                   {"scalars", nlohmann::json::array()},
                                   {"targets", targets}};
  const std::string text = manifest.dump(2) + '\n';
  write("manifest.json",
        std::span(reinterpret_cast<const unsigned char *>(text.data()), text.size()));
  return written;
}

}  // namespace wavescope::compiler::codegen
