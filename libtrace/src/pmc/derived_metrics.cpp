#include "wavescope/trace/pmc/derived_metrics.hpp"

#include <array>
#include <optional>

#include <fmt/format.h>

namespace wavescope::trace::pmc {
namespace {

// A metric's inputs under one naming (RDNA and CDNA name some counters differently).
using Inputs = std::array<const CounterSample *, 3>;
using Compute = std::optional<double> (*)(const Inputs &);

struct Variant {
  std::array<std::string_view, 3> counters;  // unused trailing names are empty
  std::string_view formula;
  Compute compute;
};

struct Metric {
  MetricDefinition definition;
  std::vector<Variant> variants;  // the first whose counters are all present is used
};

double sum(const CounterSample *c) { return static_cast<double>(c->sum); }
double max(const CounterSample *c) { return static_cast<double>(c->max); }

std::optional<double> ratio(double numerator, double denominator, double scale = 1.0) {
  if (denominator == 0) return std::nullopt;
  return scale * numerator / denominator;
}

// tinygrad's VIZ formula, evaluated in the same order and precision as its Python:
// 100 * (sum / count) / (max * 4), with max * 4 an exact integer.
std::optional<double> tinygrad_utilization(const Inputs &in) {
  const double per_slot = sum(in[0]) / static_cast<double>(in[0]->count);
  const double active4 = static_cast<double>(in[1]->max) * 4.0;
  if (active4 == 0) return std::nullopt;
  return 100 * per_slot / active4;
}

const std::vector<Metric> &metrics() {
  static const std::vector<Metric> table = {
      {{"VALU utilization", "%",
        "100 * (s(SQ_INSTS_VALU) / n(SQ_INSTS_VALU)) / (m(GRBM_GUI_ACTIVE) * 4)", "tinygrad",
        "VALU instructions per sampled SQ instance over 4x the GPU-active cycles (tinygrad VIZ)"},
       {{{"SQ_INSTS_VALU", "GRBM_GUI_ACTIVE"},
         "100 * (s(SQ_INSTS_VALU) / n(SQ_INSTS_VALU)) / (m(GRBM_GUI_ACTIVE) * 4)",
         tinygrad_utilization}}},
      {{"SALU utilization", "%",
        "100 * (s(SQ_INSTS_SALU) / n(SQ_INSTS_SALU)) / (m(GRBM_GUI_ACTIVE) * 4)", "tinygrad",
        "SALU instructions per sampled SQ instance over 4x the GPU-active cycles (tinygrad VIZ)"},
       {{{"SQ_INSTS_SALU", "GRBM_GUI_ACTIVE"},
         "100 * (s(SQ_INSTS_SALU) / n(SQ_INSTS_SALU)) / (m(GRBM_GUI_ACTIVE) * 4)",
         tinygrad_utilization}}},
      {{"L2 hit rate", "%", "100 * s(HIT) / (s(HIT) + s(MISS))", "rocprofiler",
        "Share of L2 cache lookups that hit (rocprofiler L2CacheHit)"},
       {{{"GL2C_HIT", "GL2C_MISS"},
         "100 * s(GL2C_HIT) / (s(GL2C_HIT) + s(GL2C_MISS))",
         [](const Inputs &in) { return ratio(sum(in[0]), sum(in[0]) + sum(in[1]), 100); }},
        {{"TCC_HIT", "TCC_MISS"},
         "100 * s(TCC_HIT) / (s(TCC_HIT) + s(TCC_MISS))",
         [](const Inputs &in) { return ratio(sum(in[0]), sum(in[0]) + sum(in[1]), 100); }}}},
      {{"LDS bank conflict", "%", "100 * s(LDS_BANK_CONFLICT) / s(LDS_IDX_ACTIVE)", "rocprofiler",
        "Share of indexed-LDS cycles stalled by bank conflicts (rocprofiler LDSBankConflict, "
        "gfx11/12)"},
       {{{"SQC_LDS_BANK_CONFLICT", "SQC_LDS_IDX_ACTIVE"},
         "100 * s(SQC_LDS_BANK_CONFLICT) / s(SQC_LDS_IDX_ACTIVE)",
         [](const Inputs &in) { return ratio(sum(in[0]), sum(in[1]), 100); }},
        {{"SQ_LDS_BANK_CONFLICT", "SQ_LDS_IDX_ACTIVE"},
         "100 * s(SQ_LDS_BANK_CONFLICT) / s(SQ_LDS_IDX_ACTIVE)",
         [](const Inputs &in) { return ratio(sum(in[0]), sum(in[1]), 100); }}}},
      {{"GPU busy", "%", "100 * m(GRBM_GUI_ACTIVE) / m(GRBM_COUNT)", "rocprofiler",
        "Share of the sampled cycles the graphics/compute engine was active (rocprofiler "
        "GPU_UTIL)"},
       {{{"GRBM_GUI_ACTIVE", "GRBM_COUNT"},
         "100 * m(GRBM_GUI_ACTIVE) / m(GRBM_COUNT)",
         [](const Inputs &in) { return ratio(max(in[0]), max(in[1]), 100); }}}},
      {{"Wave issue wait", "%", "100 * s(SQ_WAIT_INST_ANY) / s(SQ_WAVE_CYCLES)", "rocprofiler",
        "Share of wave cycles spent waiting to issue any instruction (rocprofiler "
        "WAVE_ISSUE_WAIT)"},
       {{{"SQ_WAIT_INST_ANY", "SQ_WAVE_CYCLES"},
         "100 * s(SQ_WAIT_INST_ANY) / s(SQ_WAVE_CYCLES)",
         [](const Inputs &in) { return ratio(sum(in[0]), sum(in[1]), 100); }}}},
      {{"Wave dependency wait", "%", "100 * s(SQ_WAIT_ANY) / s(SQ_WAVE_CYCLES)", "rocprofiler",
        "Share of wave cycles spent waiting for anything (rocprofiler WAVE_DEP_WAIT)"},
       {{{"SQ_WAIT_ANY", "SQ_WAVE_CYCLES"},
         "100 * s(SQ_WAIT_ANY) / s(SQ_WAVE_CYCLES)",
         [](const Inputs &in) { return ratio(sum(in[0]), sum(in[1]), 100); }}}},
      {{"Mean waves per busy cycle", "waves", "s(SQ_WAVE_CYCLES) / s(SQ_BUSY_CYCLES)",
        "rocprofiler",
        "Mean occupancy while waves were present (rocprofiler MeanOccupancyPerActiveCU, gfx11)"},
       {{{"SQ_WAVE_CYCLES", "SQ_BUSY_CYCLES"},
         "s(SQ_WAVE_CYCLES) / s(SQ_BUSY_CYCLES)",
         [](const Inputs &in) { return ratio(sum(in[0]), sum(in[1])); }}}},
      {{"VALU instructions per wave", "instructions/wave", "s(SQ_INSTS_VALU) / s(SQ_WAVES)",
        "rocprofiler", "Mean VALU instructions each wave issued (rocprofiler VALUInsts)"},
       {{{"SQ_INSTS_VALU", "SQ_WAVES"},
         "s(SQ_INSTS_VALU) / s(SQ_WAVES)",
         [](const Inputs &in) { return ratio(sum(in[0]), sum(in[1])); }}}},
      {{"SALU instructions per wave", "instructions/wave", "s(SQ_INSTS_SALU) / s(SQ_WAVES)",
        "rocprofiler", "Mean SALU instructions each wave issued (rocprofiler SALUInsts)"},
       {{{"SQ_INSTS_SALU", "SQ_WAVES"},
         "s(SQ_INSTS_SALU) / s(SQ_WAVES)",
         [](const Inputs &in) { return ratio(sum(in[0]), sum(in[1])); }}}},
      {{"Texture addresser busy", "%", "100 * m(TA_TA_BUSY) / m(GRBM_GUI_ACTIVE)", "rocprofiler",
        "Share of GPU-active cycles the busiest TA was busy, stalls included (rocprofiler "
        "MemUnitBusy)"},
       {{{"TA_TA_BUSY", "GRBM_GUI_ACTIVE"},
         "100 * m(TA_TA_BUSY) / m(GRBM_GUI_ACTIVE)",
         [](const Inputs &in) { return ratio(max(in[0]), max(in[1]), 100); }}}},
  };
  return table;
}

const CounterSample *find(const std::vector<CounterSample> &counters, std::string_view name) {
  for (const auto &c : counters)
    if (c.name == name) return &c;
  return nullptr;
}

std::string format_value(const std::optional<double> &value, std::string_view unit) {
  if (!value) return "n/a";
  // One decimal and a % sign, as tinygrad prints its utilisations ("%.1f%%").
  if (unit == "%") return fmt::format("{:.1f}%", *value);
  return fmt::format("{:.2f}", *value);
}

}  // namespace

std::span<const MetricDefinition> metric_definitions() {
  static const std::vector<MetricDefinition> definitions = [] {
    std::vector<MetricDefinition> out;
    for (const auto &m : metrics()) out.push_back(m.definition);
    return out;
  }();
  return definitions;
}

std::vector<MetricValue> derive_metrics(const std::vector<CounterSample> &counters) {
  std::vector<MetricValue> out;
  for (const auto &metric : metrics()) {
    for (const auto &variant : metric.variants) {
      Inputs inputs{};
      bool complete = true;
      for (std::size_t i = 0; i < variant.counters.size(); ++i) {
        if (variant.counters[i].empty()) continue;
        inputs[i] = find(counters, variant.counters[i]);
        complete = complete && inputs[i] != nullptr;
      }
      if (!complete) continue;
      const auto value = variant.compute(inputs);
      const auto &d = metric.definition;
      out.push_back({std::string(d.name), value, format_value(value, d.unit), std::string(d.unit),
                     std::string(variant.formula), std::string(d.source)});
      break;
    }
  }
  return out;
}

}  // namespace wavescope::trace::pmc
