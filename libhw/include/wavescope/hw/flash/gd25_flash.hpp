#pragma once
// The GD25LQ16E driver on top of ROM_SW (navi31-flash.md §5, §6): identification, status
// registers, SFDP, reads, write enable with WEL check, sector erase, page program, status writes
// and BUSY polling — with the RX window's one-transaction lag handled in one of two ways:
//
//  * primed (default): every RX transaction is issued twice and the second window used (§4.3);
//  * pipelined (option): after the lag has been measured in this session (calibration with RDID
//    and SFDP), N chunks are read with N + 1 launches, every run of chunks ends with an RDID
//    *drain* whose capture is a *marker* the next RX window must show, and finish() checks the
//    last marker — so a wrong lag stops with "RX window out of step" instead of shifting data.

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "wavescope/hw/flash/rom_sw_session.hpp"

namespace wavescope::hw::flash {

struct Gd25Options {
  bool pipelined_reads = false;
  // Test-only: skip calibration and assume this lag (0 or 1).
  std::optional<unsigned> assume_lag;
  Clock::Duration busy_poll_interval = std::chrono::milliseconds(2);
  Clock::Duration erase_timeout = std::chrono::seconds(2);
  Clock::Duration program_timeout = std::chrono::seconds(1);
  Clock::Duration status_write_timeout = std::chrono::seconds(1);
};

struct JedecCapture {
  std::array<std::uint8_t, 4> bytes{};
  bool expected = false;  // C8 60 15 found cyclically
};

class Gd25Flash {
public:
  Gd25Flash(RomSwSession &session, Clock &clock, Gd25Options options = {});

  // RDID (primed); throws Error(Chip) with the capture and the part it names when it is not
  // C8 60 15. This is the gate every command passes first (§6).
  JedecCapture identify();
  // Measures the RX lag (pipelined mode only; called by identify()). Throws Error(Chip).
  void calibrate();
  std::optional<unsigned> lag() const { return lag_; }

  // A status register read taken now (0x05, 0x35 or 0x15).
  std::uint8_t read_status(std::uint8_t opcode);
  // SFDP bytes from `address` as the chip sends them with no dummy clocks (first byte dummy).
  std::vector<std::uint8_t> read_sfdp(std::uint32_t address, std::size_t count);
  // Array bytes; `on_chunk(bytes_done)` after each 256-byte chunk.
  std::vector<std::uint8_t> read(std::uint32_t address, std::size_t size,
                                 const std::function<void(std::size_t)> &on_chunk = {});

  // WREN, then SR1 must show WEL (Error(Chip) otherwise).
  void write_enable();
  // WRDI, ignoring errors (used after a failed write sequence, §9.13).
  void write_disable_quietly() noexcept;
  void erase_sector(std::uint32_t address);
  void program_page(std::uint32_t address, std::span<const std::uint8_t> data);
  // WRSR with SR1 and SR2, then waits until not busy.
  void write_status(std::uint8_t sr1, std::uint8_t sr2);

  // End of a command: in pipelined mode, checks that the last marker arrives (§4.3 step 2).
  void finish();

  RomSwSession &session() { return session_; }
  const Gd25Options &options() const { return options_; }

private:
  std::vector<std::uint8_t> rx_primed(std::uint8_t opcode, std::uint32_t address,
                                      unsigned address_bytes, std::size_t count);
  // One RX launch in pipelined mode; returns `want` bytes of the window it shows (the previous
  // capture on lag 1), checking a pending marker first.
  std::vector<std::uint8_t> rx_pipelined(std::uint8_t opcode, std::uint32_t address,
                                         unsigned address_bytes, std::size_t count,
                                         std::size_t want);
  void tx(std::uint8_t opcode, std::uint32_t address, unsigned address_bytes,
          std::span<const std::uint8_t> data);
  void wait_ready(Clock::Duration timeout, const std::string &what);
  bool pipelined() const { return options_.pipelined_reads && lag_.has_value(); }

  RomSwSession &session_;
  Clock &clock_;
  Gd25Options options_;
  std::optional<unsigned> lag_;
  std::size_t last_capture_ = 0;  // bytes of the last RX capture (what the next window holds)
  bool marker_pending_ = false;   // the last capture was a drain RDID
};

}  // namespace wavescope::hw::flash
