#pragma once
// The hardware performance counters wavescope knows per GPU family: name, block, event select and
// a description a profiler user can read. The data lives in the library (src/pmc/catalogue_*.cpp);
// where it comes from is in docs/pmc.md.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace wavescope::trace::pmc {

// The counter sets: one per family whose selects differ (tinygrad's arch keys).
enum class CounterFamily {
  Gfx11,   // RDNA3: gfx1100, gfx1101, gfx1102, gfx1103, gfx115x
  Gfx12,   // RDNA4: gfx1200, gfx1201
  Gfx950,  // CDNA4 (gfx9.5): MI350 class
};

std::string_view to_string(CounterFamily family);  // "gfx11", "gfx12", "gfx950"

// The family of an LLVM processor name ("gfx1100", "gfx1201", "gfx950") or of a family name
// itself ("gfx11"); nullopt when wavescope has no catalogue for it.
std::optional<CounterFamily> counter_family_for(std::string_view processor);

// Where a catalogue entry's facts come from.
enum class CounterSource {
  Rocprofiler,    // ROCm's counter_defs.yaml (the source of tinygrad's table)
  AmdEnumHeader,  // AMD's perf-select enum header for the GC IP (soc21_enum.h, soc24_enum.h)
};

struct CounterInfo {
  std::string_view name;         // e.g. "SQ_INSTS_VALU"
  std::string_view block;        // the hardware block programmed, e.g. "SQ", "GL2C", "TCC"
  std::uint32_t select = 0;      // event select written to <BLOCK>_PERFCOUNTERn_SELECT
  std::string_view description;  // what it counts
  CounterSource source = CounterSource::Rocprofiler;
  std::string_view caveat = {};  // non-empty where public sources disagree (see docs/pmc.md)
};

class CounterCatalogue {
public:
  static const CounterCatalogue &get(CounterFamily family);

  CounterFamily family() const { return family_; }
  // Every counter, sorted by name.
  std::span<const CounterInfo> counters() const { return counters_; }
  // The counter of that exact name, or nullptr.
  const CounterInfo *find(std::string_view name) const;
  // The counter programmed with that select on that block, or nullptr.
  const CounterInfo *find_select(std::string_view block, std::uint32_t select) const;
  // The counters of one block, sorted by name.
  std::vector<const CounterInfo *> in_block(std::string_view block) const;
  // The distinct block names, sorted.
  std::vector<std::string_view> blocks() const;

private:
  CounterCatalogue(CounterFamily family, std::span<const CounterInfo> counters)
      : family_(family), counters_(counters) {}
  CounterFamily family_;
  std::span<const CounterInfo> counters_;
};

}  // namespace wavescope::trace::pmc
