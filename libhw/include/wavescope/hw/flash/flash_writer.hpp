#pragma once
// Writing an image to the flash safely (navi31-flash.md §6.5 and the §9 requirements):
//
//  1. before any device access: the confirmation, the image (exactly 2 MiB, validate_flash_image
//     unless forced), the sector range;
//  2. the state probe and the RDID gate; SR1/SR2 read, the protected range (BP and CMP) checked
//     against the range to write — refused unless clearing it was asked for;
//  3. a verified backup (every sector read twice, equal) written atomically before the first
//     erase, or an existing 2 MiB backup whose first and last sectors equal the chip's;
//  4. the journal written, protection cleared if asked (and checked that it cleared);
//  5. sector by sector: read and skip if it already matches, erase (unless blank, or with the
//     skip-erase option when programming alone reaches the image), program the non-blank pages,
//     read back and compare; journal updated after each verified sector. Header-last order
//     (§9.14): sector 0 is erased first and programmed last. Ctrl-C finishes the sector;
//  6. a final verify of the whole range and the SHA-256s; protection restored if asked.
// Any failure sends WRDI, records the error in the journal and is rethrown as a Refusal whose
// remedy is to resume the write (Remedy::ResumeWrite).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "wavescope/base/progress_eta.hpp"
#include "wavescope/hw/flash/flash_session.hpp"
#include "wavescope/hw/remedy/refusal.hpp"

namespace wavescope::hw::flash {

struct WriteRequest {
  std::span<const std::uint8_t> image;
  std::string image_path;  // for messages and the journal
  bool confirmed = false;  // the caller confirmed erasing and programming
  bool force_image = false;
  std::optional<std::uint32_t> start_sector;
  std::optional<std::uint32_t> sector_count;
  bool resume = false;
  bool clear_protection = false;                // clear BP/CMP when they cover the range
  bool restore_protection = false;              // the old SR1/SR2 back after the verify
  std::optional<std::filesystem::path> backup;  // taken there, or checked if it exists
  bool no_backup = false;
  std::filesystem::path work_dir = ".";  // default backup and journal location
  std::optional<std::filesystem::path> journal;
  bool skip_unchanged = true;  // §9.5 (tests turn it off to force every sector)
  bool header_last = true;     // §9.14
  bool final_verify = true;    // §9.7
};

// The outcome of the checks that run before any device access.
struct WritePlan {
  std::uint32_t start_sector = 0;
  std::uint32_t sector_count = 0;
  std::string image_sha256;
  std::vector<std::string> image_findings;  // warnings, and the errors force_image overrode
};

// Throws Refusal (Error(Usage)) for a missing confirmation or a bad range, Refusal
// (Error(BadInput)) for a rejected image; each names its remedy.
WritePlan check_write_request(const WriteRequest &request);

// A request whose image was read from a file and checked: what a tool has in hand before it
// opens the device. `request.image` views `image` (it stays valid when this is moved).
struct PlannedWrite {
  std::vector<std::uint8_t> image;
  WriteRequest request;
  WritePlan plan;
  PlannedWrite() = default;
  PlannedWrite(PlannedWrite &&) = default;
  PlannedWrite(const PlannedWrite &) = delete;
};

// Refuses an unconfirmed request before the file is read, then reads the image at `path`
// (image_path names it), and checks the request as check_write_request does.
PlannedWrite plan_write_from_file(WriteRequest request, const std::filesystem::path &path);

struct WriteSummary {
  std::string image_sha256;  // the whole image
  std::string range_sha256;  // what the final verify read over the range
  std::uint32_t start_sector = 0, sector_count = 0;
  unsigned sectors_written = 0, sectors_skipped = 0, sectors_already_done = 0;
  unsigned erases = 0, erases_skipped = 0, pages_programmed = 0;
  std::optional<std::filesystem::path> backup;
  std::string backup_sha256;
  bool backup_reused = false;
  std::filesystem::path journal;
  bool protection_cleared = false, protection_restored = false;
  std::string protection_before;
  bool interrupted = false;
  std::optional<std::uint32_t> next_sector;
  std::optional<Advice> resume;  // an interrupted write: how far it got and how to carry on
  std::string resume_hint;       // `resume` in the library's words (a tool may word it its way)
  std::vector<std::string> warnings;
};

// Where the journal of a write to `device_id` lives.
std::filesystem::path journal_path(const WriteRequest &request, const std::string &device_id);

WriteSummary write_flash(FlashSession &session, const std::string &device_id,
                         const WriteRequest &request, const WritePlan &plan,
                         const OperationProgressSink &progress = {});

}  // namespace wavescope::hw::flash
