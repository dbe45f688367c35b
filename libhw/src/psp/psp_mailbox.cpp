#include "wavescope/hw/psp/psp_mailbox.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"

namespace wavescope::hw::psp {

using namespace navi31;

std::string command_name(std::uint8_t c) {
  switch (c) {
  case command::kGetBootPartition: return "GET_BOOT_PARTITION";
  case command::kGetFbState: return "GET_FB_STATE";
  case command::kGetTransferType: return "GET_TRANSFER_TYPE";
  case command::kStartTransfer: return "START_TRANSFER";
  case command::kDataTransfer: return "DATA_TRANSFER";
  case command::kEndTransfer: return "END_TRANSFER";
  case command::kSpiGetModelId: return "SPI_GET_MODEL_ID";
  default: return fmt::format("command 0x{:02X}", c);
  }
}

std::string error_text(std::uint16_t code) {
  static const char *const kNames[] = {"success",
                                       "generic error",
                                       "out of bounds",
                                       "invalid parameter",
                                       "off-chip boot error",
                                       "address not set",
                                       "parse off-chip error",
                                       "address map error",
                                       "parse on-chip error",
                                       "full update error",
                                       "partition update error",
                                       "map on-chip error",
                                       "write to SPI error",
                                       "signature validation error",
                                       "invalid command",
                                       "signature not found",
                                       "state machine not initialised",
                                       "state machine transfer error",
                                       "initialisation error"};
  if (code < std::size(kNames)) return fmt::format("0x{:02X} {}", code, kNames[code]);
  return fmt::format("0x{:04X} (unknown error code)", code);
}

PspMailbox::PspMailbox(Mmio &bar5, Clock &clock, MailboxOptions options, const CancelToken *cancel)
    : bar5_(bar5), clock_(clock), options_(options), cancel_(cancel) {}

MailboxResult PspMailbox::send(std::uint8_t command, std::optional<std::uint32_t> argument,
                               Clock::Duration timeout, bool want_response) {
  if (timeout == Clock::Duration::zero()) timeout = options_.timeout;
  if (timeout <= Clock::Duration::zero() || timeout > std::chrono::seconds(60))
    throw Error(ErrorKind::Usage, "mailbox timeouts must be within (0, 60] s");
  if (cancel_ && cancel_->abort_requested())
    throw Error(ErrorKind::Internal, "interrupted (second Ctrl-C) before " + command_name(command));
  const std::string name = command_name(command);
  if (!(options_.fast && ready_seen_)) {
    const std::uint32_t status = bar5_.read32(kPspCommand);
    if (status == kAllOnes)
      throw Error(ErrorKind::Device,
                  fmt::format("device not responding: C2PMSG_115 (0x582CC) reads "
                              "0xFFFFFFFF before {}",
                              name));
    if (!(status & kPspReady))
      throw Error(ErrorKind::State,
                  fmt::format("PSP mailbox not ready: C2PMSG_115 (0x582CC) reads 0x{:08X} (READY, "
                              "bit 31, clear) before {}; the PSP is not running its early boot "
                              "firmware (a bricked board's stalled PSP, or busy)",
                              status, name));
  }
  ready_seen_ = false;
  const std::uint32_t word = std::uint32_t{command} << 16;
  if (options_.fast && argument) {
    const std::uint32_t pair[2] = {word, *argument};
    bar5_.write_block(kPspCommand, pair);
  } else {
    if (argument) bar5_.write32(kPspData, *argument);
    bar5_.write32(kPspCommand, word);
  }
  bar5_.write32(kPspDoorbell, 1);
  const auto start = clock_.now();
  for (;;) {
    const std::uint32_t status = bar5_.read32(kPspCommand);
    if (status == kAllOnes)
      throw Error(ErrorKind::Device, fmt::format("device not responding: C2PMSG_115 (0x582CC) read "
                                                 "0xFFFFFFFF while waiting for {}",
                                                 name));
    if (status & kPspReady) {
      ready_seen_ = true;
      MailboxResult result;
      result.error = static_cast<std::uint16_t>(status & 0xFFFF);
      if (want_response || !options_.fast) result.response = bar5_.read32(kPspData);
      return result;
    }
    if (clock_.now() - start >= timeout)
      throw Error(ErrorKind::Timeout,
                  fmt::format("PSP did not answer {} within {:.0f} s (C2PMSG_115 0x582CC stays "
                              "0x{:08X}, READY clear)",
                              name, std::chrono::duration<double>(timeout).count(), status));
    clock_.sleep(options_.poll_interval);
  }
}

}  // namespace wavescope::hw::psp
