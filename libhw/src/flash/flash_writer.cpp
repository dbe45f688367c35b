#include "wavescope/hw/flash/flash_writer.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>

#include <fmt/format.h>

#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/base/scope_guard.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/flash/flash_backup.hpp"
#include "wavescope/hw/flash/flash_journal.hpp"
#include "wavescope/hw/ifwi/image_check.hpp"
#include "wavescope/hw/navi31/protection.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/remedy/refusal.hpp"

namespace wavescope::hw::flash {

using namespace navi31;
namespace fs = std::filesystem;

namespace {

bool all_ff(std::span<const std::uint8_t> bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t b) { return b == 0xFF; });
}

// The write sequence over one sector range, with the journal and the summary it keeps current.
class SectorWriter {
public:
  SectorWriter(FlashSession &session, const WriteRequest &request, FlashJournal &journal,
               const fs::path &journal_file, WriteSummary &summary,
               const OperationProgressSink &progress)
      : s_(session), chip_(session.chip()), request_(request), journal_(journal),
        journal_file_(journal_file), summary_(summary), progress_(progress),
        header_in_range_(request.header_last && journal.start_sector == 0) {
    auto &eta = s_.eta();
    const double txn = eta.cost("rx-transaction").value_or(25);
    eta.assume("sector-read", txn * (s_.options().optimize.pipelined_reads ? 17 : 32));
    eta.assume("erase", txn * 20);
    eta.assume("page", txn * 6);
    const std::uint32_t end = journal_.start_sector + journal_.sector_count;
    for (std::uint32_t s = journal_.start_sector; s < end; ++s) {
      const auto sector = request_.image.subspan(s * kSectorSize, kSectorSize);
      unsigned pages = 0;
      for (std::size_t p = 0; p < kPagesPerSector; ++p)
        pages += !all_ff(sector.subspan(p * kPageSize, kPageSize));
      nonblank_pages_.push_back(pages);
    }
  }

  std::span<const std::uint8_t> want(std::uint32_t sector) const {
    return request_.image.subspan(sector * kSectorSize, kSectorSize);
  }

  std::vector<std::uint8_t> read_sector(std::uint32_t sector) {
    auto bytes = s_.read(sector * kSectorSize, kSectorSize, ReadCheck::Single, "write").bytes;
    s_.eta().mark("sector-read");
    return bytes;
  }

  // Reads a sector back after writing; a first mismatch is read again once (transient read).
  void verify_sector(std::uint32_t sector, const char *after) {
    const auto expected = want(sector);
    auto back = read_sector(sector);
    if (std::equal(back.begin(), back.end(), expected.begin())) return;
    const auto again = read_sector(sector);
    const auto diff = std::mismatch(again.begin(), again.end(), expected.begin());
    if (diff.first == again.end()) {
      summary_.warnings.push_back(fmt::format(
          "sector {}: the read-back differed once, a second read matched (transient read error)",
          sector));
      return;
    }
    const std::uint32_t address =
        sector * kSectorSize + static_cast<std::uint32_t>(diff.first - again.begin());
    throw Error(
        ErrorKind::Mismatch,
        fmt::format("verify of sector {} failed after {}: flash 0x{:02X} at 0x{:06X}, image "
                    "0x{:02X}",
                    sector, after, *diff.first, address, *diff.second));
  }

  // Header-last order (§9.14): sector 0 carries the magic, so while it is blank the board cannot
  // boot and ROM_SW stays usable for a resume. It is erased before the first change to any
  // sector of the range — also when its own content already matches — and programmed last.
  void protect_header() {
    if (!header_in_range_ || journal_.header_erased || journal_.verified.count(0)) return;
    const auto current = read_sector(0);
    if (!all_ff(current)) {
      chip_.erase_sector(0);
      ++summary_.erases;
      s_.eta().mark("erase");
      const auto back = read_sector(0);
      if (!all_ff(back)) {
        const auto it =
            std::find_if(back.begin(), back.end(), [](std::uint8_t b) { return b != 0xFF; });
        throw Error(ErrorKind::Mismatch,
                    fmt::format("erase of sector 0 failed: 0x{:06X} reads 0x{:02X} instead of 0xFF",
                                static_cast<std::uint32_t>(it - back.begin()), *it));
      }
    }
    journal_.header_erased = true;
    journal_.save(journal_file_);
  }

