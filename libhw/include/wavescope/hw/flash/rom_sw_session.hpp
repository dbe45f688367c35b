#pragma once
// The ROM_SW transaction protocol (navi31-flash.md §4) over BAR5: one SPI transaction per
// launch, with the register set-up the reference performs around it.
//
// The default is the conservative procedure of §9.1: per transaction, save GPIOPAD_MASK/A/EN,
// PAGE_MIRROR_CNTL and ROM_CNTL, hand the SPI pads to the ROM controller, clear STATUS and check
// that it cleared (the gated engine shows here), write COMMAND and the TX payload (big-endian
// dwords), launch with ROM_SW_CNTL (the only CNTL writes), flush, poll DONE every 1 ms for 2 s,
// read the RX window, and restore everything — also when anything fails. Session start sets the
// SPI prescaler (§4.1); close() restores ROM_CNTL and every other register to its value at open.
//
// The §9.11 optimizations are options, each off by default:
//  * session_registers: save and set up once per session, restore at close (fast session, §9.2);
//  * skip_check_reads: no STATUS read-back after clearing it, no CNTL flush read — the first
//    STATUS poll is a non-posted read that orders after the posted writes and itself detects the
//    gated pattern and all-ones;
//  * block_status_read: one block read from ROM_SW_STATUS through the RX window, whose data is
//    used only if its STATUS dword shows DONE (it reads the gap register 0x5A3AC, [OPEN]);
//  * block_writes: the TX window as one block write, STATUS+COMMAND as one 8-byte block write
//    (never a block including ROM_SW_CNTL, whose write launches), COMMAND skipped when unchanged.
// `reference_resets` reproduces the reference's extra ROM_SW_CNTL ← 0 / STATUS ← 0 writes; it
// exists to measure the reference procedure (§6.7) and is not offered to users.

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "wavescope/base/cancel_token.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw::flash {

struct RomSwOptions {
  unsigned prescale = 8;  // SCK prescaler, 0..15 (§4.1)
  bool session_registers = false;
  bool skip_check_reads = false;
  bool block_status_read = false;
  bool block_writes = false;
  bool reference_resets = false;
  bool restore_rom_cntl = true;  // the reference leaves the prescaler write in place
  Clock::Duration done_poll_interval = std::chrono::milliseconds(1);
  Clock::Duration done_timeout = std::chrono::seconds(2);
};

// One SPI transaction as the chip sees it: opcode, 0–3 address bytes (MSB first), then either TX
// bytes or `rx` clocked bytes (never both), each at most 256.
struct SpiTransaction {
  std::uint8_t opcode = 0;
  std::uint32_t address = 0;
  unsigned address_bytes = 0;
  std::span<const std::uint8_t> tx;
  std::size_t rx = 0;
};

class RomSwSession {
public:
  RomSwSession(Mmio &bar5, Clock &clock, RomSwOptions options = {},
               const CancelToken *cancel = nullptr);
  ~RomSwSession();
  RomSwSession(const RomSwSession &) = delete;
  RomSwSession &operator=(const RomSwSession &) = delete;

  // Session start (§4.1): SPI prescaler (and, with session_registers, the whole set-up).
  void open();
  // Restores every register the session touched to its value at open(). Idempotent.
  void close();
  bool is_open() const { return open_; }

  // Executes one transaction, then returns `window_bytes` bytes of the RX window (read after
  // DONE; on a lag-1 engine it holds the *previous* RX capture, §4.3). 0 = do not read it.
  std::vector<std::uint8_t> execute(const SpiTransaction &transaction, std::size_t window_bytes);

  const RomSwOptions &options() const { return options_; }
  std::uint64_t transactions() const { return transactions_; }
  Mmio &bar5() { return bar5_; }
  Clock &clock() { return clock_; }

private:
  struct SavedRegisters {
    std::uint32_t mask = 0, a = 0, en = 0, page_mirror = 0, rom_cntl = 0;
  };
  SavedRegisters save_and_set_up(std::optional<std::uint32_t> known_rom_cntl);
  void restore(const SavedRegisters &saved);
  std::vector<std::uint8_t> run(const SpiTransaction &t, std::size_t window_bytes);
  // Polls STATUS for DONE; returns the block read's window dwords when one was used.
  std::optional<std::vector<std::uint32_t>> wait_done(const SpiTransaction &t,
                                                      std::size_t window_dwords);
  [[noreturn]] void throw_status(std::uint32_t status, const SpiTransaction &t, const char *when);

  Mmio &bar5_;
  Clock &clock_;
  RomSwOptions options_;
  const CancelToken *cancel_;
  bool open_ = false;
  std::uint32_t rom_cntl_at_open_ = 0;
  std::optional<SavedRegisters> session_saved_;
  std::optional<std::uint32_t> cached_command_;
  std::uint64_t transactions_ = 0;
};

}  // namespace wavescope::hw::flash
