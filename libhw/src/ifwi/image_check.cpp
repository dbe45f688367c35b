#include "wavescope/hw/ifwi/image_check.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "ifwi/le_bytes.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::hw::ifwi {
namespace {

class Findings {
public:
  explicit Findings(std::vector<ImageFinding> &out) : out_(out) {}
  template <typename... Args>
  void error(std::uint64_t offset, fmt::format_string<Args...> format, Args &&...args) {
    add(FindingSeverity::Error, offset, fmt::format(format, std::forward<Args>(args)...));
  }
  template <typename... Args>
  void warning(std::uint64_t offset, fmt::format_string<Args...> format, Args &&...args) {
    add(FindingSeverity::Warning, offset, fmt::format(format, std::forward<Args>(args)...));
  }

private:
  void add(FindingSeverity severity, std::uint64_t offset, std::string text) {
    out_.push_back({severity, offset, fmt::format("{:#08x}: {}", offset, text)});
  }
  std::vector<ImageFinding> &out_;
};

// A damaged table can hold thousands of bad entries, which would bury everything else (and take
// long to format): the first few are reported one by one, the rest as one count.
class TableFindings {
public:
  TableFindings(Findings &findings, std::string_view table) : findings_(findings), table_(table) {}
  template <typename... Args>
  void error(std::uint64_t offset, fmt::format_string<Args...> format, Args &&...args) {
    if (++count_ <= kShown)
      findings_.error(offset, format, std::forward<Args>(args)...);
    else if (count_ == kShown + 1)
      first_hidden_ = offset;
  }
  void finish() {
    if (count_ > kShown)
      findings_.error(first_hidden_, "{} more bad entries in the {}", count_ - kShown, table_);
  }

private:
  static constexpr std::size_t kShown = 8;
  Findings &findings_;
  std::string_view table_;
  std::size_t count_ = 0;
  std::uint64_t first_hidden_ = 0;
};

bool range_inside(std::uint64_t offset, std::uint64_t size, std::uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

void check_size_and_magic(std::span<const std::uint8_t> image, const IfwiLayout &layout,
                          const ImageCheckOptions &options, Findings &findings) {
  if (image.size() != options.expected_size) {
    findings.error(image.size(),
                   "the image is {} bytes ({:#x}); a Navi31 flash image is {} ({:#x})",
                   image.size(), image.size(), options.expected_size, options.expected_size);
  }
  if (!layout.efs) {
    findings.error(0, "too short for the {:#x}-byte EFS header", kEfsHeaderSize);
    return;
  }
  if (layout.efs->magic != kEfsMagic) {
    findings.error(0, "magic is {:#010x}, expected {:#010x} (bytes AA 55 AA 55)", layout.efs->magic,
                   kEfsMagic);
    return;  // not an IFWI image: the pointers below would only add noise
  }
  if (layout.efs->psp_directory != kPrimaryPspDirectoryOffset)
    findings.warning(0x14, "EFS $PSP pointer is {:#x}; the PSP reads its directory at {:#x}",
                     layout.efs->psp_directory, kPrimaryPspDirectoryOffset);
  if (layout.efs->backup_psp_directory != kBackupPspDirectoryOffset)
    findings.warning(0x2C, "EFS backup $PSP pointer is {:#x}; the PSP reads it at {:#x}",
                     layout.efs->backup_psp_directory, kBackupPspDirectoryOffset);
}

void check_psp_directory(const std::optional<PspDirectory> &dir, std::uint64_t where,
                         std::string_view name, std::uint64_t limit, Findings &findings) {
  if (!dir) {
    findings.error(where, "no $PSP cookie for the {} $PSP directory", name);
    return;
  }
  if (dir->entries_truncated() || dir->entry_count == 0) {
    findings.error(where + 8, "{} $PSP directory claims {} entries; {} fit in the image", name,
                   dir->entry_count, dir->entries_in_image);
  }
  if (!dir->entries_truncated() && !dir->checksum_ok()) {
    findings.error(where + 4,
                   "{} $PSP directory checksum is {:#010x}, Fletcher-32 of its body is "
                   "{:#010x}",
                   name, dir->checksum, *dir->computed_checksum);
  }
  const std::string table = fmt::format("{} $PSP directory", name);
  TableFindings entry_findings(findings, table);
  for (std::size_t i = 0; i < dir->entries.size(); ++i) {
    const auto &entry = dir->entries[i];
    if (!range_inside(entry.location, entry.size, limit)) {
      entry_findings.error(
          where + 16 + 16 * i,
          "{} $PSP entry {} (type {:#x}) points at {:#x}..{:#x}, outside the {:#x}-byte "
          "image",
          name, i, entry.type, entry.location, entry.location + entry.size, limit);
    }
  }
  entry_findings.finish();
  const auto points_at = [&](std::uint32_t type, std::uint64_t ish) {
    for (const auto &entry : dir->entries)
      if (entry.type == type) return entry.location == ish;
    return false;
  };
  if (!points_at(kPspRegionAFirmwareId, kIshAOffset) ||
      !points_at(kPspRegionBFirmwareId, kIshBOffset))
    findings.warning(where,
                     "{} $PSP directory does not point its 0x13C/0x13D entries at the image-slot "
                     "headers {:#x}/{:#x}",
                     name, kIshAOffset, kIshBOffset);
}

void check_sgn(const IfwiLayout &layout, std::uint64_t limit, Findings &findings) {
  if (!layout.sgn_pointer) return;  // the size finding already covers an image this short
  const std::uint32_t pointer = *layout.sgn_pointer;
  if (pointer >= limit) {
    findings.error(kSgnPointerOffset, "$SGN pointer is {:#x}, outside the {:#x}-byte image",
                   pointer, limit);
    return;
  }
  if (!layout.sgn) {
    findings.error(pointer, "no $SGN cookie where the pointer at {:#x} points", kSgnPointerOffset);
    return;
  }
  const auto &sgn = *layout.sgn;
  if (sgn.entries_truncated())
    findings.error(pointer + 8, "$SGN table claims {} entries; {} fit in the image",
                   sgn.entry_count, sgn.entries_in_image);
  else if (!sgn.checksum_ok())
    findings.warning(pointer + 4, "$SGN checksum is {:#010x}, CRC-32 of its body is {:#010x}",
                     sgn.checksum, *sgn.computed_checksum);
  std::array<int, 8> seen{};
  TableFindings entry_findings(findings, "$SGN table");
  for (std::size_t i = 0; i < sgn.entries.size(); ++i) {
    const auto &entry = sgn.entries[i];
    const std::uint64_t at = pointer + 16 + 16 * i;
    if (entry.sign_type >= 1 && entry.sign_type <= 7)
      ++seen[entry.sign_type];
    else
      entry_findings.error(at, "$SGN entry {} has sign type {}, expected 1..7", i, entry.sign_type);
    if (!range_inside(entry.offset, entry.size, limit))
      entry_findings.error(
          at, "$SGN entry {} (sign type {}) points at {:#x}..{:#x}, outside the image", i,
          entry.sign_type, entry.offset, std::uint64_t(entry.offset) + entry.size);
  }
  entry_findings.finish();
  for (std::uint32_t type = 1; type <= 7; ++type) {
    if (seen[type] == 0) findings.error(pointer, "$SGN table has no entry of sign type {}", type);
    if (seen[type] > 1)
      findings.error(pointer, "$SGN table has {} entries of sign type {}", seen[type], type);
  }
}

void check_ish(const std::optional<ImageSlotHeader> &ish, std::uint64_t where, char slot,
               std::uint64_t limit, Findings &findings) {
  if (!ish) return;  // the size finding already covers an image this short
  if (ish->blank()) {
    findings.error(where, "image-slot header {} is blank", slot);
    return;
  }
  if (!range_inside(ish->slot_address, ish->slot_max_size, limit))
    findings.error(where + 0x10,
                   "ISH {} slot {:#x}..{:#x} (max size {:#x}) ends outside the {:#x}-byte "
                   "image",
                   slot, ish->slot_address, std::uint64_t(ish->slot_address) + ish->slot_max_size,
                   ish->slot_max_size, limit);
  if (ish->slot_max_size % 4 != 0)
    findings.error(where + 0x18, "ISH {} slot max size {:#x} is not a multiple of 4", slot,
                   ish->slot_max_size);
  if (ish->checksum != ish->computed_checksum)
    findings.warning(where,
                     "ISH {} checksum {:#010x} differs from CRC-32 of bytes 4..0x1F "
                     "({:#010x}; the real algorithm is not known)",
                     slot, ish->checksum, ish->computed_checksum);
}

void check_partitions(const IfwiLayout &layout, const ImageCheckOptions &options,
                      Findings &findings) {
  for (const auto &part : layout.partitions) {
    if (!part.option_rom) {
      findings.warning(part.offset, "partition {} has no VBIOS option ROM the tool recognises",
                       part.slot);
      continue;
    }
    const auto &rom = *part.option_rom;
    if (!rom.pcir_device_id) {
      findings.warning(rom.offset, "VBIOS of partition {} has no PCIR structure", part.slot);
      continue;
    }
    if (*rom.pcir_vendor_id != options.expected_vendor_id ||
        *rom.pcir_device_id != options.expected_device_id) {
      findings.error(rom.offset,
                     "VBIOS of partition {} is for PCI {:04x}:{:04x}, this board is "
                     "{:04x}:{:04x}",
                     part.slot, *rom.pcir_vendor_id, *rom.pcir_device_id,
                     options.expected_vendor_id, options.expected_device_id);
    }
  }
}

}  // namespace

ImageCheck validate_flash_image(std::span<const std::uint8_t> image,
                                const ImageCheckOptions &options) {
  ImageCheck check;
  check.layout = parse_ifwi(image);
  Findings findings(check.findings);
  const auto &layout = check.layout;
  check_size_and_magic(image, layout, options, findings);
  if (!layout.efs || layout.efs->magic != kEfsMagic) return check;
  // Ranges are checked against the flash size: an entry is only valid if it exists on the chip.
  const std::uint64_t limit = std::min<std::uint64_t>(image.size(), options.expected_size);
  check_psp_directory(layout.primary_psp, kPrimaryPspDirectoryOffset, "primary", limit, findings);
  check_psp_directory(layout.backup_psp, kBackupPspDirectoryOffset, "backup", limit, findings);
  check_sgn(layout, limit, findings);
  check_ish(layout.ish_a, kIshAOffset, 'A', limit, findings);
  check_ish(layout.ish_b, kIshBOffset, 'B', limit, findings);
  check_partitions(layout, options, findings);
  if (layout.halves_identical)
    findings.error(image.size() / 2,
                   "the two halves of the image are identical: this looks like a "
                   "mirrored read of a smaller chip, not a {:#x}-byte image",
                   image.size());
  return check;
}

std::size_t ImageCheck::error_count() const {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(),
                    [](const auto &f) { return f.severity == FindingSeverity::Error; }));
}

std::size_t ImageCheck::warning_count() const { return findings.size() - error_count(); }

std::string ImageCheck::error_summary() const {
  std::string out;
  for (const auto &f : findings) {
    if (f.severity != FindingSeverity::Error) continue;
    if (!out.empty()) out += "; ";
    out += f.message;
  }
  return out;
}

void ImageCheck::require_accepted(std::string_view override_hint) const {
  if (accepted()) return;
  std::string message = fmt::format("image rejected ({} problem{}): {}", error_count(),
                                    error_count() == 1 ? "" : "s", error_summary());
  if (!override_hint.empty()) message += fmt::format(" — {}", override_hint);
  throw Error(ErrorKind::BadInput, message);
}

std::string_view to_string(FindingSeverity severity) {
  return severity == FindingSeverity::Error ? "error" : "warning";
}

}  // namespace wavescope::hw::ifwi
