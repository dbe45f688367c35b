#include "wavescope/hw/am/ring_test.hpp"

#include <chrono>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_device_bus.hpp"
#include "wavescope/hw/am/doorbell.hpp"
#include "wavescope/hw/am/gfx.hpp"
#include "wavescope/hw/am/gmc.hpp"
#include "wavescope/hw/am/page_table.hpp"
#include "wavescope/hw/am/pm4_packets.hpp"
#include "wavescope/hw/am/sdma.hpp"
#include "wavescope/hw/am/sdma_packets.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"

namespace wavescope::hw::am {

namespace {
constexpr std::uint32_t kAmVersion = 0xA000'0008;  // SCRATCH_REG7 after an AM boot (§5.1)
constexpr std::uint64_t kScratchBytes = 8ull << 20;
constexpr std::uint64_t kTablesBytes = 1ull << 20;  // page tables for the scratch mapping
constexpr std::uint64_t kMappedBytes = 1ull << 20;
constexpr std::uint64_t kVa = 0x2FFF'FF00'0000;  // the top 16 MiB of the 2^44 VA window
// Inside the mapped MiB: MQD, gart (pointers), EOP, data, ring.
constexpr std::uint64_t kMqd = 0x0, kGart = 0x1000, kEop = 0x2000, kData = 0x3000, kRing = 0x1'0000,
                        kRingBytes = 0x1'0000;
constexpr std::uint32_t kComputeValue = 0xC0DE'0049, kSdmaValue = 0xC0DE'5D4A;

std::vector<std::string> describe_pm4(const std::vector<std::uint32_t> &d, Pm4Generation g) {
  std::vector<std::string> out;
  for (const auto &p : decode_pm4(d, g)) out.push_back(fmt::format("{} {}", p.name, p.description));
  return out;
}
std::vector<std::string> describe_sdma(const std::vector<std::uint32_t> &d) {
  std::vector<std::string> out;
  for (const auto &p : decode_sdma(d)) out.push_back(fmt::format("{} {}", p.name, p.description));
  return out;
}
}  // namespace

RingTestEngine ring_test_engine(std::string_view name) {
  if (name == "compute") return RingTestEngine::Compute;
  if (name == "sdma") return RingTestEngine::Sdma;
  throw Error(ErrorKind::Usage,
              fmt::format("unknown queue '{}' to submit to (compute or sdma)", name));
}

void run_ring_test(AmDevice &device, RingTestEngine engine, RingReport &report) {
  AmDeviceBus bus(device);
  AmDeviceVram vram(device);
  AmRegisters regs(bus, device.registers(), device.clock());
  const AmChipInfo chip = chip_info_from_discovery(device.discovery());
  const std::uint32_t version = regs.read("gc.SCRATCH_REG7");
  if (version != kAmVersion)
    throw Error(ErrorKind::State,
                fmt::format("{}: SCRATCH_REG7 reads {:#010x}, not AM's {:#010x}: boot the GPU with "
                            "AM first (wavectl am boot)",
                            report.device, version, kAmVersion));
  const bool compute = engine == RingTestEngine::Compute;
  if (compute ? report.compute.at(0).active : report.sdma.at(0).enabled)
    throw Error(ErrorKind::State,
                fmt::format("{}: {} queue 0 is in use; --submit sets up its own queue only where "
                            "none runs",
                            report.device, compute ? "compute" : "SDMA"));

  GmcBlock gmc(regs, chip);
  const auto &apertures = gmc.read_apertures();
  gmc.set_hub_initialised(VmHub::Gc);
  const std::uint64_t usable = device.vram_size() - device.reserved_vram_size();
  const std::uint64_t scratch = usable - kScratchBytes;
  const std::uint64_t mapped = scratch + kTablesBytes;
  // The root page table as the GC hub knows it (XGMI address, valid bit).
  const std::uint64_t root =
      ((std::uint64_t{regs.read("gc.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_LO32")} |
        std::uint64_t{regs.read("gc.GCVM_CONTEXT0_PAGE_TABLE_BASE_ADDR_HI32")} << 32) &
       ~std::uint64_t{0xFFF}) -
      apertures.paddr_base;
  TlsfAllocator tables(kTablesBytes, scratch, "ring-test tables");
  PageTableConfig config{pt_generation_for_gc(chip.gc.major), root, apertures.paddr_base, 0, false};
  PageTable pt(vram, tables, config);
  vram.zero(mapped, kRing + kRingBytes);
  const PhysChunk chunk{mapped, kMappedBytes};
  pt.map_range(kVa, kMappedBytes, std::span(&chunk, 1), AddrSpace::Phys);
  gmc.flush_tlb(VmHub::Gc);
  gmc.flush_tlb(VmHub::Mm);

  RingSubmission sub;
  sub.engine = compute ? "compute" : "sdma";
  sub.ring_va = kVa + kRing;
  sub.target_va = kVa + kData;
  sub.expected = compute ? kComputeValue : kSdmaValue;
  sub.before = device.read_vram32(mapped + kData);
  std::vector<std::uint32_t> dwords;
  std::uint64_t wptr_va = 0;
  GfxBlock gfx(regs, vram, gmc, chip, {mapped + kMqd, mapped + kMqd}, {});
  SdmaBlock sdma(regs, chip);
  if (compute) {
    ComputeRing ring{
        kVa + kRing, kRingBytes, kVa + kGart + 0x80, kVa + kGart + 0x38, kVa + kEop, 0x1000,
        0,           false};
    sub.doorbell = gfx.setup_ring(ring);
    Pm4Stream s(pm4_generation_for_gc(chip.gc.major));
    s.signal(sub.target_va, sub.expected);
    dwords = s.dwords();
    sub.packets = describe_pm4(dwords, s.generation());
    sub.doorbell_value = doorbell_value(DoorbellQueueKind::Pm4, dwords.size());
    wptr_va = ring.wptr_va;
  } else {
    SdmaRing ring{kVa + kRing, kRingBytes, kVa + kGart + 0x100, kVa + kGart + 0x108, 0};
    sub.doorbell = sdma.setup_ring(ring);
    SdmaStream s(sdma_generation_for(chip.sdma.major));
    s.write(sub.target_va, sub.expected);
    dwords = s.dwords();
    sub.packets = describe_sdma(dwords);
    sub.doorbell_value = doorbell_value(DoorbellQueueKind::Sdma, dwords.size());
    wptr_va = ring.wptr_va;
  }
  for (std::size_t i = 0; i < dwords.size(); ++i)
    device.write_vram32(mapped + kRing + i * 4, dwords[i]);
  const std::uint64_t wptr_paddr = mapped + (wptr_va - kVa);
  device.write_vram32(wptr_paddr, static_cast<std::uint32_t>(sub.doorbell_value));
  device.write_vram32(wptr_paddr + 4, static_cast<std::uint32_t>(sub.doorbell_value >> 32));
  gmc.flush_hdp();
  auto &bar2 = device.doorbell_bar();
  bar2.write32(doorbell_byte_offset(sub.doorbell), static_cast<std::uint32_t>(sub.doorbell_value));
  bar2.write32(doorbell_byte_offset(sub.doorbell) + 4,
               static_cast<std::uint32_t>(sub.doorbell_value >> 32));
  try {
    regs.wait_until([&] { return device.read_vram32(mapped + kData) == sub.expected; },
                    "the submitted packet", std::chrono::seconds(1));
  } catch (const Error &e) {
    if (e.kind() != ErrorKind::Timeout) throw;
  }
  sub.after = device.read_vram32(mapped + kData);
  report.compute = read_compute_queues(regs, chip);
  report.sdma = read_sdma_queues(regs, chip);
  report.submission = sub;
  // Take the queue down again and drop the scratch mapping (no TLB flush on unmap, as AM).
  if (compute)
    gfx.dequeue_hqds(false);
  else
    sdma.fini();
  pt.unmap_range(kVa, kMappedBytes);
}

}  // namespace wavescope::hw::am
