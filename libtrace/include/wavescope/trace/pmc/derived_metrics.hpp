#pragma once
// Metrics derived from several counters of one dispatch. Every formula is listed in
// docs/pmc.md with its origin. With s(X) = sum, m(X) = max and n(X) = slot count of counter X:
//
//   VALU utilization  = 100 * (s(SQ_INSTS_VALU) / n(SQ_INSTS_VALU)) / (m(GRBM_GUI_ACTIVE) * 4)  %
//   SALU utilization  = the same with SQ_INSTS_SALU                     (both exactly as tinygrad)
//   L2 hit rate       = 100 * s(HIT) / (s(HIT) + s(MISS)), GL2C_* on RDNA, TCC_* on CDNA      %
//   LDS bank conflict = 100 * s(SQC_LDS_BANK_CONFLICT) / s(SQC_LDS_IDX_ACTIVE) (SQ_LDS_* CDNA) %
//   GPU busy          = 100 * m(GRBM_GUI_ACTIVE) / m(GRBM_COUNT)                                %
//   Wave issue wait   = 100 * s(SQ_WAIT_INST_ANY) / s(SQ_WAVE_CYCLES)                           %
//   Wave wait (any)   = 100 * s(SQ_WAIT_ANY) / s(SQ_WAVE_CYCLES)                                %
//   Mean waves per busy cycle = s(SQ_WAVE_CYCLES) / s(SQ_BUSY_CYCLES)
//   VALU / SALU instructions per wave = s(SQ_INSTS_VALU|SALU) / s(SQ_WAVES)
//   Texture addresser busy = 100 * m(TA_TA_BUSY) / m(GRBM_GUI_ACTIVE)                          %
//
// A metric is listed only when all its counters were sampled (like tinygrad); when a denominator
// is zero its value is empty and its text "n/a" (tinygrad would stop with ZeroDivisionError).

#include <span>
#include <string_view>
#include <vector>

#include "wavescope/trace/pmc/pmc_sample.hpp"

namespace wavescope::trace::pmc {

struct MetricDefinition {
  std::string_view name;
  std::string_view unit;     // "%" or a unit of the ratio
  std::string_view formula;  // for display
  std::string_view source;   // "tinygrad", "rocprofiler" or "wavescope"
  std::string_view description;
};

// Every metric wavescope can derive, in display order.
std::span<const MetricDefinition> metric_definitions();

// The metrics whose counters are all present in `counters`.
std::vector<MetricValue> derive_metrics(const std::vector<CounterSample> &counters);

}  // namespace wavescope::trace::pmc
