#include "wavescope/compiler/codegen/run_bundle.hpp"

#include <span>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "render/host_buffers.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/codegen/kernel_metadata.hpp"
#include "wavescope/compiler/render/c_backend.hpp"

namespace wavescope::compiler::codegen {
namespace {

constexpr std::int64_t kPointerBytes = 8;  // a buffer argument in the kernarg segment

// What a runner needs to launch `gpu`, from its code object's own metadata note: the kernel
// descriptor's symbol, the kernarg segment's size, each buffer's offset in it (the explicit
// arguments, in kernarg order), each variable's (the by-value arguments, in the order of
// gpu.scalars) and the hidden arguments LLVM appended, which a runtime fills.
nlohmann::json launch_metadata(const AmdgpuKernel &gpu, std::size_t buffers) {
  const std::string origin = fmt::format("{} for {}", gpu.name, gpu.processor);
  const auto kernels = read_kernel_metadata(gpu.code_object, origin);
  if (kernels.size() != 1)
    throw Error(ErrorKind::Internal,
                fmt::format("{}: {} kernels in the code object, not one", origin, kernels.size()));
  const auto &m = kernels[0];
  nlohmann::json offsets = nlohmann::json::array(), hidden = nlohmann::json::array();
  nlohmann::json scalar_offsets = nlohmann::json::object();
  std::size_t scalars = 0;
  for (const auto &a : m.args) {
    if (a.value_kind == "global_buffer") {
      offsets.push_back(a.offset);
    } else if (a.value_kind == "by_value") {
      if (scalars == gpu.scalars.size())
        throw Error(ErrorKind::Internal,
                    fmt::format("{}: more by-value arguments in the code object than the kernel's "
                                "{} variables",
                                origin, gpu.scalars.size()));
      const auto &s = gpu.scalars[scalars++];
      if (a.size != byte_size(s.dtype))
        throw Error(ErrorKind::Internal,
                    fmt::format("{}: variable {} is {} bytes in the code object, {} in the kernel",
                                origin, s.name, a.size, byte_size(s.dtype)));
      scalar_offsets[s.name] = a.offset;
    } else if (a.value_kind.rfind("hidden_", 0) == 0)
      hidden.push_back({{"value_kind", a.value_kind}, {"offset", a.offset}, {"size", a.size}});
    else
      throw Error(ErrorKind::Internal,
                  fmt::format("{}: a kernel argument of kind {}", origin, a.value_kind));
  }
  if (offsets.size() != buffers)
    throw Error(ErrorKind::Internal, fmt::format("{}: {} buffer arguments in the code object, {} "
                                                 "in the kernel",
                                                 origin, offsets.size(), buffers));
  if (scalars != gpu.scalars.size())
    throw Error(ErrorKind::Internal,
                fmt::format("{}: {} by-value arguments in the code object, {} variables in the "
                            "kernel",
                            origin, scalars, gpu.scalars.size()));
  return {{"descriptor", m.symbol},
          {"kernarg_bytes", m.kernarg_segment_size},
          {"kernarg_offsets", offsets},
          {"scalar_offsets", scalar_offsets},
          {"hidden_args", hidden},
          {"group_segment_bytes", m.group_segment_fixed_size},
          {"private_segment_bytes", m.private_segment_fixed_size},
          {"wavefront_size", m.wavefront_size}};
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
  nlohmann::json scalars = nlohmann::json::array();
  nlohmann::json targets = nlohmann::json::object();
  for (const auto &processor : amdgpu_targets()) {
    const auto gpu = compile_amdgpu(kernel, processor);
    const std::string name = processor + ".hsaco";
    write(name, gpu.code_object);
    if (scalars.empty())  // (every target passes the same variables, of the same types)
      for (const auto &v : gpu.scalars) {
        auto value = bundle.variables.find(v.name);
        if (value == bundle.variables.end())
          throw Error(ErrorKind::Internal,
                      fmt::format("save_run: no value for the kernel's variable {}", v.name));
        scalars.push_back({{"name", v.name},
                           {"dtype", to_string(v.dtype)},
                           {"value", value->second},
                           {"min", static_cast<std::int64_t>(v.min)},
                           {"max", static_cast<std::int64_t>(v.max)}});
      }
    nlohmann::json target = {{"code_object", name},
                             {"symbol", gpu.symbol},
                             {"workgroups", dims(gpu.launch.workgroups)},
                             {"workgroup_size", dims(gpu.launch.local)}};
    target.update(launch_metadata(gpu, params.size()));
    targets[processor] = std::move(target);
  }
  const nlohmann::json manifest = {{"format", "wavescope-run/1"},
                                   {"kernel", kernel::kernel_name(kernel)},
                                   {"cpu_target", bundle.cpu_target},
                                   {"seed", bundle.seed},
                                   {"tolerance", {{"atol", bundle.atol}, {"rtol", bundle.rtol}}},
                                   {"args", args},
                                   {"scalars", scalars},
                                   {"targets", targets}};
  const std::string text = manifest.dump(2) + '\n';
  write("manifest.json",
        std::span(reinterpret_cast<const unsigned char *>(text.data()), text.size()));
  return written;
}

}  // namespace wavescope::compiler::codegen
