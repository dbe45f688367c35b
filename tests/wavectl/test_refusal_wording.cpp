// libhw's refusals say what is wrong and what would fix it in the library's terms (no wavectl
// flag or command in them); wavectl words each remedy with its flags.

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "commands/hw/refusal_wording.hpp"
#include "wavescope/hw/remedy/refusal.hpp"

using wavectl::hw_cli::cli_message;
using wavectl::hw_cli::cli_wording;
using wavescope::ErrorKind;
using wavescope::hw::Advice;
using wavescope::hw::library_wording;
using wavescope::hw::Refusal;
using wavescope::hw::Remedy;

namespace {

struct Case {
  Remedy remedy;
  std::vector<std::string> values;
  const char *flag;  // what wavectl's wording must name
};

const std::vector<Case> kCases = {
    {Remedy::ConfirmWrite, {}, "--yes"},
    {Remedy::OneBackupChoice, {}, "--no-backup"},
    {Remedy::ResumeKeepsRange, {}, "--start-sector/--sector-count"},
    {Remedy::ForceImage, {}, "--force-image"},
    {Remedy::StartSectorInRange, {}, "--start-sector "},
    {Remedy::SectorCountInRange, {}, "--sector-count "},
    {Remedy::ResumeOrDeleteJournal, {}, "rerun with --resume"},
    {Remedy::ClearProtection, {}, "--clear-cmp"},
    {Remedy::FreshBackup, {}, "--backup"},
    {Remedy::BackupPathTaken, {}, "--backup NEW"},
    {Remedy::ResumeWrite, {"new.bin", "sim:b", ""}, "wavectl flash write new.bin --yes --resume"},
    {Remedy::DeviceSpecForm, {}, "bad --device"},
    {Remedy::NameSimulator, {}, "--device sim:NAME"},
    {Remedy::RemoveBoardFirst, {"b"}, "wavectl sim remove b"},
    {Remedy::CreateBoard, {"b"}, "wavectl sim create b"},
    {Remedy::BootableImage, {}, "--test-image"},
    {Remedy::DryRunCannotResume, {}, "--dry-run cannot --resume"},
};

}  // namespace

TEST_CASE("every remedy is worded without wavectl's flags by libhw and with them by wavectl") {
  CHECK(kCases.size() == static_cast<std::size_t>(Remedy::DryRunCannotResume) + 1);
  for (const auto &c : kCases) {
    const Advice advice{c.remedy, "PROBLEM", c.values};
    const auto library = library_wording(advice);
    const auto cli = cli_wording(advice);
    CAPTURE(static_cast<int>(c.remedy), library, cli);
    CHECK_THAT(library, !Catch::Contains("--"));
    CHECK_THAT(library, !Catch::Contains("wavectl"));
    CHECK_THAT(cli, Catch::Contains(c.flag));
    CHECK(library != cli);
  }
}

TEST_CASE("wavectl's wording of a refusal is the message it printed before the library had "
          "remedies") {
  CHECK(cli_wording({Remedy::ConfirmWrite, "flash write erases and programs the chip", {}}) ==
        "flash write erases and programs the chip: add --yes to confirm (nothing was read or "
        "written)");
  CHECK(cli_wording({Remedy::ClearProtection,
                     "write protection covers whole array (SR1 0x00: BP4..BP0 = 0x00; SR2 0x40: "
                     "CMP = 1), which overlaps the sectors to write; nothing was written",
                     {}}) ==
        "write protection covers whole array (SR1 0x00: BP4..BP0 = 0x00; SR2 0x40: CMP = 1), "
        "which overlaps the sectors to write; nothing was written. Rerun with --clear-cmp to "
        "clear it (--restore-protection puts it back after the final verify)");
  CHECK(cli_wording({Remedy::ResumeWrite,
                     "2 of 512 sectors are verified (journal j.json)",
                     {"", "sim:b", " (next sector 2, 0x002000)"}}) ==
        "2 of 512 sectors are verified (journal j.json); to continue, rerun the same command with "
        "--resume: wavectl flash write IMAGE --yes --resume --device sim:b (next sector 2, "
        "0x002000)");
}

TEST_CASE("cli_message words a Refusal with flags and leaves any other error as it is") {
  const Refusal refusal(ErrorKind::Usage, {Remedy::DeviceSpecForm, "'x': expected usb:N", {}});
  CHECK(std::string(refusal.what()) == "bad device spec 'x': expected usb:N");
  CHECK(refusal.kind() == ErrorKind::Usage);
  CHECK(cli_message(refusal) == "bad --device 'x': expected usb:N");
  const wavescope::Error plain(ErrorKind::Device, "not responding");
  CHECK(cli_message(plain) == "not responding");
}
