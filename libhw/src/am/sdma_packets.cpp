#include "wavescope/hw/am/sdma_packets.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::am {

namespace {
std::uint32_t lo32(std::uint64_t v) { return static_cast<std::uint32_t>(v); }
std::uint32_t hi32(std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); }
std::uint32_t header(unsigned op, unsigned sub_op = 0) { return op | sub_op << 8; }
std::uint64_t va_at(std::span<const std::uint32_t> d, std::size_t i) {
  return std::uint64_t{d[i]} | std::uint64_t{d[i + 1]} << 32;
}

std::string describe(std::span<const std::uint32_t> d) {
  switch (d[0] & 0xFF) {
  case sdma::kOpNop: return fmt::format("{} dwords", d.size());
  case sdma::kOpCopy:
    return fmt::format("src={:#x} dst={:#x} bytes={:#x}", va_at(d, 3), va_at(d, 5),
                       std::uint64_t{d[1] & 0x3FFF'FFFF} + 1);
  case sdma::kOpWrite:
    return d[3] == 0 ? fmt::format("va={:#x} value={:#x}", va_at(d, 1), d[4])
                     : fmt::format("va={:#x} dwords={}", va_at(d, 1), d[3] + 1);
  case sdma::kOpIndirect:
    return fmt::format("va={:#x} size={:#x} dwords vmid={}", va_at(d, 1), d[3] & 0xFFFFF,
                       d[0] >> 16 & 0xF);
  case sdma::kOpFence:
    return fmt::format("va={:#x} value={:#x} mtype={}", va_at(d, 1), d[3], d[0] >> 16 & 7);
  case sdma::kOpTrap: return fmt::format("int_context={:#x}", d[1] & 0x0FFF'FFFF);
  case sdma::kOpPollRegmem:
    return fmt::format("{}{:#x} func={} value={:#x} mask={:#x}", (d[0] >> 31) ? "mem va=" : "reg ",
                       va_at(d, 1), d[0] >> 28 & 7, d[3], d[4]);
  case sdma::kOpTimestamp: return fmt::format("va={:#x}", va_at(d, 1));
  default: return "";
  }
}
}  // namespace

SdmaGeneration sdma_generation_for(unsigned sdma_major) {
  if (sdma_major == 4) return SdmaGeneration::Sdma4;
  if (sdma_major >= 6) return SdmaGeneration::Sdma6;
  throw Error(ErrorKind::Usage,
              fmt::format("SDMA {}.x is not driven by AM (4.x, 6.x and 7.x are)", sdma_major));
}

const char *sdma_opcode_name(unsigned opcode) {
  switch (opcode) {
  case sdma::kOpNop: return "NOP";
  case sdma::kOpCopy: return "COPY";
  case sdma::kOpWrite: return "WRITE";
  case sdma::kOpIndirect: return "INDIRECT";
  case sdma::kOpFence: return "FENCE";
  case sdma::kOpTrap: return "TRAP";
  case sdma::kOpPollRegmem: return "POLL_REGMEM";
  case sdma::kOpTimestamp: return "TIMESTAMP";
  default: return "";
  }
}

std::uint64_t sdma_max_copy_bytes(SdmaGeneration generation) {
  return generation == SdmaGeneration::Sdma4 ? 0x40'0000 : 0x4000'0000;
}

SdmaStream &SdmaStream::nop(unsigned dwords) {
  dwords_.insert(dwords_.end(), dwords, 0u);
  return *this;
}

SdmaStream &SdmaStream::copy(std::uint64_t dst_va, std::uint64_t src_va, std::uint64_t size) {
  if (size == 0) throw Error(ErrorKind::Usage, "SDMA copy: the size is 0");
  const std::uint64_t max = sdma_max_copy_bytes(generation_);
  for (std::uint64_t done = 0; done < size;) {
    const std::uint64_t step = std::min(size - done, max);
    dwords_.insert(dwords_.end(), {header(sdma::kOpCopy, sdma::kSubOpCopyLinear),
                                   static_cast<std::uint32_t>(step - 1), 0, lo32(src_va + done),
                                   hi32(src_va + done), lo32(dst_va + done), hi32(dst_va + done)});
    done += step;
  }
  return *this;
}

SdmaStream &SdmaStream::write(std::uint64_t va, std::uint64_t value, bool b64) {
  if (va % 4 != 0)
    throw Error(ErrorKind::Usage, fmt::format("SDMA write: va {:#x} is not 4-byte aligned", va));
  if (!b64 && value > 0xFFFF'FFFF)
    throw Error(ErrorKind::Usage,
                fmt::format("SDMA write: value {:#x} does not fit 32 bits (ask for 64)", value));
  dwords_.insert(dwords_.end(),
                 {header(sdma::kOpWrite), lo32(va), hi32(va), b64 ? 1u : 0u, lo32(value)});
  if (b64) dwords_.push_back(hi32(value));
  return *this;
}

SdmaStream &SdmaStream::fence(std::uint64_t va, std::uint32_t value) {
  const std::uint32_t mtype = generation_ == SdmaGeneration::Sdma4 ? 0u : 3u << 16;
  dwords_.insert(dwords_.end(), {header(sdma::kOpFence) | mtype, lo32(va), hi32(va), value});
  return *this;
}

SdmaStream &SdmaStream::trap(std::uint32_t int_context) {
  dwords_.insert(dwords_.end(), {header(sdma::kOpTrap), int_context & 0x0FFF'FFFF});
  return *this;
}

SdmaStream &SdmaStream::poll_memory(std::uint64_t va, std::uint32_t value, std::uint32_t mask,
                                    unsigned function) {
  dwords_.insert(dwords_.end(), {header(sdma::kOpPollRegmem) | (function & 7u) << 28 | 1u << 31,
                                 lo32(va), hi32(va), value, mask, 0x4u | 0xFFFu << 16});
  return *this;
}

SdmaStream &SdmaStream::timestamp(std::uint64_t va) {
  dwords_.insert(dwords_.end(),
                 {header(sdma::kOpTimestamp, sdma::kSubOpTimestampGetGlobal), lo32(va), hi32(va)});
  return *this;
}

SdmaStream &SdmaStream::indirect(std::uint64_t ib_va, std::uint32_t size_dwords,
                                 std::uint64_t ring_dword) {
  if (size_dwords == 0 || size_dwords > 0xFFFFF || ib_va % 32 != 0)
    throw Error(ErrorKind::Usage,
                fmt::format("SDMA indirect: ib va {:#x} must be 32-byte aligned and the size "
                            "{:#x} dwords in 1..0xfffff",
                            ib_va, size_dwords));
  constexpr std::size_t kPacket = 6;
  const std::uint64_t at = ring_dword + dwords_.size();
  nop(static_cast<unsigned>((8 - (at + kPacket) % 8) % 8));
  dwords_.insert(dwords_.end(),
                 {header(sdma::kOpIndirect), lo32(ib_va), hi32(ib_va), size_dwords, 0, 0});
  return *this;
}

std::size_t sdma_packet_dwords(std::span<const std::uint32_t> d) {
  if (d.empty()) return 0;
  switch (d[0] & 0xFF) {
  case sdma::kOpNop: return 1 + (d[0] >> 16 & 0x3FFF);
  case sdma::kOpCopy: return 7;
  case sdma::kOpWrite: return d.size() < 4 ? 4 : 4 + std::size_t{(d[3] & 0xFFFFF)} + 1;
  case sdma::kOpIndirect: return 6;
  case sdma::kOpFence: return 4;
  case sdma::kOpTrap: return 2;
  case sdma::kOpPollRegmem: return 6;
  case sdma::kOpTimestamp: return 3;
  default: return 0;
  }
}

std::vector<SdmaPacket> decode_sdma(std::span<const std::uint32_t> dwords) {
  std::vector<SdmaPacket> out;
  std::size_t i = 0;
  while (i < dwords.size()) {
    const auto rest = dwords.subspan(i);
    const std::size_t n = sdma_packet_dwords(rest);
    if (n == 0)
      throw Error(ErrorKind::BadInput,
                  fmt::format("SDMA stream: dword {:#x} holds {:#010x}, opcode {} is not one AM "
                              "writes",
                              i, dwords[i], dwords[i] & 0xFF));
    if (n > rest.size())
      throw Error(ErrorKind::BadInput,
                  fmt::format("SDMA stream: the {} packet at dword {:#x} (header {:#010x}) needs "
                              "{} dwords, only {} are left",
                              sdma_opcode_name(dwords[i] & 0xFF), i, dwords[i], n, rest.size()));
    SdmaPacket p;
    p.offset = i;
    p.opcode = dwords[i] & 0xFF;
    p.sub_opcode = dwords[i] >> 8 & 0xFF;
    p.name = sdma_opcode_name(p.opcode);
    p.dwords.assign(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(n));
    p.description = describe(p.dwords);
    out.push_back(std::move(p));
    i += n;
  }
  return out;
}

}  // namespace wavescope::hw::am
