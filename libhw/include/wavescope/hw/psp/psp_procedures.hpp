#pragma once
// The PSP mailbox procedures (navi31-flash.md §7.3–7.6): the read-only `probe`, the item stream
// primitive, and `ifwi-all`, which answers the PSP's requests for IFWI items from a 2 MiB image
// until it reports the phase-2 completion (after which the card needs a hard power cycle).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wavescope/base/cancel_token.hpp"
#include "wavescope/base/progress_eta.hpp"
#include "wavescope/hw/navi31/board_probe.hpp"
#include "wavescope/hw/psp/psp_mailbox.hpp"

namespace wavescope::hw::psp {

struct ProbeEntry {
  std::uint8_t command = 0;
  std::uint16_t error = 0;
  std::uint32_t response = 0;
};

struct PspProbeResult {
  navi31::BoardProbe board;
  std::vector<ProbeEntry>
      entries;  // GET_BOOT_PARTITION, GET_FB_STATE, SPI_GET_MODEL_ID, GET_TRANSFER_TYPE
  bool update_gated = false;                   // GET_TRANSFER_TYPE answered 0x0A
  std::optional<std::uint32_t> transfer_type;  // phase << 8 | item, when it answered
  std::string advice;
};

// Read-only: issues the four query commands (no START_TRANSFER). Throws Error(State) when the
// mailbox is not ready (bricked board) and Error(Device) when the device does not respond.
PspProbeResult psp_probe(Mmio &bar5, Clock &clock, const MailboxOptions &options = {});

struct StreamedItem {
  std::uint8_t item = 0;
  std::uint8_t phase = 0;
  std::uint64_t offset = 0;
  std::uint32_t size = 0;
  std::string description;
};

struct IfwiAllOptions {
  MailboxOptions mailbox;
  unsigned max_items = 19;  // Navi31's configured item count (§7.6)
};

struct IfwiAllResult {
  std::vector<StreamedItem> items;
  bool completed = false;  // the PSP reported phase 2
  std::uint64_t dwords = 0;
};

// Streams the items the PSP asks for (§7.6). The image must already be validated by the caller.
// Stops with a clean error on an unresolvable, repeated or phase-decreasing request (F12), on a
// PSP error code (Error(Firmware), exit 9) and after 19 items without completion.
IfwiAllResult psp_ifwi_all(Mmio &bar5, Clock &clock, std::span<const std::uint8_t> image,
                           const IfwiAllOptions &options = {},
                           const OperationProgressSink &progress = {},
                           const CancelToken *cancel = nullptr);

}  // namespace wavescope::hw::psp
