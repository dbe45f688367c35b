#pragma once
// What the flash commands report, and the printers for it: JSON (one object, one line) and text.
// Every report names the device it ran on, the ROM_SW optimizations in force and the transport's
// operation counts. The tool picks the printer; the library prints.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wavescope/hw/flash/flash_operations.hpp"
#include "wavescope/hw/flash/flash_writer.hpp"
#include "wavescope/hw/transport/mmio.hpp"

namespace wavescope::hw::flash {

// The device a command ran on, as every flash report names it.
struct FlashRun {
  std::string device;    // e.g. "sim:board", "pci:0000:03:00.0"
  std::string optimize;  // FlashOptimizations::describe()
  TransportStats transport;
};

// `flash info`: board state, JEDEC id, status registers, protection, SFDP.
struct FlashInfoReport {
  FlashRun run;
  std::string board_state;        // BoardProbe::state_name()
  std::string board_explanation;  // BoardProbe::explanation()
  FlashInfo info;
};
std::string to_json(const FlashInfoReport &report);
std::string to_text(const FlashInfoReport &report);

// `flash read`: a range read with every sector read twice; into a file, or the bytes themselves
// (hex in JSON, an xxd-style dump as text).
struct FlashReadReport {
  FlashRun run;
  std::uint64_t address = 0, size = 0;
  std::string sha256;
  unsigned reread_sectors = 0;
  std::optional<std::string> output;  // the file written, if any
  std::vector<std::uint8_t> bytes;    // shown when there is no output file
};
std::string to_json(const FlashReadReport &report);
std::string to_text(const FlashReadReport &report);

// `flash dump`: the whole chip into a file.
struct FlashDumpReport {
  FlashRun run;
  std::string output;
  std::size_t bytes = 0;
  std::string sha256;
  unsigned reread_sectors = 0;
};
std::string to_json(const FlashDumpReport &report);
std::string to_text(const FlashDumpReport &report);

// `flash verify`: the chip matches an image.
struct FlashVerifyReport {
  FlashRun run;
  std::string image;
  std::string sha256;
};
std::string to_json(const FlashVerifyReport &report);
std::string to_text(const FlashVerifyReport &report);

// `flash write`: what the write did; for a dry run, on which simulated copy.
struct FlashDryRun {
  std::string device;       // the device whose chip was copied
  std::string chip_sha256;  // of the copy (read twice and equal)
  double simulated_seconds = 0;
};
struct FlashWriteReport {
  FlashRun run;
  std::string image;
  WriteSummary summary;
  std::optional<FlashDryRun> dry_run;
};
std::string to_json(const FlashWriteReport &report);
std::string to_text(const FlashWriteReport &report);

// "SR1 0x.. (BUSY b, WEL b, BP4..0 0x.., SRP0 b), SR2 0x.. (SRP1 b, QE b, LB 0x., CMP b)".
std::string describe_status_registers(std::uint8_t sr1, std::uint8_t sr2);
// xxd-style lines: "00001000: C8 60 15 ...  |.`..|".
std::string hex_dump(std::uint64_t address, std::span<const std::uint8_t> bytes);

}  // namespace wavescope::hw::flash
