#pragma once
// The write journal (navi31-flash.md §9.8): a small JSON file beside the backup that records
// which image is being written to which device, where the backup is, and every sector verified
// so far, rewritten atomically after each sector. `flash write --resume` reads it to carry on
// with the first unverified sector.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>

namespace wavescope::hw::flash {

struct FlashJournal {
  std::string device;
  std::string image_sha256;
  std::string image_path;
  std::uint32_t start_sector = 0;
  std::uint32_t sector_count = 0;
  std::string backup_path;  // empty with --no-backup
  std::string backup_sha256;
  bool protection_cleared = false;
  std::uint8_t old_sr1 = 0, old_sr2 = 0;
  bool header_erased = false;  // header-last order: sector 0 erased, to be programmed last
  std::set<std::uint32_t> verified;
  std::string status = "in-progress";  // in-progress | complete | failed | interrupted
  std::string last_error;

  // The first sector of the range not yet verified (in write order), if any.
  std::optional<std::uint32_t> next_sector(bool header_last) const;

  // Throws Error(BadInput) naming the file when it is not a journal.
  static std::optional<FlashJournal> load(const std::filesystem::path &path);
  // Replaces the file atomically (temporary file + rename). `durable` also flushes it to disk
  // first; per-sector updates skip that (a lost update only means a sector is redone).
  void save(const std::filesystem::path &path, bool durable = true) const;
};

// "sim:bench" → "sim-bench", "pci:0000:03:00.0" → "pci-0000-03-00.0": safe in file names.
std::string device_file_tag(const std::string &device_id);

}  // namespace wavescope::hw::flash