  // Sector 0 needs a change of its own: make the board unbootable at once.
  void start_header_last() {
    const auto current = read_sector(0);
    if (!std::equal(current.begin(), current.end(), want(0).begin())) protect_header();
  }

  void write_sector(std::uint32_t sector) {
    const auto expected = want(sector);
    std::optional<std::vector<std::uint8_t>> current;
    if (request_.skip_unchanged || (sector == 0 && journal_.header_erased))
      current = read_sector(sector);
    if (current && std::equal(current->begin(), current->end(), expected.begin())) {
      ++summary_.sectors_skipped;
      finish_sector(sector);
      return;
    }
    if (sector != 0) protect_header();
    // Erase unless the sector is already blank, or (option) programming alone reaches the image.
    bool erase = true;
    if (current && all_ff(*current))
      erase = false;
    else if (current && s_.options().optimize.skip_erase) {
      erase = !std::equal(
          current->begin(), current->end(), expected.begin(),
          [](std::uint8_t flash, std::uint8_t image) { return (flash & image) == image; });
      if (!erase) ++summary_.erases_skipped;
    }
    if (erase) {
      chip_.erase_sector(sector * kSectorSize);
      ++summary_.erases;
      s_.eta().mark("erase");
    }
    for (std::size_t p = 0; p < kPagesPerSector; ++p) {
      const auto page = expected.subspan(p * kPageSize, kPageSize);
      const bool needed =
          (erase || (current && all_ff(*current)))
              ? !all_ff(page)
              : !std::equal(page.begin(), page.end(), current->begin() + p * kPageSize);
      if (!needed) continue;
      chip_.program_page(static_cast<std::uint32_t>(sector * kSectorSize + p * kPageSize), page);
      ++summary_.pages_programmed;
      s_.eta().mark("page");
    }
    verify_sector(sector, erase ? "erase and program" : "program");
    ++summary_.sectors_written;
    ++written_;
    finish_sector(sector);
  }

  void finish_sector(std::uint32_t sector) {
    journal_.verified.insert(sector);
    if (sector == 0) journal_.header_erased = false;
    // Flushed to disk at most once a second; in between the rename is still atomic.
    const auto now = std::chrono::steady_clock::now();
    const bool durable = now - last_durable_ >= std::chrono::seconds(1);
    if (durable) last_durable_ = now;
    journal_.save(journal_file_, durable);
    ++processed_;
    report();
  }

  void report() {
    if (!progress_) return;
    auto &eta = s_.eta();
    const std::uint32_t total = journal_.sector_count;
    const auto done = static_cast<std::uint32_t>(journal_.verified.size());
    // Price the sectors still to do with what sectors cost so far: a pre-read each, and for the
    // share that needed writing an erase, their non-blank pages and a read-back.
    const double changed = processed_ ? static_cast<double>(written_) / processed_ : 1.0;
    double pages = 0, left = 0;
    for (std::uint32_t s = journal_.start_sector; s < journal_.start_sector + total; ++s) {
      if (journal_.verified.count(s)) continue;
      ++left;
      pages += nonblank_pages_[s - journal_.start_sector];
    }
    const auto remaining = eta.eta({{"sector-read", left * (1 + changed)},
                                    {"erase", left * changed},
                                    {"page", pages * changed}});
    progress_(eta.progress("write", done, total, "sectors", remaining));
  }

private:
  FlashSession &s_;
  Gd25Flash &chip_;
  const WriteRequest &request_;
  FlashJournal &journal_;
  const fs::path &journal_file_;
  WriteSummary &summary_;
  const OperationProgressSink &progress_;
  std::vector<unsigned> nonblank_pages_;
  unsigned processed_ = 0, written_ = 0;
  std::chrono::steady_clock::time_point last_durable_ = std::chrono::steady_clock::now();
  bool header_in_range_ = false;
};

