#pragma once
// The decoder's block pre-pass: for a block of the nibble stream, the size of the packet that
// would start at every nibble, and the block's bytes as seen from its second nibble.
//
// Why: a packet's start depends on the previous packet's size, a table lookup on the bytes at its
// start, so decoding is one long dependency chain (address -> load -> nibble shift -> table load
// -> add: about 18 cycles per packet when done directly). Computing every nibble's size first is
// work without a chain, which the CPU overlaps (and SIMD does 64 nibbles at once); the decoder's
// chain from one packet to the next is then one load from `sizes` and an add. The shifted copy
// lets it read the 64-bit window of a packet on an odd nibble with one load instead of a funnel
// shift of two.

#include <cstdint>

#include "wavescope/trace/sqtt/packet_types.hpp"

namespace wavescope::trace::sqtt {

struct BlockScan {
  // Packet starts per block. A block is 512 bytes of stream; its arrays live on the stack.
  static constexpr unsigned kNibbles = 1024;
  // The scan may run past `count` (to the end of its last 32-byte step); these bound it.
  static constexpr unsigned kSizesCapacity = kNibbles + 128;
  static constexpr unsigned kShiftedCapacity = kNibbles / 2 + 64;

  // sizes[i]: the size in nibbles of a packet starting at nibble i of the block.
  alignas(64) std::uint8_t sizes[kSizesCapacity];
  // shifted[k] = nibble 2k+1 | nibble 2k+2 << 4: the 9 bytes from shifted[i / 2] are the 72
  // bits from odd nibble i on.
  alignas(64) std::uint8_t shifted[kShiftedCapacity];
};

// How scan_block computes; all give identical results (tests compare them).
enum class ScanKernel : std::uint8_t {
  Portable,  // plain C++: one table lookup per nibble
  Avx2,      // x86-64 with AVX2: 64 nibbles per step, the 256-entry table split by nibble
};
// Whether this CPU (and build) can run `kernel`.
bool scan_kernel_available(ScanKernel kernel);
// The kernel scan_block uses: the fastest available, chosen once.
ScanKernel best_scan_kernel();

// Fills `out` for the nibbles [0, count) of `block` (count <= BlockScan::kNibbles): sizes[i] for
// i < count and shifted[k] for k < (count - 1) / 2 + 9, with the sizes of `family`. Reads the
// bytes [0, (count - 1) / 2 + 16) of `block`, the bytes a decoder may read for a packet starting
// at nibble count - 1.
void scan_block(Family family, const std::uint8_t *block, unsigned count, BlockScan &out);
void scan_block(ScanKernel kernel, Family family, const std::uint8_t *block, unsigned count,
                BlockScan &out);

}  // namespace wavescope::trace::sqtt
