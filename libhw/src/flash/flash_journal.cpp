#include "wavescope/hw/flash/flash_journal.hpp"

#include <cctype>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::hw::flash {

std::optional<std::uint32_t> FlashJournal::next_sector(bool header_last) const {
  const std::uint32_t end = start_sector + sector_count;
  const bool header_in_range = header_last && start_sector == 0;
  for (std::uint32_t s = header_in_range ? 1 : start_sector; s < end; ++s)
    if (!verified.count(s)) return s;
  if (header_in_range && !verified.count(0)) return 0;
  return std::nullopt;
}

std::optional<FlashJournal> FlashJournal::load(const std::filesystem::path &path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  try {
    const auto j = nlohmann::json::parse(in);
    FlashJournal f;
    f.device = j.at("device");
    f.image_sha256 = j.at("image_sha256");
    f.image_path = j.value("image_path", "");
    f.start_sector = j.at("start_sector");
    f.sector_count = j.at("sector_count");
    f.backup_path = j.value("backup", "");
    f.backup_sha256 = j.value("backup_sha256", "");
    f.protection_cleared = j.value("protection_cleared", false);
    f.old_sr1 = j.value("old_sr1", std::uint8_t{0});
    f.old_sr2 = j.value("old_sr2", std::uint8_t{0});
    f.header_erased = j.value("header_erased", false);
    f.verified = j.at("verified").get<std::set<std::uint32_t>>();
    f.status = j.value("status", "in-progress");
    f.last_error = j.value("last_error", "");
    return f;
  } catch (const nlohmann::json::exception &e) {
    throw Error(ErrorKind::BadInput,
                fmt::format("{} is not a wavescope flash journal: {}", path.string(), e.what()));
  }
}

void FlashJournal::save(const std::filesystem::path &path, bool durable) const {
  const nlohmann::json j = {{"format", 1},
                            {"device", device},
                            {"image_sha256", image_sha256},
                            {"image_path", image_path},
                            {"start_sector", start_sector},
                            {"sector_count", sector_count},
                            {"backup", backup_path},
                            {"backup_sha256", backup_sha256},
                            {"protection_cleared", protection_cleared},
                            {"old_sr1", old_sr1},
                            {"old_sr2", old_sr2},
                            {"header_erased", header_erased},
                            {"verified", verified},
                            {"status", status},
                            {"last_error", last_error}};
  const std::string text = j.dump(1) + "\n";
  if (durable) {
    write_file_atomically(path, text);
    return;
  }
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush())
      throw Error(ErrorKind::Internal, fmt::format("cannot write the journal {}", tmp.string()));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec)
    throw Error(ErrorKind::Internal, fmt::format("cannot rename {} to {}: {}", tmp.string(),
                                                 path.string(), ec.message()));
}

std::string device_file_tag(const std::string &device_id) {
  std::string tag;
  for (char c : device_id)
    tag +=
        (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-') ? c : '-';
  return tag;
}

}  // namespace wavescope::hw::flash
