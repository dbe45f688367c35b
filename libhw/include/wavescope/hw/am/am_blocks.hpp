#pragma once
// The IP blocks of the AM driver that the boot orchestration (AmGpu, §5) calls into, as
// interfaces: GMC (apertures, hub init, HDP flush, TLB flush), IH, GFX and SDMA. SOC, PSP and SMU
// are concrete classes (am/soc.hpp, am/psp.hpp, am/smu.hpp).
//
// The defaults ("basic" blocks) do what the boot needs of them and no more: GMC reads the
// frame-buffer and XGMI apertures, allocates the memscratch and dummy pages and flushes the HDP
// (§8); IH and GFX allocate their boot memory (rings, MQD pages); everything else is a no-op,
// marked in basic_blocks.cpp. A fuller implementation replaces a default without touching the
// orchestration by registering a factory in its own .cpp:
//
//   namespace { const AmBlockRegistration kGmc({.gmc = [](AmGpu &gpu) {
//     return std::make_unique<Gmc>(gpu); }}); }

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace wavescope::hw::am {

class AmGpu;

class AmGmc {
public:
  virtual ~AmGmc() = default;
  // Reads FB_LOCATION and the XGMI LFB registers; allocates the memscratch and dummy pages
  // (boot memory, in that order: §5.5 rows 2 and 3).
  virtual void init_sw() = 0;
  virtual void init_hw() = 0;  // MM hub on every MMHUB instance (§7.5)
  virtual void flush_hdp() = 0;
  virtual void flush_tlb(std::string_view hub, unsigned vmid) = 0;  // hub "GC" or "MM" (§7.6)
  virtual std::uint64_t mc_base() const = 0;
  virtual std::uint64_t paddr_base() const = 0;
  virtual bool is_hive() const = 0;
  // GCVM_L2_PROTECTION_FAULT_STATUS (…_LO32 on GC >= 12): the boot-mode decision reads it.
  virtual std::string fault_status_register() const = 0;
  std::uint64_t paddr2mc(std::uint64_t paddr) const { return mc_base() + paddr; }
  std::uint64_t paddr2xgmi(std::uint64_t paddr) const { return paddr_base() + paddr; }
};

class AmIh {
public:
  virtual ~AmIh() = default;
  virtual void init_sw() = 0;  // two rings + wptr pages in boot memory (§5.5 rows 4-7)
  virtual void init_hw() = 0;  // §11
  virtual void interrupt_handler() = 0;
};

class AmGfx {
public:
  virtual ~AmGfx() = default;
  virtual void init_sw() = 0;  // MQD pages for queues 0 and 1 (§5.5 rows 14, 15)
  // §12.3 on a full boot; on a partial boot (AmGpu::partial_boot()) the RLC wait, GC hub init
  // and MEC reset only.
  virtual void init_hw() = 0;
  virtual void fini_hw() = 0;  // dequeue (§12.5)
  virtual void reset_mec() = 0;
  virtual void set_clockgating_state() = 0;  // §13
};

class AmSdma {
public:
  virtual ~AmSdma() = default;
  virtual void init_sw() = 0;
  virtual void init_hw() = 0;  // §12.6
  virtual void fini_hw() = 0;  // §14.1
};

struct AmBlockFactories {
  std::function<std::unique_ptr<AmGmc>(AmGpu &)> gmc;
  std::function<std::unique_ptr<AmIh>(AmGpu &)> ih;
  std::function<std::unique_ptr<AmGfx>(AmGpu &)> gfx;
  std::function<std::unique_ptr<AmSdma>(AmGpu &)> sdma;
};

// Replaces the factories set in `replacement` (static registration from the block's own file).
class AmBlockRegistration {
public:
  explicit AmBlockRegistration(AmBlockFactories replacement);
};

// The factories in use: the basic blocks, replaced by every registration.
AmBlockFactories am_block_factories();
AmBlockFactories basic_am_block_factories();

}  // namespace wavescope::hw::am
