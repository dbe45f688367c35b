#pragma once
// The fake GPU's HDP (am-driver.md §8, §19.2 item 10): BIF_BX0_REMAP_HDP_MEM_FLUSH_CNTL reads the
// BAR5 byte offset of the flush register (setting hdp.flush_offset, default 0x7F000 — amdgpu's
// MMIO register hole at 512 KiB − 4 KiB, where the kernel remaps HDP_MEM_FLUSH_CNTL); writes there
// are counted as flushes. The PM4 flush handshake (BIF_BX_PF0/PF1_GPU_HDP_FLUSH_REQ → DONE reads
// the request) counts too. Doorbells and TLB invalidations are events: an event with no flush
// since the previous one is counted as unflushed, so tests can assert that a flush precedes
// every doorbell and invalidation (AM skips the flush before doorbells only on USB).

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/am/block_model.hpp"
#include "sim/am/register_file.hpp"

namespace wavescope::hw::sim::am {

class HdpModel final : public BlockModel {
public:
  explicit HdpModel(FakeGpu &gpu);
  std::string name() const override { return "hdp"; }
  void reset(ResetKind kind) override;
  nlohmann::json save() const override;
  void load(const nlohmann::json &state) override;
  nlohmann::json status() const override;

  // A doorbell or a TLB invalidation happened now.
  enum class Event { Doorbell, Invalidate };
  void event(Event event);

  // A register write from a PM4 stream (WAIT_REG_MEM's write-wait): true when it was an HDP
  // flush request, which is then done (DONE reads the request).
  bool cp_write(RegisterKey key, std::uint32_t value);

  std::uint64_t flushes() const { return flushes_; }
  std::uint64_t events() const { return events_; }
  std::uint64_t unflushed_events() const { return unflushed_; }
  RegisterKey flush_register() const { return flush_key_; }

private:
  FakeGpu &gpu_;
  RegisterKey remap_ = 0, flush_key_ = 0;
  std::vector<std::pair<RegisterKey, RegisterKey>> handshakes_;  // (REQ, DONE)
  std::uint64_t flushes_ = 0, events_ = 0, unflushed_ = 0, flushes_at_last_event_ = 0;
};

}  // namespace wavescope::hw::sim::am
