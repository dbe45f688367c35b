#include "wavescope/compiler/isa/kernel_descriptor.hpp"

#include <cstring>

#include <fmt/format.h>
#include <llvm/Support/AMDHSAKernelDescriptor.h>

#include "wavescope/base/error.hpp"

namespace wavescope::compiler::isa {
namespace {

template <typename T> T load(std::span<const std::uint8_t> bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

template <typename Mask> unsigned bits(std::uint32_t word, Mask mask, int shift) {
  return (word & static_cast<std::uint32_t>(mask)) >> shift;
}

}  // namespace

KernelDescriptor decode_kernel_descriptor(std::span<const std::uint8_t> bytes,
                                          const GpuTarget &target) {
  using namespace llvm::amdhsa;
  if (bytes.size() < sizeof(kernel_descriptor_t))
    throw_bad_input(fmt::format("kernel descriptor has {} bytes, expected {}", bytes.size(),
                                sizeof(kernel_descriptor_t)));
  KernelDescriptor kd;
  kd.group_segment_fixed_size = load<std::uint32_t>(bytes, GROUP_SEGMENT_FIXED_SIZE_OFFSET);
  kd.private_segment_fixed_size = load<std::uint32_t>(bytes, PRIVATE_SEGMENT_FIXED_SIZE_OFFSET);
  kd.kernarg_size = load<std::uint32_t>(bytes, KERNARG_SIZE_OFFSET);
  kd.kernel_code_entry_byte_offset =
      load<std::int64_t>(bytes, KERNEL_CODE_ENTRY_BYTE_OFFSET_OFFSET);
  kd.compute_pgm_rsrc3 = load<std::uint32_t>(bytes, COMPUTE_PGM_RSRC3_OFFSET);
  kd.compute_pgm_rsrc1 = load<std::uint32_t>(bytes, COMPUTE_PGM_RSRC1_OFFSET);
  kd.compute_pgm_rsrc2 = load<std::uint32_t>(bytes, COMPUTE_PGM_RSRC2_OFFSET);
  kd.kernel_code_properties = load<std::uint16_t>(bytes, KERNEL_CODE_PROPERTIES_OFFSET);
  kd.kernarg_preload = load<std::uint16_t>(bytes, KERNARG_PRELOAD_OFFSET);

  const auto family = target.family();
  const bool rdna = family == GpuFamily::Rdna1 || family == GpuFamily::Rdna2 ||
                    family == GpuFamily::Rdna3 || family == GpuFamily::Rdna4;
  const bool wave32 =
      rdna && (kd.kernel_code_properties & KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32);
  kd.wave_size = wave32 ? 32 : 64;
  kd.uses_dynamic_stack = kd.kernel_code_properties & KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK;

  const std::uint32_t rsrc1 = kd.compute_pgm_rsrc1;
  const std::uint32_t rsrc2 = kd.compute_pgm_rsrc2;
  const unsigned vgpr_blocks = bits(rsrc1, COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT,
                                    COMPUTE_PGM_RSRC1_GRANULATED_WORKITEM_VGPR_COUNT_SHIFT);
  // The encoding granule: 8 for wave32 and for the unified VGPR/AGPR file of gfx90a and later
  // CDNA parts, else 4.
  const bool unified_agprs =
      target.processor == "gfx90a" || target.processor == "gfx942" || target.processor == "gfx950";
  const unsigned vgpr_granule = (wave32 || unified_agprs) ? 8 : 4;
  const unsigned total_vgprs = (vgpr_blocks + 1) * vgpr_granule;
  if (unified_agprs) {
    const unsigned accum_offset = (bits(kd.compute_pgm_rsrc3, COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET,
                                        COMPUTE_PGM_RSRC3_GFX90A_ACCUM_OFFSET_SHIFT) +
                                   1) *
                                  4;
    kd.vgpr_count = accum_offset < total_vgprs ? accum_offset : total_vgprs;
    kd.agpr_count = total_vgprs - kd.vgpr_count;
  } else {
    kd.vgpr_count = total_vgprs;
  }
  if (!rdna) {
    const unsigned sgpr_blocks = bits(rsrc1, COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT,
                                      COMPUTE_PGM_RSRC1_GRANULATED_WAVEFRONT_SGPR_COUNT_SHIFT);
    kd.sgpr_count = (sgpr_blocks + 1) * 16;  // includes VCC, FLAT_SCRATCH and XNACK_MASK
  }
  kd.user_sgpr_count = bits(rsrc2, COMPUTE_PGM_RSRC2_GFX6_GFX120_USER_SGPR_COUNT,
                            COMPUTE_PGM_RSRC2_GFX6_GFX120_USER_SGPR_COUNT_SHIFT);
  kd.enable_workgroup_id[0] = rsrc2 & COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_X;
  kd.enable_workgroup_id[1] = rsrc2 & COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Y;
  kd.enable_workgroup_id[2] = rsrc2 & COMPUTE_PGM_RSRC2_ENABLE_SGPR_WORKGROUP_ID_Z;
  kd.workitem_id_dims = 1 + bits(rsrc2, COMPUTE_PGM_RSRC2_ENABLE_VGPR_WORKITEM_ID,
                                 COMPUTE_PGM_RSRC2_ENABLE_VGPR_WORKITEM_ID_SHIFT);
  return kd;
}

}  // namespace wavescope::compiler::isa