// How far the journalled write got, and how to carry on: `prefix` (an error's message and ". ",
// or nothing) and then what is verified, where the journal and the backup are.
Advice resume_advice(const std::string &prefix, const WriteRequest &request,
                     const FlashJournal &journal, const fs::path &journal_file) {
  const auto next = journal.next_sector(request.header_last);
  std::string problem =
      prefix + fmt::format("{} of {} sectors are verified (journal {})", journal.verified.size(),
                           journal.sector_count, journal_file.string());
  if (!journal.backup_path.empty())
    problem += fmt::format("; the backup of the original contents is {}", journal.backup_path);
  return {Remedy::ResumeWrite,
          problem,
          {request.image_path, journal.device,
           next ? fmt::format(" (next sector {}, 0x{:06X})", *next, *next * kSectorSize) : ""}};
}

}  // namespace

WritePlan check_write_request(const WriteRequest &request) {
  if (!request.confirmed)
    throw Refusal(ErrorKind::Usage,
                  {Remedy::ConfirmWrite, "flash write erases and programs the chip", {}});
  if (request.backup && request.no_backup)
    throw Refusal(ErrorKind::Usage, {Remedy::OneBackupChoice, "", {}});
  if (request.resume && (request.start_sector || request.sector_count))
    throw Refusal(ErrorKind::Usage, {Remedy::ResumeKeepsRange, "", {}});
  navi31::check_flash_image_size(request.image.size(), request.image_path);
  WritePlan plan;
  const auto check = ifwi::validate_flash_image(request.image);
  for (const auto &f : check.findings) {
    if (f.severity == ifwi::FindingSeverity::Warning)
      plan.image_findings.push_back("warning: " + f.message);
    else if (request.force_image)
      plan.image_findings.push_back("forced past: " + f.message);
  }
  if (!request.force_image) {
    try {
      check.require_accepted();
    } catch (const Error &e) {
      throw Refusal(e.kind(), {Remedy::ForceImage, e.what(), {}});
    }
  }
  plan.start_sector = request.start_sector.value_or(0);
  if (plan.start_sector >= kSectorCount)
    throw Refusal(ErrorKind::Usage,
                  {Remedy::StartSectorInRange,
                   fmt::format("{} is out of range (0-{})", plan.start_sector, kSectorCount - 1),
                   {}});
  plan.sector_count =
      request.sector_count.value_or(static_cast<std::uint32_t>(kSectorCount) - plan.start_sector);
  if (plan.sector_count < 1 || plan.start_sector + plan.sector_count > kSectorCount)
    throw Refusal(ErrorKind::Usage,
                  {Remedy::SectorCountInRange,
                   fmt::format("{} is out of range (1-{} from sector {})", plan.sector_count,
                               kSectorCount - plan.start_sector, plan.start_sector),
                   {}});
  plan.image_sha256 = sha256_hex(request.image);
  return plan;
}

PlannedWrite plan_write_from_file(WriteRequest request, const std::filesystem::path &path) {
  if (!request.confirmed) (void)check_write_request(request);  // the gate, before the file
  PlannedWrite planned;
  planned.image = read_file_bytes(path, "image");
  request.image = planned.image;
  request.image_path = path.string();
  planned.request = std::move(request);
  planned.plan = check_write_request(planned.request);
  return planned;
}

fs::path journal_path(const WriteRequest &request, const std::string &device_id) {
  if (request.journal) return *request.journal;
  const fs::path dir = request.backup && request.backup->has_parent_path()
                           ? request.backup->parent_path()
                           : request.work_dir;
  return dir / ("wavescope-journal-" + device_file_tag(device_id) + ".json");
}

