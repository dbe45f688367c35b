#pragma once
// An AMDGPU processor as LLVM names it (gfx1100, gfx1201, gfx950, ...) and the facts wavescope
// derives from the name.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wavescope::compiler::isa {

enum class GpuFamily { Gcn, Cdna, Rdna1, Rdna2, Rdna3, Rdna4, Unknown };

struct GpuTarget {
  std::string processor;  // LLVM's -mcpu name, e.g. "gfx1100"
  std::string features;   // LLVM subtarget features, e.g. "+xnack,+sramecc" (may be empty)

  GpuFamily family() const;
  // The wave size a kernel runs with unless its descriptor says otherwise.
  unsigned default_wave_size() const;
  bool operator==(const GpuTarget &) const = default;
};

std::string_view to_string(GpuFamily family);

// The LLVM triple every wavescope AMDGPU target uses.
inline constexpr std::string_view kAmdgpuTriple = "amdgcn-amd-amdhsa";

// Parses "gfx1100", "gfx950:xnack+" style names; throws Error(Usage) if LLVM does not know the
// processor (LLVM itself would only warn and silently encode for another chip).
GpuTarget parse_gpu_target(std::string_view name);

// The processor named by a KFD gfx_target_version (major*10000 + minor*100 + stepping), e.g.
// 110000 -> "gfx1100", 120001 -> "gfx1201", 90500 -> "gfx950", 90010 -> "gfx90a".
std::string processor_from_gfx_target_version(unsigned version);

// The processor an AMDGPU ELF's e_flags names (EF_AMDGPU_MACH), or nullopt for none/unknown.
std::optional<std::string> processor_from_elf_flags(std::uint32_t e_flags);

// The EF_AMDGPU_MACH value for a processor, or 0 if unknown (used to repair ELFs missing it).
std::uint32_t elf_mach_for_processor(std::string_view processor);

// The version of LLVM wavescope's ISA layer uses, e.g. "22.1.8".
std::string llvm_version();

}  // namespace wavescope::compiler::isa
