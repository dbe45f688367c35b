#pragma once
// Reading the flash through the SMUIO ROM_INDEX/ROM_DATA aperture (navi31-flash.md §3.4, §7.7):
// read-only, usable whenever the raw ROM controller answers (also on a booted board, where ROM_SW
// is gated). ROM_DATA streams: every access is a single 32-bit read that returns the next four
// bytes, never part of a block read and never retried — a failed page restarts from ROM_INDEX.
//
// Unlike the reference, ROM_CNTL and ROM_INDEX are written as plain values and restored to their
// exact original values; each 64 KiB page is read twice and must agree; the result must be 2 MiB,
// start with the AA 55 AA 55 magic, and its halves must differ (identical halves = a mirrored
// 1 MiB aperture).

#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/base/cancel_token.hpp"
#include "wavescope/base/progress_eta.hpp"
#include "wavescope/hw/transport/clock.hpp"
#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw::rom {

struct RomDumpOptions {
  bool read_twice = true;
  bool validate = true;  // magic and distinct halves
};

struct RomDumpResult {
  std::vector<std::uint8_t> bytes;
  std::string sha256;
  unsigned reread_pages = 0;
  std::vector<std::string> warnings;
  std::uint32_t rom_cntl = 0, rom_index = 0;  // the values restored at the end
};

RomDumpResult rom_dump(Mmio &bar5, Clock &clock, const RomDumpOptions &options = {},
                       const OperationProgressSink &progress = {},
                       const CancelToken *cancel = nullptr);

}  // namespace wavescope::hw::rom
