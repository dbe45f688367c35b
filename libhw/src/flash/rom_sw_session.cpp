#include "wavescope/hw/flash/rom_sw_session.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::flash {

using namespace navi31;

namespace {

std::string describe(const SpiTransaction &t) {
  if (t.address_bytes == 0) return fmt::format("opcode 0x{:02X}", t.opcode);
  return fmt::format("opcode 0x{:02X} at 0x{:06X}", t.opcode, t.address);
}

double seconds(Clock::Duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

RomSwSession::RomSwSession(Mmio &bar5, Clock &clock, RomSwOptions options,
                           const CancelToken *cancel)
    : bar5_(bar5), clock_(clock), options_(options), cancel_(cancel) {
  if (options_.prescale > 15)
    throw Error(ErrorKind::Usage,
                fmt::format("SPI prescaler {} is out of range (0-15)", options_.prescale));
}

RomSwSession::~RomSwSession() {
  // Best effort: a device that stopped answering cannot be restored anyway.
  best_effort([this] { close(); });
}

void RomSwSession::open() {
  if (open_) return;
  const std::uint32_t rom_cntl = bar5_.read32(kRomCntl);
  if (rom_cntl == kAllOnes)
    throw Error(ErrorKind::Device, "device not responding: ROM_CNTL (0x5A380) reads 0xFFFFFFFF");
  rom_cntl_at_open_ = rom_cntl;
  const std::uint32_t prescaled = (rom_cntl & ~kRomCntlPrescaleMask) | kRomCntlPrescaleOverride |
                                  (options_.prescale << kRomCntlPrescaleShift);
  if (options_.session_registers) {
    // One set-up for the whole session; the per-transaction ROM_CNTL nibble is folded in.
    session_saved_ = save_and_set_up(prescaled);
    session_saved_->rom_cntl = rom_cntl;
  } else {
    bar5_.write32(kRomCntl, prescaled | kRomCntlClockGatingEn);
  }
  open_ = true;
}

void RomSwSession::close() {
  if (!open_) return;
  open_ = false;
  cached_command_.reset();
  if (session_saved_) {
    const SavedRegisters saved = *session_saved_;
    session_saved_.reset();
    restore(saved);
  } else if (options_.restore_rom_cntl) {
    bar5_.write32(kRomCntl, rom_cntl_at_open_);
  }
}

RomSwSession::SavedRegisters
RomSwSession::save_and_set_up(std::optional<std::uint32_t> known_rom_cntl) {
  SavedRegisters s;
  s.mask = bar5_.read32(kGpioPadMask);
  s.a = bar5_.read32(kGpioPadA);
  s.en = bar5_.read32(kGpioPadEn);
  s.page_mirror = bar5_.read32(kPageMirrorCntl);
  s.rom_cntl = known_rom_cntl ? *known_rom_cntl : bar5_.read32(kRomCntl);
  bar5_.write32(kGpioPadMask, s.mask & ~kGpioSpiPads);
  bar5_.write32(kGpioPadA, s.a & ~kGpioSpiPads);
  bar5_.write32(kGpioPadEn, s.en & ~kGpioSpiPads);
  bar5_.write32(kPageMirrorCntl,
                (s.page_mirror & ~kPageMirrorTransactionMask) | kPageMirrorTransactionBits);
  bar5_.write32(kRomCntl, (s.rom_cntl & ~0xFu) | kRomCntlTransactionNibble);
  return s;
}

void RomSwSession::restore(const SavedRegisters &s) {
  bar5_.write32(kRomCntl, s.rom_cntl);
  bar5_.write32(kPageMirrorCntl, s.page_mirror);
  bar5_.write32(kGpioPadA, s.a);
  bar5_.write32(kGpioPadEn, s.en);
  bar5_.write32(kGpioPadMask, s.mask);
}

std::vector<std::uint8_t> RomSwSession::execute(const SpiTransaction &t, std::size_t window_bytes) {
  if (cancel_ && cancel_->abort_requested())
    throw Error(ErrorKind::Internal, "interrupted (second Ctrl-C) before " + describe(t));
  if (t.tx.size() > kMaxTransferBytes || t.rx > kMaxTransferBytes || (!t.tx.empty() && t.rx) ||
      t.address_bytes > 3 || window_bytes > kMaxTransferBytes)
    throw Error(ErrorKind::Internal,
                fmt::format("bad ROM_SW transaction ({}: {} TX bytes, {} RX bytes, {} address "
                            "bytes, {} window bytes)",
                            describe(t), t.tx.size(), t.rx, t.address_bytes, window_bytes));
  open();
  ++transactions_;
  if (session_saved_) return run(t, window_bytes);
  const SavedRegisters saved = save_and_set_up(std::nullopt);
  std::vector<std::uint8_t> out;
  {
    const OnFailure restore_on_failure([&] { restore(saved); });
    out = run(t, window_bytes);
  }
  restore(saved);
  return out;
}

std::vector<std::uint8_t> RomSwSession::run(const SpiTransaction &t, std::size_t window_bytes) {
  const std::uint32_t command = (t.address << 8) | t.opcode;
  const std::size_t window_dwords = (window_bytes + 3) / 4;
  std::vector<std::uint8_t> out;
  {
    const OnFailure reset_on_failure([&] {
      cached_command_.reset();
      if (options_.reference_resets) {
        bar5_.write32(kRomSwCntl, 0);
        bar5_.write32(kRomSwStatus, 0);
      }
    });
    if (options_.reference_resets) bar5_.write32(kRomSwCntl, 0);
    if (options_.block_writes) {
      if (cached_command_ == command) {
        bar5_.write32(kRomSwStatus, 0);
      } else {
        const std::uint32_t pair[2] = {0, command};
        bar5_.write_block(kRomSwStatus, pair);
        cached_command_ = command;
      }
    } else {
      bar5_.write32(kRomSwStatus, 0);
    }
    if (!options_.skip_check_reads) {
      const std::uint32_t status = bar5_.read32(kRomSwStatus);
      if (status != 0) throw_status(status, t, "after clearing it");
    }
    if (!options_.block_writes) bar5_.write32(kRomSwCommand, command);
    if (!t.tx.empty()) {
      // TX payload: byte 4k+j goes to bits (31-8j):(24-8j) of DATA_(k+1).
      std::vector<std::uint32_t> dwords((t.tx.size() + 3) / 4, 0);
      for (std::size_t i = 0; i < t.tx.size(); ++i)
        dwords[i / 4] |= std::uint32_t{t.tx[i]} << (24 - 8 * (i % 4));
      if (options_.block_writes) {
        bar5_.write_block(kRomSwData1, dwords);
      } else {
        for (std::size_t k = 0; k < dwords.size(); ++k)
          bar5_.write32(kRomSwData1 + 4 * static_cast<std::uint32_t>(k), dwords[k]);
      }
    }
    const std::uint32_t count = static_cast<std::uint32_t>(t.rx ? t.rx : t.tx.size());
    const std::uint32_t cntl =
        (t.address_bytes << kRomSwCntlCommandSizeShift) | (t.rx ? kRomSwCntlRxEnable : 0) | count;
    bar5_.write32(kRomSwCntl, cntl);
    if (!options_.skip_check_reads) (void)bar5_.read32(kRomSwCntl);  // flushes the posted launch
    auto window = wait_done(t, window_dwords);
    if (window_dwords && !window) window = bar5_.read_block(kRomSwData1, window_dwords);
    if (window) {
      out.resize(window_bytes);
      for (std::size_t i = 0; i < window_bytes; ++i)
        out[i] = static_cast<std::uint8_t>((*window)[i / 4] >> (8 * (i % 4)));
    }
  }
  if (options_.reference_resets) {
    bar5_.write32(kRomSwCntl, 0);
    bar5_.write32(kRomSwStatus, 0);
  }
  return out;
}

std::optional<std::vector<std::uint32_t>> RomSwSession::wait_done(const SpiTransaction &t,
                                                                  std::size_t window_dwords) {
  const auto start = clock_.now();
  bool first = true;
  for (;;) {
    std::uint32_t status;
    if (first && options_.block_status_read && window_dwords) {
      // STATUS, COMMAND, the gap register 0x5A3AC, then the window.
      auto block = bar5_.read_block(kRomSwStatus, 3 + window_dwords);
      status = block[0];
      if (status != kAllOnes && status != kRomSwStatusGated && (status & kRomSwStatusDone))
        return std::vector<std::uint32_t>(block.begin() + 3, block.end());
    } else {
      status = bar5_.read32(kRomSwStatus);
    }
    first = false;
    if (status == kAllOnes || status == kRomSwStatusGated)
      throw_status(status, t, "while waiting for DONE");
    if (status & kRomSwStatusDone) return std::nullopt;
    if (clock_.now() - start >= options_.done_timeout)
      throw Error(ErrorKind::Timeout,
                  fmt::format("ROM_SW transaction ({}) did not complete within {:.1f} s: "
                              "ROM_SW_STATUS (0x5A3A4) stays 0x{:08X} (DONE clear); the engine "
                              "may be gated (a driver loaded the PSP secure OS) or hung",
                              describe(t), seconds(options_.done_timeout), status));
    clock_.sleep(options_.done_poll_interval);
  }
}

void RomSwSession::throw_status(std::uint32_t status, const SpiTransaction &t, const char *when) {
  if (status == kAllOnes)
    throw Error(ErrorKind::Device,
                fmt::format("device not responding: ROM_SW_STATUS (0x5A3A4) read 0xFFFFFFFF {} "
                            "({}); the PCIe link or the board's power was lost",
                            when, describe(t)));
  if (status == kRomSwStatusGated)
    throw Error(ErrorKind::State,
                fmt::format("ROM_SW engine gated: ROM_SW_STATUS (0x5A3A4) reads 0x04000800 {} "
                            "({}); the board has booted from its flash, so ROM_SW is locked",
                            when, describe(t)));
  throw Error(ErrorKind::State,
              fmt::format("ROM_SW_STATUS (0x5A3A4) reads 0x{:08X} {} ({}), expected 0", status,
                          when, describe(t)));
}

}  // namespace wavescope::hw::flash
