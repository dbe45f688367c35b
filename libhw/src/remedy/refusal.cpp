#include "wavescope/hw/remedy/refusal.hpp"

namespace wavescope::hw {

namespace {
std::string value(const Advice &a, std::size_t i) {
  return i < a.values.size() ? a.values[i] : std::string();
}
}  // namespace

std::string library_wording(const Advice &a) {
  const std::string &p = a.problem;
  switch (a.remedy) {
  case Remedy::ConfirmWrite:
    return p + ": the write must be confirmed (nothing was read or written)";
  case Remedy::OneBackupChoice: return "a backup path and no backup contradict each other";
  case Remedy::ResumeKeepsRange:
    return "resuming continues the range recorded in the journal; give no start sector or "
           "sector count";
  case Remedy::ForceImage: return p + " — force the image to write it anyway (nothing was written)";
  case Remedy::StartSectorInRange: return "start sector " + p;
  case Remedy::SectorCountInRange: return "sector count " + p;
  case Remedy::ResumeOrDeleteJournal:
    return p + ": resume it, or delete that journal to start over";
  case Remedy::ClearProtection:
    return p + ". Clearing the protection lets the write through (and it can be restored after "
               "the final verify)";
  case Remedy::FreshBackup: return p + ". A new backup path takes a fresh backup";
  case Remedy::BackupPathTaken: return p + " (give a new backup path)";
  case Remedy::ResumeWrite: {
    const std::string image = value(a, 0).empty() ? "IMAGE" : value(a, 0);
    return p + "; to continue, resume the write of " + image + " on " + value(a, 1) +
           " from the journal" + value(a, 2);
  }
  case Remedy::DeviceSpecForm: return "bad device spec " + p;
  case Remedy::NameSimulator:
    return p + " (simulators are used only when named: sim:NAME or sim-pci:NAME)";
  case Remedy::RemoveBoardFirst: return p + " (remove it first)";
  case Remedy::CreateBoard: return p + " (create one first)";
  case Remedy::BootableImage: return p + "; give it a bootable image";
  case Remedy::DryRunCannotResume: return "a dry run cannot resume a journalled write";
  }
  return p;
}

}  // namespace wavescope::hw
