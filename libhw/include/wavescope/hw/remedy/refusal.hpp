#pragma once
// A refused request in the library's terms: what is wrong (the problem, with its values) and what
// would let it through (the remedy: a field of the request to set, a file to remove, ...). The
// library words both without knowing any tool; a tool that has options for the remedies (wavectl's
// flags) words the same refusal for its users from the remedy and its values.

#include <string>
#include <vector>

#include "wavescope/base/error.hpp"

namespace wavescope::hw {

enum class Remedy {
  ConfirmWrite,           // WriteRequest::confirmed: the caller confirms erasing and programming
  OneBackupChoice,        // backup and no_backup were both asked for
  ResumeKeepsRange,       // resume continues the journal's range: no start_sector/sector_count
  ForceImage,             // force_image writes an image that fails validation
  StartSectorInRange,     // start_sector out of range; the problem is "N is out of range (...)"
  SectorCountInRange,     // sector_count out of range; the problem is "N is out of range (...)"
  ResumeOrDeleteJournal,  // an unfinished write is recorded in the journal
  ClearProtection,        // clear_protection (restore_protection puts it back after the verify)
  FreshBackup,            // the backup given is not of this chip: a new backup path
  BackupPathTaken,        // the backup path holds other contents: a new backup path
  ResumeWrite,            // a failed or stopped write; values: image path ("" if none), device,
                          // and the next sector's text (" (next sector N, 0xADDR)" or "")
  DeviceSpecForm,      // a device spec of the accepted forms; the problem is "'TEXT': expected ..."
  NameSimulator,       // no real device: simulators are used only when named
  RemoveBoardFirst,    // a simulated board of that name exists; values: the name
  CreateBoard,         // no simulated board of that name; values: the name
  BootableImage,       // a start state needs a flash image that boots
  DryRunCannotResume,  // a dry run runs a fresh write on a copy, never a journalled one
};

struct Advice {
  Remedy remedy;
  std::string problem;              // what is wrong, with the values that say so
  std::vector<std::string> values;  // what the remedy needs (see each Remedy)
};

// The whole message in the library's terms: the problem and what would fix it.
std::string library_wording(const Advice &advice);

class Refusal : public Error {
public:
  Refusal(ErrorKind kind, Advice advice)
      : Error(kind, library_wording(advice)), advice_(std::move(advice)) {}
  const Advice &advice() const noexcept { return advice_; }

private:
  Advice advice_;
};

}  // namespace wavescope::hw
