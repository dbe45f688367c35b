#pragma once
// The PSP early boot-firmware mailbox primitive (navi31-flash.md §7.1): C2PMSG_115 must show
// READY, the argument goes to C2PMSG_116, the command to 115 (bits 23:16), a doorbell write to
// C2PMSG_73, then 115 is polled every 1 ms until READY returns; its low 16 bits are the error and
// C2PMSG_116 the response. A read of 0xFFFFFFFF means the device stopped answering, never READY.
//
// The fast variant (an explicit option, §6.7) trusts the previous command's last READY poll,
// writes 115 and 116 as one 8-byte block and skips the response read of commands without one.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "wavescope/base/cancel_token.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw::psp {

namespace command {
inline constexpr std::uint8_t kGetBootPartition = 0x01;
inline constexpr std::uint8_t kGetFbState = 0x06;
inline constexpr std::uint8_t kGetTransferType = 0x07;
inline constexpr std::uint8_t kStartTransfer = 0x08;
inline constexpr std::uint8_t kDataTransfer = 0x09;
inline constexpr std::uint8_t kEndTransfer = 0x0A;
inline constexpr std::uint8_t kSpiGetModelId = 0x0B;
}  // namespace command

// "GET_TRANSFER_TYPE" etc.
std::string command_name(std::uint8_t command);
// The §7.2 meaning of a PSP error code, e.g. "0x0A partition update error".
std::string error_text(std::uint16_t code);

struct MailboxOptions {
  Clock::Duration poll_interval = std::chrono::milliseconds(1);
  Clock::Duration timeout = std::chrono::seconds(10);
  bool fast = false;
};

struct MailboxResult {
  std::uint16_t error = 0;
  std::optional<std::uint32_t> response;  // absent when the fast variant skipped the read
};

class PspMailbox {
public:
  PspMailbox(Mmio &bar5, Clock &clock, MailboxOptions options = {},
             const CancelToken *cancel = nullptr);

  // One command. Throws Error(State) when the mailbox is not ready, Error(Device) on all-ones,
  // Error(Timeout) when READY does not return within `timeout` (0 = the options' default; must
  // be within (0, 60] s). A non-zero PSP error is returned, not thrown.
  MailboxResult send(std::uint8_t command, std::optional<std::uint32_t> argument,
                     Clock::Duration timeout = Clock::Duration::zero(), bool want_response = true);

private:
  Mmio &bar5_;
  Clock &clock_;
  MailboxOptions options_;
  const CancelToken *cancel_;
  bool ready_seen_ = false;  // the last poll showed READY (fast variant skips the check read)
};

}  // namespace wavescope::hw::psp
