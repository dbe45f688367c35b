#include "wavescope/hw/psp/psp_procedures.hpp"

#include <set>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/hw/ifwi/ifwi_items.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/transport/transport_eta.hpp"

namespace wavescope::hw::psp {

using namespace navi31;

namespace {

constexpr auto kEndTimeout = std::chrono::seconds(60);
constexpr auto kPartialEndTimeout = std::chrono::seconds(10);
constexpr const char *kGatedAdvice =
    "update commands are gated (GET_TRANSFER_TYPE answered 0x0A): the card must be power-cycled "
    "and must not be initialised by a driver (PSP secure OS) before retrying";

[[noreturn]] void throw_psp_error(std::uint8_t command, std::uint16_t error,
                                  const std::string &what) {
  std::string message =
      fmt::format("PSP returned {} for {}{}", error_text(error), command_name(command), what);
  if (command == command::kGetTransferType && error == 0x0A)
    message += "; " + std::string(kGatedAdvice);
  throw Error(ErrorKind::Firmware, message);
}

}  // namespace

PspProbeResult psp_probe(Mmio &bar5, Clock &clock, const MailboxOptions &options) {
  PspProbeResult result;
  result.board = probe_board(bar5);
  if (result.board.state == ProbedState::NotResponding)
    throw Error(ErrorKind::Device, "device not responding: " + result.board.explanation());
  PspMailbox mailbox(bar5, clock, options);
  for (std::uint8_t c : {command::kGetBootPartition, command::kGetFbState, command::kSpiGetModelId,
                         command::kGetTransferType}) {
    const auto r = mailbox.send(c, std::nullopt);
    result.entries.push_back({c, r.error, r.response.value_or(0)});
    if (c == command::kGetTransferType) {
      if (r.error == 0x0A)
        result.update_gated = true;
      else if (r.error == 0)
        result.transfer_type = r.response;
    }
  }
  if (result.update_gated)
    result.advice = kGatedAdvice;
  else if (result.transfer_type)
    result.advice =
        fmt::format("the PSP asks for IFWI item 0x{:02X} (phase {}): streaming a whole image "
                    "item by item (ifwi-all) answers it",
                    *result.transfer_type & 0xFF, (*result.transfer_type >> 8) & 0xFF);
  return result;
}

namespace {

// One item: START, a DATA per dword, END (§7.4); on a failure before all data went out, one
// best-effort END with the partial count so the firmware can close the session.
void stream_item(PspMailbox &mailbox, std::span<const std::uint8_t> payload, std::uint8_t item,
                 const std::function<void(std::uint64_t)> &on_dword) {
  if (payload.empty() || payload.size() > 0xFFFFFF || payload.size() % 4)
    throw Error(ErrorKind::BadInput,
                fmt::format("item 0x{:02X} is {} bytes: streamed items must be non-empty, at most "
                            "16 MiB and a multiple of 4 bytes",
                            item, payload.size()));
  const auto size = static_cast<std::uint32_t>(payload.size());
  auto check = [&](std::uint8_t c, const MailboxResult &r, const std::string &what) {
    if (r.error) throw_psp_error(c, r.error, what);
  };
  check(command::kStartTransfer,
        mailbox.send(command::kStartTransfer, (size << 8) | item, {}, false),
        fmt::format(" of item 0x{:02X} ({} bytes)", item, size));
  std::uint32_t sent = 0;
  bool end_sent = false;
  const OnFailure end_partial([&] {
    if (!end_sent)
      mailbox.send(command::kEndTransfer, (sent << 8) | item, kPartialEndTimeout, false);
  });
  for (; sent < size; sent += 4) {
    const std::uint32_t dword = payload[sent] | (payload[sent + 1] << 8) |
                                (payload[sent + 2] << 16) |
                                (std::uint32_t{payload[sent + 3]} << 24);
    check(command::kDataTransfer, mailbox.send(command::kDataTransfer, dword, {}, false),
          fmt::format(" at byte {} of item 0x{:02X}", sent, item));
    if (on_dword) on_dword(sent / 4 + 1);
  }
  end_sent = true;
  check(command::kEndTransfer,
        mailbox.send(command::kEndTransfer, (sent << 8) | item, kEndTimeout, false),
        fmt::format(" of item 0x{:02X}", item));
}

}  // namespace

IfwiAllResult psp_ifwi_all(Mmio &bar5, Clock &clock, std::span<const std::uint8_t> image,
                           const IfwiAllOptions &options, const OperationProgressSink &progress,
                           const CancelToken *cancel) {
  if (image.size() != kFlashSize)
    throw Error(ErrorKind::BadInput,
                fmt::format("image is {} bytes; ifwi-all needs a 2 MiB image", image.size()));
  const auto board = probe_board(bar5);
  if (board.state == ProbedState::NotResponding)
    throw Error(ErrorKind::Device, "device not responding: " + board.explanation());
  if (board.state == ProbedState::SosLoaded)
    throw Error(ErrorKind::State, "refusing ifwi-all: " + board.explanation());
  PspMailbox mailbox(bar5, clock, options.mailbox, cancel);
  EtaEstimator eta = transport_eta(clock, bar5);
  IfwiAllResult result;
  std::set<std::uint8_t> received;
  int last_phase = -1;
  auto query = [&] {
    const auto r = mailbox.send(command::kGetTransferType, std::nullopt);
    if (r.error) throw_psp_error(command::kGetTransferType, r.error, "");
    return r.response.value_or(0);
  };
  std::uint32_t state = query();
  // Total dwords are known only per item; the ETA prices what is left of the current item.
  for (unsigned n = 0; n < options.max_items; ++n) {
    const auto item = static_cast<std::uint8_t>(state & 0xFF);
    const auto phase = static_cast<int>((state >> 8) & 0xFF);
    if (received.count(item))
      throw Error(ErrorKind::Firmware,
                  fmt::format("the PSP asks for item 0x{:02X} again after receiving it in this run "
                              "(state 0x{:03X}): its transfer script is out of step; stopping",
                              item, state));
    if (phase < last_phase)
      throw Error(ErrorKind::Firmware,
                  fmt::format("the PSP's transfer phase went back from {} to {} (state 0x{:03X}); "
                              "stopping",
                              last_phase, phase, state));
    ifwi::IfwiItem resolved;
    try {
      resolved = ifwi::resolve_ifwi_item(image, item);
    } catch (const Error &e) {
      throw Error(ErrorKind::BadInput,
                  fmt::format("the PSP asks for item 0x{:02X}, which the image cannot provide: {}",
                              item, e.what()));
    }
    if (cancel && cancel->stop_requested())
      throw Error(ErrorKind::Internal,
                  fmt::format("interrupted before item 0x{:02X}; {} items were streamed; the card "
                              "needs a power cycle before another ifwi-all",
                              item, result.items.size()));
    const auto payload = image.subspan(resolved.offset, resolved.size);
    const std::uint64_t item_dwords = payload.size() / 4;
    stream_item(mailbox, payload, item, [&](std::uint64_t d) {
      ++result.dwords;
      if (progress && (d % 1024 == 0 || d == item_dwords)) {
        eta.mark("dword-batch");
        const auto remaining =
            eta.eta({{"dword-batch", static_cast<double>(item_dwords - d) / 1024.0}});
        progress(eta.progress("stream", d, item_dwords, "dwords", remaining));
      }
    });
    received.insert(item);
    last_phase = phase;
    result.items.push_back({item, static_cast<std::uint8_t>(phase), resolved.offset,
                            static_cast<std::uint32_t>(resolved.size), resolved.description});
    if (phase == 2) {
      result.completed = true;
      return result;
    }
    if (n + 1 < options.max_items) state = query();
  }
  throw Error(
      ErrorKind::Firmware,
      fmt::format("the PSP did not report completion (phase 2) after {} items; the card needs a "
                  "hard power cycle before another attempt",
                  options.max_items));
}

}  // namespace wavescope::hw::psp
