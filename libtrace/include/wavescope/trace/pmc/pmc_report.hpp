#pragma once
// What `wavectl pmc` reports, and its printers: a decoded dispatch's counters and metrics, and a
// family's counter catalogue, as JSON (one object per line, keys sorted) and text. Also the
// choice of a capture's PMC events by kernel name or tag.

#include <string>
#include <string_view>
#include <vector>

#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/pmc/counter_catalogue.hpp"
#include "wavescope/trace/pmc/pmc_sample.hpp"

namespace wavescope::trace::pmc {

// A capture's PMC events of one kernel (`kernel`: its name, or its tag as a decimal number; empty:
// every event), in capture order. Throws Error(Usage) naming the capture's kernels when none
// matches.
std::vector<const CapturePmc *> select_events(const Capture &capture, std::string_view kernel);

// One dispatch's counters; `instances` adds every counter's per-instance rows to the text form.
struct DispatchReport {
  const DispatchCounters &dispatch;
  bool instances = false;
};
std::string to_json(const DispatchReport &report);
std::string to_text(const DispatchReport &report);

// A family's counter catalogue, or one block of it (`block` empty: every block). Throws
// Error(Usage) listing the blocks when the catalogue has no such block.
struct CatalogueReport {
  CounterFamily family;
  std::string block;
};
std::string to_json(const CatalogueReport &report);
std::string to_text(const CatalogueReport &report);

}  // namespace wavescope::trace::pmc
