#include "wavescope/hw/flash/flash_backup.hpp"

#include <span>

#include <fmt/format.h>

#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/flash/flash_journal.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::flash {

namespace fs = std::filesystem;

ReadResult read_verified(FlashSession &session, std::uint32_t address, std::size_t size,
                         std::string_view stage, const OperationProgressSink &progress) {
  session.open();
  auto result = session.read(address, size, ReadCheck::ReadTwice, stage, progress);
  session.close();
  return result;
}

std::string backup_file_name(const std::string &device_id, const std::string &sha256) {
  return fmt::format("wavescope-backup-{}-{}.bin", device_file_tag(device_id),
                     sha256.substr(0, 12));
}

BackupResult backup_flash(FlashSession &session, const std::string &device_id,
                          const std::optional<fs::path> &output, const fs::path &work_dir,
                          const OperationProgressSink &progress) {
  auto read = read_verified(session, 0, navi31::kFlashSize, "backup", progress);
  BackupResult result;
  result.bytes = read.bytes.size();
  result.sha256 = sha256_hex(read.bytes);
  result.reread_sectors = read.reread_sectors;
  result.warnings = std::move(read.warnings);
  result.output = output ? *output : work_dir / backup_file_name(device_id, result.sha256);
  if (!output && fs::exists(result.output) &&
      sha256_hex(read_file_bytes(result.output, "backup")) == result.sha256) {
    result.reused = true;
    return result;
  }
  write_file_atomically(result.output,
                        std::span<const unsigned char>(read.bytes.data(), read.bytes.size()));
  return result;
}

}  // namespace wavescope::hw::flash
