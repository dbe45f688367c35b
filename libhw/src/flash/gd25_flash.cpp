#include "wavescope/hw/flash/gd25_flash.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::flash {

using namespace navi31;

namespace {

bool sfdp_at_offset_1(std::span<const std::uint8_t> w) {
  return w.size() >= 5 && std::memcmp(w.data() + 1, "SFDP", 4) == 0;
}

std::string describe_capture(std::span<const std::uint8_t> capture) {
  std::string text = hex_bytes(capture);
  if (capture.size() >= 3) {
    if (std::all_of(capture.begin(), capture.end(), [](std::uint8_t b) { return b == 0xFF; }))
      return text + " (no chip answering: MISO floats high — SPI pads not connected, chip absent "
                    "or in deep power-down)";
    if (std::all_of(capture.begin(), capture.end(), [](std::uint8_t b) { return b == 0x00; }))
      return text + " (all zero: MISO held low — no chip or a short)";
    for (std::size_t i = 0; i < capture.size(); ++i) {
      const auto part = find_flash_part(capture[i], capture[(i + 1) % capture.size()],
                                        capture[(i + 2) % capture.size()]);
      if (part) return text + fmt::format(" ({})", part->name);
    }
  }
  return text;
}

}  // namespace

Gd25Flash::Gd25Flash(RomSwSession &session, Clock &clock, Gd25Options options)
    : session_(session), clock_(clock), options_(options) {}

void Gd25Flash::tx(std::uint8_t opcode, std::uint32_t address, unsigned address_bytes,
                   std::span<const std::uint8_t> data) {
  session_.execute({opcode, address, address_bytes, data, 0}, 0);
}

std::vector<std::uint8_t> Gd25Flash::rx_pipelined(std::uint8_t opcode, std::uint32_t address,
                                                  unsigned address_bytes, std::size_t count,
                                                  std::size_t want) {
  const SpiTransaction t{opcode, address, address_bytes, {}, count};
  if (*lag_ == 0) return session_.execute(t, want);
  const bool check_marker = marker_pending_;
  const std::size_t read = std::max(want, check_marker ? std::size_t{4} : std::size_t{0});
  auto window = session_.execute(t, read);
  if (check_marker) {
    marker_pending_ = false;
    if (!contains_jedec_cyclically(std::span(window).first(4)))
      throw Error(ErrorKind::Mismatch,
                  fmt::format("RX window out of step: the window of the launch of opcode 0x{:02X} "
                              "at 0x{:06X} shows {} instead of the RDID marker C8 60 15; the "
                              "measured RX lag does not hold, so no data read in this run can be "
                              "trusted (rerun without pipelined reads)",
                              opcode, address, hex_bytes(std::span(window).first(4))));
  }
  last_capture_ = count;
  window.resize(want);
  return window;
}

std::vector<std::uint8_t> Gd25Flash::rx_primed(std::uint8_t opcode, std::uint32_t address,
                                               unsigned address_bytes, std::size_t count) {
  const std::size_t first = std::max<std::size_t>(2, count);
  if (!pipelined()) {
    // The reference's priming: the same transaction twice, the second window holds the first
    // capture (on a lag-0 engine it holds its own; both are the same data).
    session_.execute({opcode, address, address_bytes, {}, first}, first);
    return session_.execute({opcode, address, address_bytes, {}, count}, count);
  }
  if (*lag_ == 0) return rx_pipelined(opcode, address, address_bytes, count, count);
  rx_pipelined(opcode, address, address_bytes, first, 0);
  return rx_pipelined(opcode, address, address_bytes, count, count);
}

JedecCapture Gd25Flash::identify() {
  auto capture = rx_primed(spi::kReadJedecId, 0, 0, 4);
  if (!contains_jedec_cyclically(capture)) {
    // A chip still busy with an operation an interrupted command started answers only status
    // reads (transport.md B.10: re-probe the chip before resuming). Wait for it, then ask again.
    const std::uint8_t sr1 = read_status(spi::kReadStatus1);
    if ((sr1 & kSr1Busy) && sr1 != 0xFF) {
      wait_ready(std::chrono::seconds(10), "operation an earlier, interrupted command left running "
                                           "(power-cycle the board if it never ends)");
      capture = rx_primed(spi::kReadJedecId, 0, 0, 4);
    }
  }
  JedecCapture c;
  std::copy(capture.begin(), capture.begin() + 4, c.bytes.begin());
  c.expected = contains_jedec_cyclically(capture);
  if (!c.expected)
    throw Error(ErrorKind::Chip,
                fmt::format("flash chip not recognised: RDID (0x9F) returned {}; expected C8 60 15 "
                            "(GigaDevice GD25LQ16E, the chip of Navi31 boards)",
                            describe_capture(capture)));
  if (options_.pipelined_reads && !lag_) calibrate();
  return c;
}

void Gd25Flash::calibrate() {
  if (options_.assume_lag) {
    lag_ = *options_.assume_lag;
    last_capture_ = 4;  // the identify() RDID
    marker_pending_ = false;
    return;
  }
  session_.execute({spi::kReadJedecId, 0, 0, {}, 4}, 0);
  const auto w1 = session_.execute({spi::kReadSfdp, 0, 3, {}, 8}, 8);
  const auto w2 = session_.execute({spi::kReadJedecId, 0, 0, {}, 4}, 8);
  const bool jedec1 = contains_jedec_cyclically(std::span(w1).first(4));
  const bool jedec2 = contains_jedec_cyclically(std::span(w2).first(4));
  if (jedec1 && sfdp_at_offset_1(w2)) {
    lag_ = 1;
    last_capture_ = 4;
    marker_pending_ = true;  // the last RDID's capture is a marker the next window must show
  } else if (sfdp_at_offset_1(w1) && jedec2) {
    lag_ = 0;
  } else {
    throw Error(ErrorKind::Chip,
                fmt::format("cannot measure the ROM_SW RX window lag (window after SFDP: {}; after "
                            "RDID: {}); pipelined reads refused — rerun without them",
                            hex_bytes(w1), hex_bytes(w2)));
  }
}

