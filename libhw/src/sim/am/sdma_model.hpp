#pragma once
// The fake GPU's SDMA (see sdma_model.cpp for its behaviour and faults).

#include <cstdint>
#include <string>
#include <vector>

#include "sim/am/block_model.hpp"
#include "sim/am/register_file.hpp"
#include "sim/am/sdma_executor.hpp"

namespace wavescope::hw::sim::am {

class SdmaModel final : public BlockModel {
public:
  explicit SdmaModel(FakeGpu &gpu);
  std::string name() const override { return "sdma"; }
  void reset(ResetKind kind) override;
  nlohmann::json save() const override;
  void load(const nlohmann::json &state) override;
  bool arm_fault(const FaultRequest &fault) override;
  void clear_faults() override;
  std::vector<std::string> fault_kinds() const override;
  nlohmann::json status() const override;

  struct Queue {
    std::string name;  // "gc.SDMA0_QUEUE0", "sdma0.SDMA_GFX"
    unsigned instance = 0;
    RegisterKey rb_cntl = 0, base = 0, base_hi = 0, rptr = 0, rptr_hi = 0, wptr = 0, wptr_hi = 0,
                rptr_addr_lo = 0, rptr_addr_hi = 0, doorbell = 0, doorbell_offset = 0;
    bool enabled = false, doorbell_enabled = false;
    unsigned doorbell_slot = 0;
    SdmaQueue run;
    std::string state;
  };
  const std::vector<Queue> &queues() const { return queues_; }
  bool halted() const;
  void run_queues();

private:
  void control(Queue &q, std::uint32_t value);
  void doorbell_changed(Queue &q);
  void doorbell(std::uint64_t offset, std::uint32_t value);
  bool has_fault(const std::string &kind) const;

  FakeGpu &gpu_;
  std::vector<Queue> queues_;
  RegisterKey engine_cntl_ = 0;  // SDMA0_F32_CNTL (SDMA 6) or SDMA0_MCU_CNTL (SDMA 7)
  std::uint32_t halt_mask_ = 0, rb_enable_ = 0, writeback_enable_ = 0, soft_reset_sdma_ = 0;
  unsigned rb_size_shift_ = 1;
  std::vector<FaultRequest> faults_;
};

}  // namespace wavescope::hw::sim::am
