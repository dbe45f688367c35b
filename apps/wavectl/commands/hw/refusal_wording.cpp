#include "commands/hw/refusal_wording.hpp"

#include <fmt/format.h>

namespace wavectl::hw_cli {

using wavescope::hw::Advice;
using wavescope::hw::Remedy;

std::string cli_wording(const Advice &a) {
  const std::string &p = a.problem;
  const auto value = [&](std::size_t i) { return i < a.values.size() ? a.values[i] : ""; };
  switch (a.remedy) {
  case Remedy::ConfirmWrite: return p + ": add --yes to confirm (nothing was read or written)";
  case Remedy::OneBackupChoice: return "--backup and --no-backup contradict each other";
  case Remedy::ResumeKeepsRange:
    return "--resume continues the range recorded in the journal; drop "
           "--start-sector/--sector-count";
  case Remedy::ForceImage:
    return p + " — pass --force-image to write it anyway (nothing was written)";
  case Remedy::StartSectorInRange: return "--start-sector " + p;
  case Remedy::SectorCountInRange: return "--sector-count " + p;
  case Remedy::ResumeOrDeleteJournal:
    return p + ": rerun with --resume to continue it, or delete that journal to start over";
  case Remedy::ClearProtection:
    return p + ". Rerun with --clear-cmp to clear it (--restore-protection puts it back after "
               "the final verify)";
  case Remedy::FreshBackup: return p + ". Give a new --backup path to take a fresh backup";
  case Remedy::BackupPathTaken: return p + " (give --backup NEW)";
  case Remedy::ResumeWrite:
    return p + fmt::format("; to continue, rerun the same command with --resume: wavectl flash "
                           "write {} --yes --resume --device {}{}",
                           value(0).empty() ? "IMAGE" : value(0), value(1), value(2));
  case Remedy::DeviceSpecForm: return "bad --device " + p;
  case Remedy::NameSimulator:
    return p + " (simulators are used only when asked: --device sim:NAME or sim-pci:NAME)";
  case Remedy::RemoveBoardFirst:
    return p + " (remove it first: wavectl sim remove " + value(0) + ")";
  case Remedy::CreateBoard: return p + " (create one with: wavectl sim create " + value(0) + ")";
  case Remedy::BootableImage:
    return wavescope::hw::library_wording(a) + " (--test-image or a bootable --image)";
  case Remedy::DryRunCannotResume: return "--dry-run cannot --resume a journalled write";
  }
  return wavescope::hw::library_wording(a);
}

std::string cli_message(const wavescope::Error &error) {
  if (const auto *refusal = dynamic_cast<const wavescope::hw::Refusal *>(&error))
    return cli_wording(refusal->advice());
  return error.what();
}

}  // namespace wavectl::hw_cli
