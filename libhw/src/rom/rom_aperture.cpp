#include "wavescope/hw/rom/rom_aperture.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/navi31/bar5_registers.hpp"
#include "wavescope/hw/navi31/board_probe.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/transport/transport_eta.hpp"

namespace wavescope::hw::rom {

using namespace navi31;

namespace {

constexpr std::uint32_t kPageBytes = 0x10000;
constexpr std::uint32_t kRomCntlDumpBit = 1u << 29;  // ORed in by the reference **[OPEN]**
constexpr unsigned kMaxPageAttempts = 4;

// One 64 KiB page: ROM_INDEX ← page, 16384 single ROM_DATA reads, then ROM_INDEX must have
// advanced by exactly 64 KiB (an all-ones or short index means the device stopped answering).
std::vector<std::uint8_t> read_page(Mmio &bar5, std::uint32_t page, const CancelToken *cancel) {
  if (cancel && cancel->abort_requested())
    throw Error(ErrorKind::Internal, "interrupted (second Ctrl-C) during the ROM aperture dump");
  bar5.write32(kRomIndex, page);
  std::vector<std::uint8_t> bytes(kPageBytes);
  for (std::uint32_t i = 0; i < kPageBytes; i += 4) {
    const std::uint32_t v = bar5.read32(kRomData);
    for (int k = 0; k < 4; ++k) bytes[i + k] = static_cast<std::uint8_t>(v >> (8 * k));
  }
  const std::uint32_t index = bar5.read32(kRomIndex);
  if (index == kAllOnes)
    throw Error(ErrorKind::Device, fmt::format("device not responding: ROM_INDEX (0x5A390) reads "
                                               "0xFFFFFFFF after the page at 0x{:06X}",
                                               page));
  if (index != ((page + kPageBytes) & 0xFFFFFF))
    throw Error(ErrorKind::Mismatch,
                fmt::format("ROM_INDEX (0x5A390) reads 0x{:06X} after 16384 ROM_DATA reads from "
                            "0x{:06X}, expected 0x{:06X}: reads were lost",
                            index, page, (page + kPageBytes) & 0xFFFFFF));
  return bytes;
}

}  // namespace

RomDumpResult rom_dump(Mmio &bar5, Clock &clock, const RomDumpOptions &options,
                       const OperationProgressSink &progress, const CancelToken *cancel) {
  const auto board = probe_board(bar5);
  if (board.state == ProbedState::NotResponding)
    throw Error(ErrorKind::Device, "device not responding: " + board.explanation());
  RomDumpResult result;
  result.rom_cntl = bar5.read32(kRomCntl);
  result.rom_index = bar5.read32(kRomIndex);
  if (result.rom_cntl == kAllOnes)
    throw Error(ErrorKind::State,
                "the SMUIO ROM controller is not reachable (ROM_CNTL 0x5A380 reads "
                "0xFFFFFFFF); the function-ROM aperture shows only the option ROM "
                "and is not used as a fallback");
  EtaEstimator eta = transport_eta(clock, bar5);
  const std::uint32_t pages = static_cast<std::uint32_t>(kFlashSize / kPageBytes);
  auto restore = [&] {
    bar5.write32(kRomIndex, result.rom_index);
    bar5.write32(kRomCntl, result.rom_cntl);
  };
  {
    const OnFailure restore_on_failure(restore);
    bar5.write32(kRomCntl, result.rom_cntl | kRomCntlDumpBit);
    result.bytes.reserve(kFlashSize);
    for (std::uint32_t p = 0; p < pages; ++p) {
      const std::uint32_t page = p * kPageBytes;
      std::vector<std::uint8_t> bytes;
      for (unsigned attempt = 1;; ++attempt) {
        try {
          bytes = read_page(bar5, page, cancel);
          if (!options.read_twice) break;
          const auto second = read_page(bar5, page, cancel);
          if (bytes == second) break;
          const auto diff = std::mismatch(bytes.begin(), bytes.end(), second.begin());
          result.warnings.push_back(
              fmt::format("page 0x{:06X}: two reads disagreed at 0x{:06X}; read again", page,
                          page + static_cast<std::uint32_t>(diff.first - bytes.begin())));
          if (attempt == 1) ++result.reread_pages;
          if (attempt >= kMaxPageAttempts)
            throw Error(
                ErrorKind::Mismatch,
                fmt::format("reads of the page at 0x{:06X} keep disagreeing; the read path is "
                            "unreliable",
                            page));
        } catch (const Error &e) {
          // A failed ROM_DATA read is never retried in place: the page restarts from ROM_INDEX.
          if (e.kind() != ErrorKind::Device || attempt >= kMaxPageAttempts ||
              bar5.read32(kRomIndex) == kAllOnes)
            throw;
          result.warnings.push_back(
              fmt::format("page 0x{:06X}: {}; restarting the page from ROM_INDEX", page, e.what()));
        }
      }
      result.bytes.insert(result.bytes.end(), bytes.begin(), bytes.end());
      eta.mark("page");
      if (progress)
        progress(eta.progress("rom dump", p + 1, pages, "pages (64 KiB)",
                              eta.eta({{"page", static_cast<double>(pages - p - 1)}})));
    }
  }
  restore();
  if (options.validate) {
    const std::uint8_t magic[4] = {0xAA, 0x55, 0xAA, 0x55};
    if (!std::equal(std::begin(magic), std::end(magic), result.bytes.begin()))
      throw Error(
          ErrorKind::Mismatch,
          fmt::format("the aperture dump does not start with AA 55 AA 55 (it starts {}); an "
                      "empty or corrupt flash, or an aperture that is not the SPI chip; no "
                      "file written",
                      hex_bytes(std::span(result.bytes).first(4))));
    if (std::equal(result.bytes.begin(), result.bytes.begin() + kFlashSize / 2,
                   result.bytes.begin() + kFlashSize / 2))
      throw Error(ErrorKind::Mismatch,
                  "the two 1 MiB halves of the aperture dump are identical: this "
                  "aperture mirrors 1 MiB, not the 2 MiB chip; no file written");
  }
  result.sha256 = wavescope::sha256_hex(result.bytes);
  return result;
}

}  // namespace wavescope::hw::rom
