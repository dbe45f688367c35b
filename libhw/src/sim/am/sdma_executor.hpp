#pragma once
// The fake SDMA engine's packet executor (am-driver.md §12.8, §19.2 item 9): runs an enabled
// queue's ring from its read pointer to its write pointer (both in bytes) — NOP, COPY (linear),
// WRITE (linear), FENCE, TRAP (an SDMA_TRAP interrupt), POLL_REGMEM (memory or register; an unmet
// condition stalls the queue there), TIMESTAMP (global) and INDIRECT (resumable) — through VMID
// 0's page tables, writing the read pointer back when the queue asks for it. A page fault or an
// opcode outside §12.8 stops the queue at that packet.

#include <cstdint>
#include <vector>

#include "sim/am/gpu_mmu.hpp"
#include "sim/am/pm4_interpreter.hpp"

namespace wavescope::hw::sim::am {

class SdmaEnvironment {
public:
  virtual ~SdmaEnvironment() = default;
  virtual std::uint32_t read_register(std::uint32_t address) = 0;
  virtual std::uint64_t gpu_clock() = 0;
  virtual void trap(std::uint32_t int_context) = 0;
};

struct SdmaQueue {
  std::uint64_t ring_va = 0;
  std::uint32_t ring_bytes = 0;
  std::uint64_t rptr = 0, wptr = 0;     // bytes, monotonic (position = value % ring_bytes)
  std::uint64_t rptr_writeback_va = 0;  // 0: no write-back
  std::vector<IndirectBuffer> ibs;      // offset/size in dwords
  std::uint64_t packets = 0, copied_bytes = 0, traps = 0;
};

QueueRunResult run_sdma(SdmaQueue &queue, GpuAddressSpace &memory, SdmaEnvironment &env,
                        std::size_t max_packets = 1u << 20);

}  // namespace wavescope::hw::sim::am