std::uint8_t Gd25Flash::read_status(std::uint8_t opcode) {
  return rx_primed(opcode, 0, 0, 1).at(0);
}

std::vector<std::uint8_t> Gd25Flash::read_sfdp(std::uint32_t address, std::size_t count) {
  return rx_primed(spi::kReadSfdp, address, 3, count);
}

std::vector<std::uint8_t> Gd25Flash::read(std::uint32_t address, std::size_t size,
                                          const std::function<void(std::size_t)> &on_chunk) {
  if (std::uint64_t{address} + size > kFlashSize)
    throw Error(ErrorKind::Usage, fmt::format("read of {} bytes at 0x{:06X} runs past the end of "
                                              "the 2 MiB flash",
                                              size, address));
  std::vector<std::uint8_t> out;
  out.reserve(size);
  const std::uint32_t end = address + static_cast<std::uint32_t>(size);
  auto chunk_len = [&](std::uint32_t p, std::uint32_t limit) {
    return std::min<std::uint32_t>(static_cast<std::uint32_t>(kMaxTransferBytes), limit - p);
  };
  if (!pipelined() || *lag_ == 0) {
    for (std::uint32_t p = address; p < end;) {
      const std::uint32_t n = chunk_len(p, end);
      const auto bytes =
          pipelined() ? rx_pipelined(spi::kRead, p, 3, n, n) : rx_primed(spi::kRead, p, 3, n);
      out.insert(out.end(), bytes.begin(), bytes.end());
      p += n;
      if (on_chunk) on_chunk(out.size());
    }
    return out;
  }
  // Lag 1: runs of at most one sector, each N chunks in N + 1 launches ending with a drain.
  for (std::uint32_t p = address; p < end;) {
    const std::uint32_t run_end = std::min<std::uint32_t>(end, (p / kSectorSize + 1) * kSectorSize);
    std::size_t previous = 0;
    while (p < run_end) {
      const std::uint32_t n = chunk_len(p, run_end);
      const auto window = rx_pipelined(spi::kRead, p, 3, n, previous);
      if (previous) {
        out.insert(out.end(), window.begin(), window.end());
        if (on_chunk) on_chunk(out.size());
      }
      previous = n;
      p += n;
    }
    const auto last = rx_pipelined(spi::kReadJedecId, 0, 0, 4, previous);
    out.insert(out.end(), last.begin(), last.end());
    marker_pending_ = true;
    if (on_chunk) on_chunk(out.size());
  }
  return out;
}

void Gd25Flash::write_enable() {
  tx(spi::kWriteEnable, 0, 0, {});
  const std::uint8_t sr1 = read_status(spi::kReadStatus1);
  if (!(sr1 & kSr1Wel) || sr1 == 0xFF)
    throw Error(ErrorKind::Chip,
                fmt::format("write enable failed: SR1 reads 0x{:02X} after WREN (0x06), WEL (bit "
                            "1) {}",
                            sr1, sr1 == 0xFF ? "unknown: the chip is not answering" : "not set"));
}

void Gd25Flash::write_disable_quietly() noexcept {
  best_effort([this] { tx(spi::kWriteDisable, 0, 0, {}); });
}

void Gd25Flash::wait_ready(Clock::Duration timeout, const std::string &what) {
  const auto start = clock_.now();
  const bool lagging = pipelined() && *lag_ == 1;
  // With lag 1 the first window after the launch predates it; launch once and discard it. Each
  // later window shows the previous poll, captured after the launch, so BUSY = 0 is conclusive.
  if (lagging) rx_pipelined(spi::kReadStatus1, 0, 0, 2, 0);
  for (;;) {
    const std::uint8_t sr1 = lagging ? rx_pipelined(spi::kReadStatus1, 0, 0, 2, 1).at(0)
                                     : read_status(spi::kReadStatus1);
    if (!(sr1 & kSr1Busy)) return;
    if (clock_.now() - start >= timeout)
      throw Error(ErrorKind::Timeout,
                  fmt::format("flash chip still busy {:.1f} s after the {} (SR1 = 0x{:02X}){}",
                              std::chrono::duration<double>(timeout).count(), what, sr1,
                              sr1 == 0xFF ? ": the chip is not answering"
                                          : ": the chip is stuck or far slower than specified"));
    clock_.sleep(options_.busy_poll_interval);
  }
}

void Gd25Flash::erase_sector(std::uint32_t address) {
  write_enable();
  tx(spi::kSectorErase, address, 3, {});
  wait_ready(options_.erase_timeout,
             fmt::format("erase of sector {} at 0x{:06X}", address / kSectorSize, address));
}

void Gd25Flash::program_page(std::uint32_t address, std::span<const std::uint8_t> data) {
  write_enable();
  tx(spi::kPageProgram, address, 3, data);
  wait_ready(options_.program_timeout, fmt::format("program of the page at 0x{:06X}", address));
}

void Gd25Flash::write_status(std::uint8_t sr1, std::uint8_t sr2) {
  write_enable();
  const std::uint8_t data[2] = {static_cast<std::uint8_t>(sr1 & 0xFC), sr2};
  tx(spi::kWriteStatus, 0, 0, data);
  wait_ready(options_.status_write_timeout, "status register write (WRSR)");
}

void Gd25Flash::finish() {
  if (pipelined() && *lag_ == 1 && marker_pending_) rx_pipelined(spi::kReadStatus1, 0, 0, 2, 4);
}

}  // namespace wavescope::hw::flash
