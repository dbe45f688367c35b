#pragma once
// The AMDHSA metadata of a code object's kernel (the NT_AMDGPU_METADATA note, a MessagePack map
// "amdhsa.kernels"): what a runtime reads to launch the kernel. The kernarg layout comes from here
// rather than from our own idea of LLVM's calling convention: a runner fills the kernarg segment
// at the offsets the code object itself declares, hidden arguments included.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace wavescope::compiler::codegen {

// One entry of a kernel's ".args": an explicit argument ("global_buffer", "by_value") or one
// LLVM appended ("hidden_block_count_x", ...; those have no name).
struct KernargEntry {
  std::string name;
  std::string value_kind;
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
};

struct KernelMetadata {
  std::string name;    // ".name": the kernel's symbol
  std::string symbol;  // ".symbol": its descriptor's symbol (NAME.kd)
  std::vector<KernargEntry> args;
  std::uint32_t kernarg_segment_size = 0;
  std::uint32_t group_segment_fixed_size = 0;
  std::uint32_t private_segment_fixed_size = 0;
  std::uint32_t wavefront_size = 0;
  std::array<std::int64_t, 3> reqd_workgroup_size{0, 0, 0};  // 0 when the kernel has none
};

// The metadata of every kernel in `code_object` (an AMDGPU ELF). Error(BadInput) naming `origin`
// when the file is no ELF, has no AMDGPU metadata note, or the note does not read.
std::vector<KernelMetadata> read_kernel_metadata(std::span<const std::uint8_t> code_object,
                                                 const std::string &origin);

}  // namespace wavescope::compiler::codegen
