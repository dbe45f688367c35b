#pragma once
// The AMD GPUs whose PCI device ids .rgp files carry (ASIC_INFO.device_id), with the facts a
// writer needs that a capture does not record. PCI ids and chip names as amdgpu and Mesa list
// them; clocks, memory and caches are the boards' published figures (0 where not listed).

#include <cstdint>
#include <string>
#include <string_view>

namespace wavescope::trace::rgp {

struct KnownDevice {
  std::uint32_t pci_id;
  std::string_view processor;  // LLVM name, e.g. "gfx1100"
  std::string_view chip;       // Mesa's family name, e.g. "NAVI31" (ASIC_INFO.gpu_name)
  std::uint64_t engine_clock_mhz, memory_clock_mhz;
  std::uint32_t vram_gib, bus_width, l2_kib, mall_mib;
};

// By PCI id; nullptr for an id not listed.
const KnownDevice *known_device(std::uint32_t pci_id);
// The first listed device of a processor; nullptr for none.
const KnownDevice *known_device(std::string_view processor);

// KFD's gfx_target_version of an LLVM processor name (gfx1201 -> 120001), 0 if not a gfx name.
unsigned gfx_target_version_of(std::string_view processor);

// ASIC_INFO.gfxip_level / SQTT_DESC.sqtt_version of a processor, 0 if RGP has none for it.
std::uint32_t gfxip_level_of(std::string_view processor);
std::uint32_t sqtt_version_of(std::string_view processor);
// The processor a gfxip level stands for when nothing better is known ("gfx1100" for 11.0).
std::string processor_of_gfxip_level(std::uint32_t level);

}  // namespace wavescope::trace::rgp