namespace {

// Plan: the journal this write continues (resume: the same device and image, not finished) or
// starts (refused while another write's journal is unfinished).
FlashJournal plan_journal(const WriteRequest &request, const WritePlan &plan,
                          const std::string &device_id, const fs::path &journal_file) {
  const auto existing = FlashJournal::load(journal_file);
  FlashJournal journal;
  if (request.resume) {
    if (!existing)
      throw Error(ErrorKind::Usage,
                  fmt::format("nothing to resume: no journal at {}", journal_file.string()));
    if (existing->device != device_id)
      throw Error(ErrorKind::Usage,
                  fmt::format("the journal {} records a write to {}, not {}", journal_file.string(),
                              existing->device, device_id));
    if (existing->image_sha256 != plan.image_sha256)
      throw Error(ErrorKind::Usage,
                  fmt::format("the journal {} records a write of another image (SHA-256 {}); give "
                              "that image, or start over by deleting the journal",
                              journal_file.string(), existing->image_sha256));
    if (existing->status == "complete")
      throw Error(ErrorKind::Usage,
                  fmt::format("the write recorded in {} completed; nothing to resume",
                              journal_file.string()));
    journal = *existing;
  } else {
    if (existing && existing->status != "complete")
      throw Refusal(ErrorKind::Usage,
                    {Remedy::ResumeOrDeleteJournal,
                     fmt::format("an unfinished write (image SHA-256 {}, {} of {} sectors "
                                 "verified) is recorded in {}",
                                 existing->image_sha256, existing->verified.size(),
                                 existing->sector_count, journal_file.string()),
                     {}});
    journal.device = device_id;
    journal.image_sha256 = plan.image_sha256;
    journal.image_path = request.image_path;
    journal.start_sector = plan.start_sector;
    journal.sector_count = plan.sector_count;
  }
  return journal;
}

// Protect (check): SR1/SR2 read, the protected range (BP and CMP) against the range to write;
// refused unless clearing the protection was asked for. Returns whether it must be cleared.
bool check_protection(Gd25Flash &chip, const WriteRequest &request, const FlashJournal &journal,
                      std::uint8_t &sr1, std::uint8_t &sr2, WriteSummary &summary) {
  sr1 = chip.read_status(spi::kReadStatus1);
  sr2 = chip.read_status(spi::kReadStatus2);
  const auto protection = protected_range(sr1, sr2, kFlashSize);
  summary.protection_before = protection.describe(kFlashSize);
  const bool needs_clear =
      protection.intersects(journal.start_sector * kSectorSize, journal.sector_count * kSectorSize);
  if (needs_clear && !request.clear_protection)
    throw Refusal(ErrorKind::Chip,
                  {Remedy::ClearProtection,
                   fmt::format("write protection covers {} (SR1 0x{:02X}: BP4..BP0 = 0x{:02X}; "
                               "SR2 0x{:02X}: CMP = {}), which overlaps the sectors to write; "
                               "nothing was written",
                               summary.protection_before, sr1, (sr1 & kSr1BpMask) >> 2, sr2,
                               (sr2 & kSr2Cmp) ? 1 : 0),
                   {}});
  return needs_clear;
}

// Backup, before anything is written: the journal's (resume), none (asked for), an existing
// file checked against the chip's first and last sectors, or a fresh verified read of the chip.
void take_backup(FlashSession &session, const std::string &device_id, const WriteRequest &request,
                 const FlashJournal &journal, const OperationProgressSink &progress,
                 WriteSummary &summary) {
  if (request.resume) {
    if (!journal.backup_path.empty()) {
      if (!fs::exists(journal.backup_path) ||
          sha256_hex(read_file_bytes(journal.backup_path, "backup")) != journal.backup_sha256)
        throw Error(ErrorKind::Mismatch,
                    fmt::format("the backup {} recorded in the journal is missing or changed; "
                                "refusing to continue without it",
                                journal.backup_path));
      summary.backup = journal.backup_path;
      summary.backup_sha256 = journal.backup_sha256;
      summary.backup_reused = true;
    }
  } else if (request.no_backup) {
    summary.warnings.push_back(
        "no backup taken, as asked: the chip's current contents are not saved");
  } else if (request.backup && fs::exists(*request.backup)) {
    const auto bytes = read_file_bytes(*request.backup, "backup");
    if (bytes.size() != kFlashSize)
      throw Error(ErrorKind::BadInput,
                  fmt::format("backup {} is {} bytes, not 2 MiB; refusing to use it",
                              request.backup->string(), bytes.size()));
    // A cheap "this backup is of this chip" check (§9.3): the first and last sectors.
    for (std::uint32_t sector : {0u, static_cast<std::uint32_t>(kSectorCount - 1)}) {
      const auto now =
          session.read(sector * kSectorSize, kSectorSize, ReadCheck::ReadTwice, "backup").bytes;
      const auto diff = std::mismatch(now.begin(), now.end(), bytes.begin() + sector * kSectorSize);
      if (diff.first != now.end())
        throw Refusal(
            ErrorKind::Mismatch,
            {Remedy::FreshBackup,
             fmt::format("backup {} is not of this chip's current contents (sector {} differs "
                         "at 0x{:06X}: chip 0x{:02X}, file 0x{:02X}); nothing was written",
                         request.backup->string(), sector,
                         sector * kSectorSize +
                             static_cast<std::uint32_t>(diff.first - now.begin()),
                         *diff.first, *diff.second),
             {}});
    }
    summary.backup = *request.backup;
    summary.backup_sha256 = sha256_hex(bytes);
    summary.backup_reused = true;
  } else {
    auto result = session.read(0, kFlashSize, ReadCheck::ReadTwice, "backup", progress);
    for (auto &w : result.warnings) summary.warnings.push_back("backup: " + w);
    summary.backup_sha256 = sha256_hex(result.bytes);
    const fs::path path =
        request.backup ? *request.backup
                       : request.work_dir / backup_file_name(device_id, summary.backup_sha256);
    if (fs::exists(path) && sha256_hex(read_file_bytes(path, "backup")) == summary.backup_sha256) {
      summary.backup_reused = true;  // an identical backup is already there
    } else {
      if (fs::exists(path))
        throw Refusal(ErrorKind::Usage,
                      {Remedy::BackupPathTaken,
                       fmt::format("{} exists with other contents; refusing to overwrite a backup",
                                   path.string()),
                       {}});
      write_file_atomically(
          path, std::span<const unsigned char>(result.bytes.data(), result.bytes.size()));
    }
    summary.backup = path;
  }
}

// Protect: clear BP and CMP (recorded in the journal first) and check that they cleared.
void clear_protection(Gd25Flash &chip, FlashJournal &journal, std::uint8_t sr1, std::uint8_t sr2,
                      WriteSummary &summary) {
  journal.protection_cleared = true;
  journal.save(summary.journal);
  chip.write_status(static_cast<std::uint8_t>(sr1 & ~kSr1BpMask),
                    static_cast<std::uint8_t>(sr2 & ~kSr2Cmp));
  const std::uint8_t new1 = chip.read_status(spi::kReadStatus1);
  const std::uint8_t new2 = chip.read_status(spi::kReadStatus2);
  if ((new1 & kSr1BpMask) || (new2 & kSr2Cmp))
    throw Error(ErrorKind::Chip,
                fmt::format("status register locked (SRP0/SRP1/WP#): protection bits survived the "
                            "status write (SR1 0x{:02X}, SR2 0x{:02X}); nothing was erased",
                            new1, new2));
  summary.protection_cleared = true;
}

// Write: sector by sector in header-last order, stopping between sectors on a cancel request.
void write_sectors(SectorWriter &writer, const WriteRequest &request, const FlashJournal &journal,
                   const CancelToken *cancel, WriteSummary &summary) {
  const std::uint32_t end = journal.start_sector + journal.sector_count;
  const bool header_in_range = request.header_last && journal.start_sector == 0;
  if (header_in_range && !journal.verified.count(0) && !journal.header_erased)
    writer.start_header_last();
  for (std::uint32_t s = header_in_range ? 1 : journal.start_sector; s < end; ++s) {
    if (journal.verified.count(s)) continue;
    if (cancel && cancel->stop_requested()) {
      summary.interrupted = true;
      break;
    }
    writer.write_sector(s);
  }
  if (header_in_range && !journal.verified.count(0) && !summary.interrupted) {
    if (cancel && cancel->stop_requested())
      summary.interrupted = true;
    else
      writer.write_sector(0);
  }
}

// Verify: the whole range read once more (a sector that reads wrong is read again before it
// fails the write), its SHA-256, then the old protection restored if asked.
void final_verify(FlashSession &session, const WriteRequest &request, FlashJournal &journal,
                  std::uint32_t range_begin, std::uint32_t range_size,
                  const OperationProgressSink &progress, WriteSummary &summary) {
  auto &chip = session.chip();
  auto result = session.read(range_begin, range_size, ReadCheck::Single, "final verify", progress);
  const auto expected = request.image.subspan(range_begin, range_size);
  auto diff = std::mismatch(result.bytes.begin(), result.bytes.end(), expected.begin());
  if (diff.first != result.bytes.end()) {
    const auto offset = static_cast<std::uint32_t>(diff.first - result.bytes.begin());
    const std::uint32_t sector = (range_begin + offset) / kSectorSize;
    const auto again =
        session.read(sector * kSectorSize, kSectorSize, ReadCheck::Single, "final verify").bytes;
    const auto d2 =
        std::mismatch(again.begin(), again.end(), request.image.begin() + sector * kSectorSize);
    if (d2.first != again.end()) {
      journal.verified.erase(sector);
      throw Error(
          ErrorKind::Mismatch,
          fmt::format("final verify failed: flash 0x{:02X} at 0x{:06X}, image 0x{:02X}", *d2.first,
                      sector * kSectorSize + static_cast<std::uint32_t>(d2.first - again.begin()),
                      *d2.second));
    }
    std::copy(again.begin(), again.end(),
              result.bytes.begin() + (sector * kSectorSize - range_begin));
    summary.warnings.push_back(
        fmt::format("final verify: sector {} read wrong once, right the second time", sector));
  }
  summary.range_sha256 = sha256_hex(result.bytes);
  if (request.restore_protection && journal.protection_cleared) {
    chip.write_status(journal.old_sr1, journal.old_sr2);
    summary.protection_restored = true;
  }
}

}  // namespace

