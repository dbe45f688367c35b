// The AM boot's GMC, IH, GFX and SDMA blocks (am_blocks.hpp) built on the register sequences of
// gmc.hpp, ih_ring.hpp, gfx.hpp and sdma.hpp; they replace the basic blocks through
// AmBlockRegistration. Boot allocations are the basic blocks' (§5.5 rows 2-7, 14-15, same owners
// and order); the hardware steps are the spec's.

#include "wavescope/hw/am/queue_blocks.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/firmware_set.hpp"
#include "wavescope/hw/am/memory_manager.hpp"
#include "wavescope/hw/am/psp.hpp"

namespace wavescope::hw::am {

namespace {
const AmBlockRegistration kQueueBlocks({
    .gmc = [](AmGpu &gpu) -> std::unique_ptr<AmGmc> { return std::make_unique<QueueGmc>(gpu); },
    .ih = [](AmGpu &gpu) -> std::unique_ptr<AmIh> { return std::make_unique<QueueIh>(gpu); },
    .gfx = [](AmGpu &gpu) -> std::unique_ptr<AmGfx> { return std::make_unique<QueueGfx>(gpu); },
    .sdma = [](AmGpu &gpu) -> std::unique_ptr<AmSdma> { return std::make_unique<QueueSdma>(gpu); },
});
}  // namespace

BlockContext::BlockContext(AmGpu &gpu)
    : bus(gpu.device()), vram(gpu.device()),
      regs(bus, gpu.device().registers(), gpu.device().clock()),
      chip(chip_info_from_discovery(gpu.device().discovery())) {}

QueueGmc &queue_gmc(AmGpu &gpu) {
  auto *gmc = dynamic_cast<QueueGmc *>(&gpu.gmc());
  if (!gmc) throw Error(ErrorKind::Internal, "the GMC block in use is not the queue blocks' GMC");
  return *gmc;
}

// --- GMC ---
QueueGmc::QueueGmc(AmGpu &gpu) : gpu_(gpu), ctx_(gpu), block_(ctx_.regs, ctx_.chip) {}

void QueueGmc::init_sw() {
  block_.read_apertures();
  auto &mm = gpu_.mm();
  const auto memscratch = mm.palloc(0x1000, 0x1000, false, true, "GMC memscratch page");
  const auto dummy = mm.palloc(0x1000, 0x1000, false, true, "GMC dummy page");
  block_.set_boot_pages({mm.root_paddr(), memscratch, dummy});
}

void QueueGmc::init_hw() { block_.init_hub(VmHub::Mm); }
void QueueGmc::flush_hdp() { block_.flush_hdp(); }

void QueueGmc::flush_tlb(std::string_view hub, unsigned vmid) {
  if (hub != "GC" && hub != "MM")
    throw Error(ErrorKind::Internal, fmt::format("flush_tlb: unknown hub '{}'", hub));
  block_.flush_tlb(hub == "GC" ? VmHub::Gc : VmHub::Mm, vmid);
}

std::string QueueGmc::fault_status_register() const { return block_.fault_status_register(); }

// --- IH ---
QueueIh::QueueIh(AmGpu &gpu) : gpu_(gpu), ctx_(gpu) {}

void QueueIh::init_sw() {
  auto &mm = gpu_.mm();
  IhRings r;
  r.ring0 = mm.palloc(kIhRingBytes, 0x1000, false, true, "IH ring 0");
  r.ring0_wptr = mm.palloc(0x1000, 0x1000, false, true, "IH ring 0 wptr");
  r.ring1 = mm.palloc(kIhRingBytes, 0x1000, false, true, "IH ring 1");
  r.ring1_wptr = mm.palloc(0x1000, 0x1000, false, true, "IH ring 1 wptr");
  block_.emplace(ctx_.regs, ctx_.vram, queue_gmc(gpu_).block(), ctx_.chip, r);
}

void QueueIh::init_hw() { block_->init_hw(); }

void QueueIh::interrupt_handler() {
  last_ = block_->interrupt_handler();
  if (last_.error_state) gpu_.set_err_state(true);
}

// --- GFX ---
QueueGfx::QueueGfx(AmGpu &gpu) : gpu_(gpu), ctx_(gpu) {}

void QueueGfx::init_sw() {
  std::array<std::uint64_t, 2> mqd{};
  const auto xccs = gpu_.xcc_count();
  for (unsigned q = 0; q < 2; ++q)
    mqd[q] =
        gpu_.mm().palloc(0x1000 * xccs, 0x1000, false, true, fmt::format("GFX MQD queue {}", q));
  GfxUcodeStart ucode;
  const auto &starts = gpu_.fw().ucode_start();
  auto start = [&](const char *name) {
    const auto it = starts.find(name);
    return it == starts.end() ? std::uint64_t{0} : it->second;
  };
  ucode.pfp = start("PFP");
  ucode.me = start("ME");
  ucode.mec = start("MEC");
  block_.emplace(ctx_.regs, ctx_.vram, queue_gmc(gpu_).block(), ctx_.chip, mqd, ucode);
  block_->set_spatial_partition_hook([this](unsigned mode) { gpu_.psp().spatial_partition(mode); });
}

void QueueGfx::init_hw() { block_->init_hw(gpu_.partial_boot()); }
void QueueGfx::fini_hw() { block_->fini(gpu_.err_state()); }
void QueueGfx::reset_mec() { block_->reset_mec(gpu_.err_state()); }
void QueueGfx::set_clockgating_state() { block_->set_clockgating(); }

// --- SDMA ---
QueueSdma::QueueSdma(AmGpu &gpu) : ctx_(gpu), block_(ctx_.regs, ctx_.chip) {}
void QueueSdma::init_hw() { block_.init_hw(); }
void QueueSdma::fini_hw() { block_.fini(); }

}  // namespace wavescope::hw::am
