#pragma once
// A verified backup of the whole chip (navi31-flash.md §6.3, §9.3): every sector read twice and
// the two reads equal, written atomically, with its SHA-256 — what `flash dump` takes and what a
// recovery keeps before it writes. The read runs in its own session (opened and closed here).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/hw/flash/flash_session.hpp"

namespace wavescope::hw::flash {

// Reads [address, address + size) with every sector read twice and compared, in a session of its
// own: opens it (state probe, RDID gate), reads, closes it (registers restored).
ReadResult read_verified(FlashSession &session, std::uint32_t address, std::size_t size,
                         std::string_view stage, const OperationProgressSink &progress = {});

// "wavescope-backup-<device tag>-<first 12 hex digits of the SHA-256>.bin": the name a write's
// own backup gets in its work directory, so a backup taken first is found and reused.
std::string backup_file_name(const std::string &device_id, const std::string &sha256);

struct BackupResult {
  std::filesystem::path output;
  std::size_t bytes = 0;
  std::string sha256;
  unsigned reread_sectors = 0;  // sectors whose two reads disagreed at first
  bool reused = false;          // an identical file was already there (left untouched)
  std::vector<std::string> warnings;
};

// The whole chip, read verified, into `output` (replaced atomically) or, without one, into
// `work_dir`/backup_file_name(...) — left as it is when it already holds these bytes.
BackupResult backup_flash(FlashSession &session, const std::string &device_id,
                          const std::optional<std::filesystem::path> &output,
                          const std::filesystem::path &work_dir = ".",
                          const OperationProgressSink &progress = {});

}  // namespace wavescope::hw::flash
