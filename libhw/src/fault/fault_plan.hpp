#pragma once
// Fault injection for the simulated board (navi31-flash.md §10.9, F1–F15).
//
// Each fault is armed with a trigger over the operations it matches, counted from 1 from the
// moment it is armed: the n-th one, those in [a, b), each with probability p (seeded), or every
// one from now on. Faults are written as text so `wavectl sim fault NAME SPEC` can arm them and
// the board can persist them, e.g.
//
//   bitflip:addr=0x1234,bit=3          F1  transient flip of one array byte in reads
//   erase-fail:sector=5,cells=8        F2  cells of sector 5 keep their old value
//   program-fail:page=0x40,bits=4      F3  some 1→0 transitions of page 0x40 do not happen
//   stuck-busy:op=erase,nth=4          F4  WIP never clears after the 4th erase
//   slow:factor=100                    F5  chip timings ×100
//   rom-sw-hang:nth=100                F6  DONE never sets for the 100th ROM_SW launch
//   rom-sw-gate:nth=100                F7  STATUS sticks at 0x04000800 from the 100th launch
//   wren-ignored                       F8  WREN frames leave WEL at 0 (from now on)
//   protect:cmp=1,bp=0,lock            F9  preset protection bits; WRSR ignored when locked
//   jedec:id=0xEF6015                  F10 RDID answers another id
//   power-loss:op=program,nth=3        F11 power fails as the 3rd program starts
//   psp:mode=error,code=0x0C,cmd=0x09,nth=5   F12 mailbox faults (also mode=never-ready|busy)
//   aperture:mode=mirror               F13 1 MiB mirrored aperture (also mode=absent)
//   usb:...                            F14 handed to the simulated bridge's fault plan
//   link-down:nth=5000                 F15 link lost at the 5000th BAR5 dword access
//
// Trigger keys: nth=N, from=A,to=B (operations A..B-1), p=0.01, always.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sim/sim_random.hpp"

namespace wavescope::hw::sim {

enum class FaultKind {
  ReadBitFlip,     // F1
  EraseFailure,    // F2
  ProgramFailure,  // F3
  StuckBusy,       // F4
  SlowChip,        // F5
  RomSwHang,       // F6
  RomSwGate,       // F7
  WrenIgnored,     // F8
  Protection,      // F9
  WrongJedec,      // F10
  PowerLoss,       // F11
  Psp,             // F12
  Aperture,        // F13
  Usb,             // F14
  LinkDown,        // F15
};

struct FaultTrigger {
  enum class Kind { Nth, Range, Probability, Always } kind = Kind::Always;
  std::uint64_t n = 1;             // Nth
  std::uint64_t from = 1, to = 1;  // Range [from, to)
  double probability = 0;          // Probability
};

// Which chip operations F4 and F11 count.
enum class ChipOpFilter { Any, Erase, Program, Wrsr };

struct Fault {
  FaultKind kind = FaultKind::ReadBitFlip;
  FaultTrigger trigger;
  std::uint64_t matched = 0;  // matching operations seen since arming
  std::uint64_t fired = 0;    // how often it took effect

  // Parameters (which ones apply depends on the kind).
  std::uint32_t address = 0;            // F1 byte address; F2 sector; F3 page
  unsigned bit = 0;                     // F1
  bool sfdp = false;                    // F1: flip in SFDP space instead of the array
  unsigned count = 0;                   // F2 cells, F3 bits
  bool stuck_at_zero = false;           // F2
  ChipOpFilter op = ChipOpFilter::Any;  // F4, F11
  double factor = 1;                    // F5
  std::uint8_t sr1 = 0, sr2 = 0;        // F9
  bool lock = false;                    // F9
  std::uint32_t jedec = 0;              // F10, 24 bits
  std::string mode;                     // F12: never-ready|busy|error; F13: mirror|absent
  std::uint16_t code = 0;               // F12 error code
  std::optional<std::uint8_t> command;  // F12: only this mailbox command counts
  std::string usb_spec;                 // F14, passed verbatim to the bridge

  // Counts one matching operation and says whether the fault takes effect on it.
  bool hit(SimRandom &random);
  // The spec text this fault was armed with (normalised).
  std::string describe() const;
};

// Parses "kind:key=value,...". Throws Error(Usage) with the accepted forms.
Fault parse_fault(const std::string &spec);

class FaultPlan {
public:
  void arm(Fault fault) { faults_.push_back(std::move(fault)); }
  void clear() { faults_.clear(); }
  std::vector<Fault> &all() { return faults_; }
  const std::vector<Fault> &all() const { return faults_; }
  // Pointers to the armed faults of one kind (valid until the plan changes).
  std::vector<Fault *> of(FaultKind kind);
  bool any(FaultKind kind) const;

private:
  std::vector<Fault> faults_;
};

nlohmann::json to_json(const Fault &fault);
Fault fault_from_json(const nlohmann::json &json);

}  // namespace wavescope::hw::sim
