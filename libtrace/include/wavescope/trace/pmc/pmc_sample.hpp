#pragma once
// The decoded PMC samples of one dispatch: what a per-kernel counter table shows. Plain data, ready
// for the desktop app's table (one row per counter, expandable into per-instance rows, then the
// derived metrics) and for `wavectl pmc`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "wavescope/trace/pmc/counter_catalogue.hpp"

namespace wavescope::trace::pmc {

// How many instances of a block were sampled (one 64-bit slot each), outermost first.
struct InstanceGeometry {
  unsigned xcc = 1;   // accelerator complexes (dies); num_xcc for every block, GRBM included
  unsigned inst = 1;  // block instances per XCC (e.g. 32 GL2C channels, 16 TCC channels)
  unsigned se = 1;    // shader engines
  unsigned sa = 1;    // shader arrays per SE
  unsigned wgp = 1;   // WGPs per SA (RDNA SQ), else 1

  std::uint64_t slot_count() const;  // xcc * inst * se * sa * wgp
};

// One row of the per-instance sub-table: the location and the value of each WGP there.
struct InstanceRow {
  unsigned xcc = 0, inst = 0, se = 0, sa = 0;
  std::vector<std::uint64_t> values;  // one per WGP (a single value when geometry.wgp == 1)
};

struct CounterSample {
  std::string name;                     // as scheduled, e.g. "SQ_INSTS_VALU"
  std::string block;                    // as scheduled, e.g. "SQ"
  std::optional<std::uint32_t> select;  // the event select the capture recorded, if any
  const CounterInfo *info = nullptr;    // catalogue entry; nullptr when the counter is unknown
  InstanceGeometry geometry;
  std::uint64_t offset = 0;           // byte offset of the first slot in the sample buffer
  std::vector<std::uint64_t> values;  // every slot's value, in buffer order (wgp fastest)
  std::vector<InstanceRow> rows;      // slots grouped per (xcc, inst, se, sa), in the same order

  std::uint64_t sum = 0;       // over all slots
  bool sum_saturated = false;  // the true sum exceeds 2^64 - 1; `sum` holds that maximum
  std::uint64_t max = 0;       // largest slot
  std::size_t count = 0;       // slots, zero slots included

  // Column titles of `rows`: XCC, INST, SE, SA, WGP:0 ... WGP:<wgp-1>.
  std::vector<std::string> columns() const;
  // Slots holding a non-zero value (e.g. the WGPs that ran the kernel).
  std::size_t nonzero_slots() const;
};

// A value derived from several counters (see derived_metrics.hpp for the formulas).
struct MetricValue {
  std::string name;             // e.g. "VALU utilization"
  std::optional<double> value;  // nullopt when a denominator is zero
  std::string text;             // display form, e.g. "0.1%", or "n/a"
  std::string unit;             // "%", "waves", "instructions/wave"
  std::string formula;          // the formula with the counter names
  std::string source;           // "tinygrad", "rocprofiler" or "wavescope"
};

// The PMC sample of one dispatch.
struct DispatchCounters {
  std::string file;    // sample buffer file name (e.g. "pmc_0.bin"), may be empty
  unsigned order = 0;  // capture order
  std::uint32_t kernel_tag = 0;
  std::string kernel;                   // kernel (program) name
  std::string processor;                // e.g. "gfx1100"; empty when unknown
  std::optional<CounterFamily> family;  // catalogue used for descriptions
  std::vector<CounterSample> counters;  // in schedule order
  std::vector<MetricValue> metrics;     // tinygrad's two first, then the others that apply
  std::vector<std::string> notes;       // oddities that did not stop decoding

  // The counter of that name, or nullptr.
  const CounterSample *counter(std::string_view name) const;
  // The metric of that name, or nullptr.
  const MetricValue *metric(std::string_view name) const;
};

}  // namespace wavescope::trace::pmc
