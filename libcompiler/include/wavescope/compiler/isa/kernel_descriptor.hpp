#pragma once
// The 64-byte AMDHSA kernel descriptor (the `<kernel>.kd` object of a code object), decoded.

#include <cstdint>
#include <span>
#include <string>

#include "wavescope/compiler/isa/gpu_target.hpp"

namespace wavescope::compiler::isa {

struct KernelDescriptor {
  std::uint32_t group_segment_fixed_size = 0;    // LDS bytes
  std::uint32_t private_segment_fixed_size = 0;  // scratch bytes per work-item
  std::uint32_t kernarg_size = 0;
  std::int64_t kernel_code_entry_byte_offset = 0;  // entry relative to the descriptor's address
  std::uint32_t compute_pgm_rsrc1 = 0;
  std::uint32_t compute_pgm_rsrc2 = 0;
  std::uint32_t compute_pgm_rsrc3 = 0;
  std::uint16_t kernel_code_properties = 0;
  std::uint16_t kernarg_preload = 0;

  unsigned wave_size = 64;  // 32 when ENABLE_WAVEFRONT_SIZE32 is set
  unsigned vgpr_count = 0;  // architectural VGPRs allocated (from the granulated count)
  unsigned agpr_count = 0;  // accumulation VGPRs (CDNA with unified register file), else 0
  unsigned sgpr_count = 0;  // GCN/CDNA only; RDNA allocates SGPRs implicitly (0 here)
  bool uses_dynamic_stack = false;
  unsigned user_sgpr_count = 0;
  bool enable_workgroup_id[3] = {false, false, false};
  unsigned workitem_id_dims = 1;  // how many of x/y/z work-item ids are passed in VGPRs
};

// Decodes 64 descriptor bytes for `target`; throws Error(BadInput) if fewer than 64 bytes.
KernelDescriptor decode_kernel_descriptor(std::span<const std::uint8_t> bytes,
                                          const GpuTarget &target);

}  // namespace wavescope::compiler::isa
