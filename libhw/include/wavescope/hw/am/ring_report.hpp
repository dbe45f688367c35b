#pragma once
// What `wavectl am ring` reports and its printers: the compute HQDs and SDMA queues as their
// registers say (queue_status.hpp) and, when a test stream was submitted, what was written, which
// doorbell was rung with which value, and whether the target dword changed to the expected value.
// JSON (one object, one line; addresses as "0x..." strings) and text.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wavescope/hw/am/queue_status.hpp"

namespace wavescope::hw::am {

struct RingSubmission {
  std::string engine;                // "compute" or "sdma"
  std::vector<std::string> packets;  // "RELEASE_MEM event=0x14 ...", as the decoders print them
  std::uint64_t ring_va = 0;
  unsigned doorbell = 0;
  std::uint64_t doorbell_value = 0;  // dwords (compute) or bytes (SDMA)
  std::uint64_t target_va = 0;
  std::uint32_t expected = 0, before = 0, after = 0;
  bool executed() const { return after == expected && before != expected; }
};

struct RingReport {
  std::string device;
  std::vector<ComputeQueueStatus> compute;
  std::vector<SdmaQueueStatus> sdma;
  std::optional<RingSubmission> submission;
};

std::string to_json(const RingReport &report);
std::string to_text(const RingReport &report);

}  // namespace wavescope::hw::am
