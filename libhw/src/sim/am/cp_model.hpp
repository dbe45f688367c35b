#pragma once
// The fake GPU's CP/MEC (see cp_model.cpp for its behaviour and faults).

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sim/am/block_model.hpp"
#include "sim/am/pm4_interpreter.hpp"
#include "sim/am/register_file.hpp"

namespace wavescope::hw::sim::am {

class CpModel final : public BlockModel {
public:
  static constexpr unsigned kHqdRegisters = 56;  // CP_MQD_BASE_ADDR .. CP_HQD_PQ_WPTR_HI

  explicit CpModel(FakeGpu &gpu);
  std::string name() const override { return "cp"; }
  void reset(ResetKind kind) override;
  nlohmann::json save() const override;
  void load(const nlohmann::json &state) override;
  bool arm_fault(const FaultRequest &fault) override;
  void clear_faults() override;
  std::vector<std::string> fault_kinds() const override;
  nlohmann::json status() const override;

  // One hardware queue descriptor: the HQD registers of (xcc, me, pipe, queue) and, while
  // active, the queue it runs.
  struct Hqd {
    std::array<std::uint32_t, kHqdRegisters> regs{};
    bool active = false, aql = false, doorbell_enabled = false;
    unsigned doorbell = 0;  // slot
    Pm4Queue queue;
    std::string state;  // "", "idle", "waiting: ...", "fault: ..."
  };
  using HqdId = std::tuple<unsigned, unsigned, unsigned, unsigned>;  // xcc, me, pipe, queue
  const std::map<HqdId, Hqd> &hqds() const { return hqds_; }
  bool mec_running(unsigned xcc) const;
  // Runs every active queue until none makes progress.
  void run_queues();

private:
  struct Xcc {
    RegisterKey grbm = 0, first = 0, mec_cntl = 0;
    std::map<unsigned, std::array<std::uint32_t, 2>> sh_mem;  // by VMID: CONFIG, BASES
  };
  struct Select {
    unsigned me = 0, pipe = 0, queue = 0, vmid = 0;
  };
  Select selected(unsigned xcc) const;
  Hqd &hqd(unsigned xcc);
  std::uint32_t hqd_read(unsigned xcc, unsigned index);
  void hqd_write(unsigned xcc, unsigned index, std::uint32_t value);
  void activate(unsigned xcc, const HqdId &id, Hqd &h);
  void doorbell(std::uint64_t offset, std::uint32_t value);
  void soft_reset(std::uint32_t value);
  bool has_fault(const std::string &kind) const;

  FakeGpu &gpu_;
  unsigned gc_major_ = 11;
  std::map<unsigned, Xcc> xccs_;  // by GC instance
  std::map<HqdId, Hqd> hqds_;
  // Indices into the HQD window.
  unsigned i_active_ = 0, i_dequeue_ = 0, i_pq_base_ = 0, i_pq_base_hi_ = 0, i_rptr_ = 0,
           i_rptr_report_ = 0, i_rptr_report_hi_ = 0, i_doorbell_ = 0, i_pq_control_ = 0,
           i_aql_ = 0, i_wptr_lo_ = 0, i_wptr_hi_ = 0;
  // Field layout of GRBM_GFX_CNTL, GRBM_SOFT_RESET and the MEC control register.
  std::uint32_t soft_reset_cp_ = 0;
  std::uint64_t doorbells_seen_ = 0;
  std::vector<FaultRequest> faults_;
};

}  // namespace wavescope::hw::sim::am
