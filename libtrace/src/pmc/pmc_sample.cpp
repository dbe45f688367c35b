#include "wavescope/trace/pmc/pmc_sample.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace wavescope::trace::pmc {

std::uint64_t InstanceGeometry::slot_count() const {
  return std::uint64_t{xcc} * inst * se * sa * wgp;
}

std::vector<std::string> CounterSample::columns() const {
  std::vector<std::string> out = {"XCC", "INST", "SE", "SA"};
  for (unsigned w = 0; w < geometry.wgp; ++w) out.push_back(fmt::format("WGP:{}", w));
  return out;
}

std::size_t CounterSample::nonzero_slots() const {
  return static_cast<std::size_t>(
      std::count_if(values.begin(), values.end(), [](std::uint64_t v) { return v != 0; }));
}

const CounterSample *DispatchCounters::counter(std::string_view name) const {
  for (const auto &c : counters)
    if (c.name == name) return &c;
  return nullptr;
}

const MetricValue *DispatchCounters::metric(std::string_view name) const {
  for (const auto &m : metrics)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace wavescope::trace::pmc
