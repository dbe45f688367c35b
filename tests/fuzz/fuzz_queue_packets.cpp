// Fuzz target: arbitrary dwords as a queue's contents — what `wavectl am ring` decodes and what
// the fake GPU executes when a user rings a doorbell. The PM4 decoder (both layouts), the SDMA
// decoder and the IH ring walk see the dwords; then the fake's PM4 interpreter and SDMA executor
// run them from a ring in 8 MiB of simulated VRAM with 4 MiB mapped at the VM base (page faults,
// waits and bad packets are clean outcomes). Inputs are cut at 64 KiB. A wavescope::Error is a
// clean outcome; a crash, a hang or another exception is a bug.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "sim/am/gpu_mmu.hpp"
#include "sim/am/pm4_interpreter.hpp"
#include "sim/am/sdma_executor.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/ih_entry.hpp"
#include "wavescope/hw/am/page_table.hpp"
#include "wavescope/hw/am/pm4_packets.hpp"
#include "wavescope/hw/am/sdma_packets.hpp"
#include "wavescope/hw/am/simulated_vram.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"

namespace {
using namespace wavescope::hw::am;
using namespace wavescope::hw::sim::am;

constexpr std::uint64_t kVa = PageTable::kVmBase;
constexpr std::uint64_t kRingBytes = 0x2'0000;  // at VA +0, pa 0x20'0000

struct Env final : CpEnvironment, SdmaEnvironment {
  std::uint32_t read_register(std::uint32_t address) override { return address * 2654435761u; }
  void write_register(std::uint32_t, std::uint32_t) override {}
  std::uint64_t gpu_clock() override { return ++clock; }
  void cp_interrupt(unsigned, std::uint32_t) override {}
  void trap(std::uint32_t) override {}
  std::uint64_t clock = 0;
};

template <class F> void guarded(F f) {
  try {
    f();
  } catch (const wavescope::Error &) {
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  size = std::min<std::size_t>(size, 64 * 1024);
  std::vector<std::uint32_t> dwords(size / 4);
  if (!dwords.empty()) std::memcpy(dwords.data(), data, dwords.size() * 4);

  guarded([&] { (void)decode_pm4(dwords, Pm4Generation::Gfx9); });
  guarded([&] { (void)decode_pm4(dwords, Pm4Generation::Gfx10Plus); });
  guarded([&] { (void)decode_sdma(dwords); });
  if (dwords.size() >= 8) {
    const std::uint32_t ring = static_cast<std::uint32_t>(dwords.size() / 8 * 8);
    guarded([&] {
      (void)ih_ring_entries(std::span(dwords).first(ring), dwords[0] % ring & ~7u,
                            dwords[1] % ring & ~7u);
    });
  }
  if (dwords.empty()) return 0;

  SimulatedVram vram(8ull << 20);
  TlsfAllocator tables(0x10'0000, 0x70'0000, "tables");
  PageTable pt(vram, tables, PageTableConfig{PtGeneration::Gfx11, 0});
  const PhysChunk chunk{0x20'0000, 0x40'0000};  // 2 MiB aligned: PDB0 leaves
  pt.map_range(kVa, 0x40'0000, std::span(&chunk, 1), AddrSpace::Phys);
  GpuMemory memory(vram, nullptr);
  MmuConfig config;
  config.enabled = true;
  config.page_table_base = 1;
  config.start_page = kVa >> 12;
  config.end_page = 0x7FFF'FFFF'FFFF >> 12;
  config.vram_size = 8ull << 20;
  GpuAddressSpace space(memory, config);
  const std::size_t n = std::min<std::size_t>(dwords.size(), kRingBytes / 4);
  for (std::size_t i = 0; i < n; ++i) space.write32(kVa + i * 4, dwords[i]);
  Env env;
  guarded([&] {
    Pm4Queue q;
    q.ring_va = kVa;
    q.ring_dwords = kRingBytes / 4;
    q.wptr = n;
    q.rptr_report_va = kVa + kRingBytes;
    for (int round = 0; round < 4; ++round)
      if (run_pm4(q, space, env, Pm4Generation::Gfx10Plus, 4096).packets == 0) break;
  });
  guarded([&] {
    SdmaQueue q;
    q.ring_va = kVa;
    q.ring_bytes = kRingBytes;
    q.wptr = n * 4;
    q.rptr_writeback_va = kVa + kRingBytes;
    for (int round = 0; round < 4; ++round)
      if (run_sdma(q, space, env, 4096).packets == 0) break;
  });
  return 0;
}
