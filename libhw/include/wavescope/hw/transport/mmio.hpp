#pragma once
// One memory BAR of a PCIe function (transport.md C.2). Offsets are byte offsets into the BAR.
//
// read32/write32 are exactly one 32-bit access: never merged, split, retried or cached. Block
// accesses cover incrementing dword addresses and may be one burst (USB) or a loop (native); they
// are forbidden on FIFO registers. One call of any of the four is one *transport operation*, the
// unit of stats() and of the cost figures in navi31-flash.md §6.7.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace wavescope::hw {

struct TransportStats {
  std::uint64_t reads = 0;         // read32 calls
  std::uint64_t writes = 0;        // write32 calls
  std::uint64_t block_reads = 0;   // read_block calls
  std::uint64_t block_writes = 0;  // write_block calls
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t usb_requests = 0;  // USB control + bulk transfers (USB transport only)
  std::uint64_t latency_ns = 0;    // cumulative time spent in transport operations

  std::uint64_t operations() const { return reads + writes + block_reads + block_writes; }
};

// One recorded access, for golden traces and post-mortem logs.
struct MmioAccess {
  enum class Kind { Read32, Write32, ReadBlock, WriteBlock, Flush } kind;
  std::uint64_t offset = 0;
  std::uint32_t value = 0;   // the dword read or written (first dword of a block)
  std::uint32_t length = 4;  // bytes
};
using MmioTraceHook = std::function<void(const MmioAccess &)>;

class Mmio {
public:
  virtual ~Mmio() = default;
  virtual std::uint64_t size() const = 0;
  virtual std::uint32_t read32(std::uint64_t offset) = 0;
  virtual void write32(std::uint64_t offset, std::uint32_t value) = 0;
  // `dwords` dwords from offset, offset + 4, ...
  virtual std::vector<std::uint32_t> read_block(std::uint64_t offset, std::size_t dwords) = 0;
  virtual void write_block(std::uint64_t offset, std::span<const std::uint32_t> values) = 0;
  // All previous posted writes have reached the device when this returns.
  virtual void flush() = 0;
  virtual const TransportStats &stats() const = 0;
  virtual void set_trace_hook(MmioTraceHook hook) = 0;
};

}  // namespace wavescope::hw
