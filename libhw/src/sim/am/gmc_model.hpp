#pragma once
// The fake GPU's GMC (see gmc_model.cpp for its behaviour, settings and faults).

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "sim/am/block_model.hpp"
#include "sim/am/gpu_mmu.hpp"
#include "sim/am/register_file.hpp"

namespace wavescope::hw::sim::am {

class GmcModel final : public BlockModel {
public:
  explicit GmcModel(FakeGpu &gpu);
  std::string name() const override { return "gmc"; }
  void reset(ResetKind kind) override;
  nlohmann::json save() const override;
  void load(const nlohmann::json &state) override;
  bool arm_fault(const FaultRequest &fault) override;
  void clear_faults() override;
  std::vector<std::string> fault_kinds() const override;
  nlohmann::json status() const override;

  // VMID 0 as XCC `xcc`'s GC hub is programmed now.
  MmuConfig mmu_config(unsigned xcc = 0) const;
  std::uint64_t paddr_base() const;
  std::uint64_t fb_base() const;
  // A translation fault from an engine (CP, SDMA) or injected: latched into XCC 0's
  // GCVM_L2_PROTECTION_FAULT_STATUS/ADDR with a UTCL2 fault queued on the IH; while one is
  // latched, later faults only set MORE_FAULTS. `client` goes into the status's CID field.
  void report_fault(const MmuFault &fault, unsigned client);
  bool fault_latched() const { return latched_; }
  std::uint64_t invalidations(bool gc) const { return gc ? gc_invalidations_ : mm_invalidations_; }

private:
  struct Engine {  // invalidate engine `eng` of one hub instance
    bool gc = false;
    unsigned instance = 0, eng = 0;
    bool sem_taken = false;
    std::uint32_t ack = 0;
  };
  void install_hub(bool gc, unsigned instance);
  std::uint32_t sem_read(Engine &e);
  void request(Engine &e, std::uint32_t value);
  const FaultRequest *fault(const std::string &kind) const;
  std::uint64_t pair(RegisterKey lo, RegisterKey hi) const;

  FakeGpu &gpu_;
  bool gc12_ = false;
  hw::am::PtGeneration generation_ = hw::am::PtGeneration::Gfx11;
  std::vector<Engine> engines_;
  std::map<RegisterKey, std::size_t> engine_by_key_;
  struct Hub {  // GC context-0 registers of one XCC
    RegisterKey cntl = 0, base_lo = 0, base_hi = 0, start_lo = 0, start_hi = 0, end_lo = 0,
                end_hi = 0, aperture_low = 0, aperture_high = 0, default_lo = 0, default_hi = 0;
  };
  std::uint32_t default_page_bits_ = 0;  // CONTEXT0_CNTL's *_PROTECTION_FAULT_ENABLE_DEFAULT
  std::vector<Hub> gc_hubs_;
  RegisterKey fb_base_ = 0, fb_top_ = 0, lfb_cntl_ = 0, lfb_size_ = 0;
  RegisterKey fault_status_ = 0, fault_lo_ = 0, fault_hi_ = 0, fault_cntl_ = 0;
  std::uint32_t clear_bit_ = 0;
  bool latched_ = false;
  std::uint64_t gc_invalidations_ = 0, mm_invalidations_ = 0, faults_reported_ = 0;
  std::vector<FaultRequest> faults_;
};

}  // namespace wavescope::hw::sim::am
