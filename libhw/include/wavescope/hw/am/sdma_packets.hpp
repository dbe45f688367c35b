#pragma once
// SDMA packets for the copy queues AM drives (am-driver.md §12.8): the stream builder the runtime
// uses (tinygrad's AMDCopyQueue) and a decoder. Layouts from the kernel's vega10 (SDMA 4.x) and
// sdma_v6_0_0 (SDMA 6 and 7) packet headers; SDMA 5 is not driven by AM. Pure.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace wavescope::hw::am {

enum class SdmaGeneration { Sdma4, Sdma6 };  // Sdma6 also stands for SDMA 7
SdmaGeneration sdma_generation_for(unsigned sdma_major);

namespace sdma {
inline constexpr unsigned kOpNop = 0, kOpCopy = 1, kOpWrite = 2, kOpIndirect = 4, kOpFence = 5,
                          kOpTrap = 6, kOpPollRegmem = 8, kOpTimestamp = 13;
inline constexpr unsigned kSubOpCopyLinear = 0, kSubOpTimestampGetGlobal = 2;
}  // namespace sdma

const char *sdma_opcode_name(unsigned opcode);  // "" when not one of §12.8's
// The largest byte count one COPY_LINEAR moves: 1 GiB (30-bit count) on SDMA 6/7, 4 MiB on 4.x.
std::uint64_t sdma_max_copy_bytes(SdmaGeneration generation);

class SdmaStream {
public:
  explicit SdmaStream(SdmaGeneration generation) : generation_(generation) {}

  // One zero dword per NOP (header 0: op NOP, count 0).
  SdmaStream &nop(unsigned dwords = 1);
  // COPY_LINEAR packets of at most sdma_max_copy_bytes each: [hdr, count − 1, 0, src lo/hi,
  // dst lo/hi]. size > 0.
  SdmaStream &copy(std::uint64_t dst_va, std::uint64_t src_va, std::uint64_t size);
  // WRITE_LINEAR of one dword (count field 0) or of a 64-bit value (count 1).
  SdmaStream &write(std::uint64_t va, std::uint64_t value, bool b64 = false);
  // FENCE: [hdr (MTYPE 3 = UC on SDMA 6/7, 0 on 4.x), va lo/hi, value].
  SdmaStream &fence(std::uint64_t va, std::uint32_t value);
  SdmaStream &trap(std::uint32_t int_context = 0);
  // POLL_REGMEM on memory: [hdr (func, mem_poll 1), va lo/hi, value, mask, interval 4 | retry
  // 0xfff << 16].
  SdmaStream &poll_memory(std::uint64_t va, std::uint32_t value, std::uint32_t mask = 0xFFFF'FFFF,
                          unsigned function = 5);
  // TIMESTAMP (get global): [hdr, va lo/hi].
  SdmaStream &timestamp(std::uint64_t va);
  // INDIRECT: [hdr (vmid 0), ib va lo/hi, size dwords, csa 0, 0]. The packet must end on an
  // 8-dword boundary of the ring: `ring_dword` is where the stream starts in the ring (its put
  // pointer in dwords), and zero NOPs are put before the packet as needed.
  SdmaStream &indirect(std::uint64_t ib_va, std::uint32_t size_dwords,
                       std::uint64_t ring_dword = 0);

  SdmaGeneration generation() const { return generation_; }
  const std::vector<std::uint32_t> &dwords() const { return dwords_; }
  std::size_t size() const { return dwords_.size(); }

private:
  SdmaGeneration generation_;
  std::vector<std::uint32_t> dwords_;
};

struct SdmaPacket {
  std::size_t offset = 0;  // dword index of the header
  unsigned opcode = 0, sub_opcode = 0;
  std::string name;                   // sdma_opcode_name, or "OP_<n>"
  std::vector<std::uint32_t> dwords;  // header included
  std::string description;
};

// The packet length of each §12.8 opcode decides the split; any other opcode, or a packet running
// past the end, is Error(BadInput) naming the dword index and header in hex.
std::vector<SdmaPacket> decode_sdma(std::span<const std::uint32_t> dwords);
// Dwords the packet starting with `header` occupies, given the dwords that follow (WRITE reads
// its count); 0 for an opcode outside §12.8.
std::size_t sdma_packet_dwords(std::span<const std::uint32_t> from_header);

}  // namespace wavescope::hw::am
