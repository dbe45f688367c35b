#pragma once
// amdgpu firmware file headers (am-driver.md §9.7) and the PSP SOS container (§9.2): the 32-byte
// common header, the versioned fields after it, and the SOS component descriptors. Bad input
// throws Error(BadInput) naming the byte offset and expected vs found value.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace wavescope::hw::am {

struct PspComponent {
  std::uint32_t fw_type = 0, fw_version = 0, offset_bytes = 0, size_bytes = 0;
  std::size_t file_offset = 0;  // offset_bytes + ucode_array_offset_bytes
};

struct FirmwareHeader {
  std::uint32_t size_bytes = 0, header_size_bytes = 0;
  std::uint16_t header_version_major = 0, header_version_minor = 0;
  std::uint16_t ip_version_major = 0, ip_version_minor = 0;
  std::uint32_t ucode_version = 0, ucode_size_bytes = 0, ucode_array_offset_bytes = 0, crc32 = 0;
  std::vector<std::pair<std::string, std::uint32_t>> fields;  // the versioned struct's u32s
  std::vector<PspComponent> psp_components;                   // psp v2.x only
};

// kind: "psp", "smc", "sdma", "gfx", "imu", "rlc" (see firmware_kind_of for file names).
FirmwareHeader parse_firmware_header(std::span<const std::uint8_t> bytes, const std::string &kind);
// The kind of an amdgpu firmware file name: psp_*_sos → psp, smu_* → smc, sdma_* → sdma,
// gc_*_rlc → rlc, gc_*_imu → imu, other gc_* → gfx. Throws Usage when none fits.
std::string firmware_kind_of(const std::string &file_name);

}  // namespace wavescope::hw::am
