#pragma once
// The fake GPU's IH (see ih_model.cpp for its behaviour and faults).

#include <array>
#include <cstdint>

#include "sim/am/block_model.hpp"
#include "sim/am/ih_writer.hpp"
#include "sim/am/register_file.hpp"

namespace wavescope::hw::sim::am {

class IhModel final : public BlockModel {
public:
  explicit IhModel(FakeGpu &gpu);
  std::string name() const override { return "ih"; }
  void reset(ResetKind kind) override;
  nlohmann::json save() const override;
  void load(const nlohmann::json &state) override;
  bool arm_fault(const FaultRequest &fault) override;
  std::vector<std::string> fault_kinds() const override;
  nlohmann::json status() const override;

  hw::am::IhSoc soc() const { return soc_; }
  // Writes an entry to ring 0 (if enabled; see ih_push for a full ring). Returns whether written.
  bool push(const IhDwords &entry);
  const IhRingState &ring(unsigned id) const { return rings_[id]; }
  std::uint32_t ras_status() const { return ras_; }

private:
  struct Keys {
    RegisterKey cntl = 0, base = 0, base_hi = 0, wptr = 0, rptr = 0;
  };
  void control(unsigned id, std::uint32_t value);
  void rebase(unsigned id);

  FakeGpu &gpu_;
  hw::am::IhSoc soc_ = hw::am::IhSoc::Soc21;
  std::array<Keys, 2> keys_;
  std::array<IhRingState, 2> rings_;
  RegisterKey wptr_addr_lo_ = 0, wptr_addr_hi_ = 0, bif_ = 0;
  // RB_CNTL fields
  std::uint32_t enable_mask_ = 0, overflow_enable_mask_ = 0, overflow_clear_mask_ = 0;
  unsigned size_shift_ = 1;
  // BIF_DOORBELL_INT_CNTL RAS bits
  std::uint32_t ras_ = 0, ras_cntlr_ = 0, ras_athub_ = 0, clear_cntlr_ = 0, clear_athub_ = 0;
};

}  // namespace wavescope::hw::sim::am