WriteSummary write_flash(FlashSession &session, const std::string &device_id,
                         const WriteRequest &request, const WritePlan &plan,
                         const OperationProgressSink &progress) {
  WriteSummary summary;
  summary.image_sha256 = plan.image_sha256;
  summary.warnings = plan.image_findings;
  summary.journal = journal_path(request, device_id);
  FlashJournal journal = plan_journal(request, plan, device_id, summary.journal);
  summary.start_sector = journal.start_sector;
  summary.sector_count = journal.sector_count;
  summary.sectors_already_done = static_cast<unsigned>(journal.verified.size());

  session.open();
  auto &chip = session.chip();
  std::uint8_t sr1 = 0, sr2 = 0;
  const bool needs_clear = check_protection(chip, request, journal, sr1, sr2, summary);
  take_backup(session, device_id, request, journal, progress, summary);
  if (!request.resume) {
    journal.backup_path = summary.backup ? summary.backup->string() : "";
    journal.backup_sha256 = summary.backup_sha256;
    journal.old_sr1 = sr1;
    journal.old_sr2 = sr2;
  }
  journal.status = "in-progress";
  journal.save(summary.journal);

  SectorWriter writer(session, request, journal, summary.journal, summary, progress);
  try {
    if (needs_clear) clear_protection(chip, journal, sr1, sr2, summary);
    write_sectors(writer, request, journal, session.cancel(), summary);
    if (!summary.interrupted && request.final_verify)
      final_verify(session, request, journal, journal.start_sector * kSectorSize,
                   journal.sector_count * kSectorSize, progress, summary);
  } catch (const Error &e) {
    chip.write_disable_quietly();
    journal.status = "failed";
    journal.last_error = e.what();
    best_effort([&] { journal.save(summary.journal); });
    throw Refusal(e.kind(),
                  resume_advice(std::string(e.what()) + ". ", request, journal, summary.journal));
  }
  journal.status = summary.interrupted ? "interrupted" : "complete";
  journal.save(summary.journal);
  summary.next_sector = journal.next_sector(request.header_last);
  if (summary.interrupted) {
    summary.resume = resume_advice("", request, journal, summary.journal);
    summary.resume_hint = library_wording(*summary.resume);
  }
  session.close();
  return summary;
}

}  // namespace wavescope::hw::flash
