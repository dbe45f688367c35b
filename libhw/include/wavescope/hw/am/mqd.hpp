#pragma once
// The compute queue's memory queue descriptor (am-driver.md §12.4): the 2048-byte MQD AM writes
// for each compute queue (v9_mqd on GC 9.x, v11_compute_mqd on GC 11, v12_compute_mqd on GC 12,
// laid out as the kernel's v9/v11/v12_structs.h), and its register image: dwords 0x80..0xB7
// mirror the 56 HQD registers CP_MQD_BASE_ADDR .. CP_HQD_PQ_WPTR_HI, which the driver copies into
// those addresses in order. Register fields are encoded with the GC register table's own field
// definitions. Pure: building the image writes nothing.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace wavescope::hw::regs {
class RegisterTable;
}

namespace wavescope::hw::am {

inline constexpr std::size_t kMqdDwords = 512;
inline constexpr unsigned kMqdRegisterImageFirst = 0x80;
inline constexpr unsigned kMqdRegisterImageDwords = 56;  // 0x80..0xB7
inline constexpr std::uint32_t kMqdHeader = 0xC031'0800;

using MqdImage = std::array<std::uint32_t, kMqdDwords>;

struct ComputeMqdParams {
  unsigned gc_major = 11;        // 9, 11 or 12: which struct
  std::uint64_t mqd_mc = 0;      // MC address of this XCC's MQD page
  std::uint64_t ring_va = 0;     // 256-byte aligned
  std::uint64_t ring_bytes = 0;  // a power of two, at least 256
  std::uint64_t rptr_va = 0, wptr_va = 0;
  std::uint64_t eop_va = 0;     // 256-byte aligned
  std::uint64_t eop_bytes = 0;  // a power of two, at least 8
  unsigned doorbell = 3;        // the slot (§12.1); the MQD holds slot x 2
  bool aql = false;
  unsigned xcc = 0, xcc_count = 1;
};

// Throws Error(Usage) for a GC major other than 9/11/12, a table of another family, sizes that are
// not powers of two or addresses that are not aligned — naming the value in hex.
MqdImage build_compute_mqd(const regs::RegisterTable &gc, const ComputeMqdParams &params);

// Dwords 0x80..0xB7: what goes into CP_MQD_BASE_ADDR + i.
inline std::span<const std::uint32_t, kMqdRegisterImageDwords>
mqd_register_image(const MqdImage &mqd) {
  return std::span<const std::uint32_t, kMqdRegisterImageDwords>(
      mqd.data() + kMqdRegisterImageFirst, kMqdRegisterImageDwords);
}

// The struct member at `dword` ("cp_hqd_pq_control", "compute_static_thread_mgmt_se4"), or ""
// for dwords the builder never sets and that are not part of the register image.
std::string_view mqd_field_name(unsigned gc_major, unsigned dword);

}  // namespace wavescope::hw::am
