#pragma once
// Doorbells (am-driver.md §12.1): 64-bit slots in BAR2, indexed as amdgpu's NAVI10 doorbell
// assignment. AM puts every compute queue on MEC_RING0 (3) and SDMA queue n (n = pipe + 4 x queue)
// on sDMA_ENGINE0 + 0xA x n. The queue's doorbell-offset register holds the index x 2 (dword
// units); the BAR2 byte offset is the index x 8. Pure arithmetic; ringing is the queue's job.

#include <cstdint>
#include <string>

namespace wavescope::hw::am {

inline constexpr unsigned kDoorbellKiq = 0x000, kDoorbellHiq = 0x001, kDoorbellDiq = 0x002;
inline constexpr unsigned kDoorbellMecRing0 = 0x003;
inline constexpr unsigned kDoorbellSdmaEngine0 = 0x100;
inline constexpr unsigned kDoorbellIh = 0x178;
inline constexpr unsigned kDoorbellMaxAssignment = 0x190;  // VPE, the last assigned slot

// The doorbell of SDMA queue n = pipe + 4 x queue: 0x100 + 0xA x n.
unsigned sdma_doorbell_index(unsigned pipe, unsigned queue);
inline std::uint64_t doorbell_byte_offset(unsigned index) { return std::uint64_t{index} * 8; }
// What the queue's doorbell-offset register (CP_HQD_PQ_DOORBELL_CONTROL.DOORBELL_OFFSET,
// SDMA*_DOORBELL_OFFSET.OFFSET) holds: the slot in dwords.
inline std::uint32_t doorbell_register_offset(unsigned index) { return index * 2; }
// The slot a doorbell-offset register value (dwords) names.
inline unsigned doorbell_index_from_register(std::uint32_t dword_offset) {
  return dword_offset / 2;
}

// amdgpu's name for a slot ("MEC_RING0", "sDMA_ENGINE1", "USERQUEUE+5", "IH"), "" when unassigned.
std::string doorbell_name(unsigned index);

// What a queue writes to its doorbell (and its wptr memory) after `put` units: a PM4 queue the
// put pointer in dwords, an SDMA queue in bytes, an AQL queue the last packet's index (put − 1,
// packets of 64 bytes). `put_dwords` is the number of dwords written so far in every case.
enum class DoorbellQueueKind { Pm4, Sdma, Aql };
std::uint64_t doorbell_value(DoorbellQueueKind kind, std::uint64_t put_dwords);

}  // namespace wavescope::hw::am
