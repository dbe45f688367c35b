#pragma once
// The fake CP's PM4 interpreter (am-driver.md §12.8, §19.2 item 8): runs an active HQD's ring from
// its read pointer to its write pointer — NOP, RELEASE_MEM (32/64-bit data or the GPU clock,
// optional EOP interrupt), WAIT_REG_MEM on memory or a register (with the HDP flush's write-wait
// form), INDIRECT_BUFFER (resumable: a wait inside an IB stalls the queue there), PRED_EXEC,
// SET_SH_REG/SET_UCONFIG_REG, and as no-ops ACQUIRE_MEM, EVENT_WRITE and DISPATCH_DIRECT (no
// shader execution). Every memory access goes through VMID 0's page tables; a page fault or an
// unknown opcode stops the queue at the offending packet.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/am/gpu_mmu.hpp"
#include "sim/am/queue_run.hpp"
#include "wavescope/hw/am/pm4_packets.hpp"

namespace wavescope::hw::sim::am {

// WAIT_REG_MEM / POLL_REGMEM compare: 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >.
bool wait_condition_met(unsigned function, std::uint32_t masked_value, std::uint32_t reference);

// What the CP needs from the rest of the chip.
class CpEnvironment {
public:
  virtual ~CpEnvironment() = default;
  virtual std::uint32_t read_register(std::uint32_t address) = 0;
  virtual void write_register(std::uint32_t address, std::uint32_t value) = 0;
  virtual std::uint64_t gpu_clock() = 0;
  // RELEASE_MEM with an interrupt (CP_EOP_INTERRUPT) or a bad opcode (CP_BAD_OPCODE_ERROR).
  virtual void cp_interrupt(unsigned source_id, std::uint32_t context) = 0;
};

struct IndirectBuffer {
  std::uint64_t va = 0;
  std::uint32_t size = 0;    // dwords
  std::uint32_t offset = 0;  // next dword to run
};

struct Pm4Queue {
  std::uint64_t ring_va = 0;
  std::uint32_t ring_dwords = 0;
  std::uint64_t rptr = 0, wptr = 0;  // dwords, monotonic (position = value % ring_dwords)
  std::uint64_t rptr_report_va = 0;  // 0: no report
  unsigned xcc = 0;                  // for PRED_EXEC
  std::vector<IndirectBuffer> ibs;   // IBs being run, innermost last
  // Counters, for tests and `wavectl am ring`.
  std::uint64_t packets = 0, dispatches = 0, releases = 0, interrupts = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> register_writes;  // SET_*_REG
};

QueueRunResult run_pm4(Pm4Queue &queue, GpuAddressSpace &memory, CpEnvironment &env,
                       hw::am::Pm4Generation generation, std::size_t max_packets = 1u << 20);

}  // namespace wavescope::hw::sim::am
