#include "commands/compiler/run_profile.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/trace/profile/profile_builder.hpp"

namespace wavectl {

using namespace wavescope::trace::profile;

Profile run_profile(const std::vector<wavescope::compiler::codegen::RunEvent> &runs) {
  ProfileBuilder builder("wavectl run", "wavectl run");
  Device cpu;
  cpu.name = "CPU";
  builder.add_device(std::move(cpu));
  if (runs.empty()) return builder.build();
  // Raw times count from a whole microsecond at or before the first start.
  std::int64_t first_ns = runs.front().start_ns;
  for (const auto &r : runs) first_ns = std::min(first_ns, r.start_ns);
  const std::int64_t reference_us = first_ns / 1000;
  builder.set_reference_us(reference_us);
  const auto ps = [&](std::int64_t ns) { return (ns - reference_us * 1000) * 1000; };
  for (const auto &r : runs) {
    const double seconds = std::max(r.seconds(), 1e-9);
    SpanDetails details;
    details.category = "kernel";
    details.bytes = r.estimates.bytes;
    details.fields = {
        {"target", nlohmann::json(r.target).dump()},
        {"ops", fmt::format("{}", r.estimates.ops)},
        {"GFLOP/s", fmt::format("{:.3f}", static_cast<double>(r.estimates.ops) / seconds / 1e9)},
        {"GB/s", fmt::format("{:.3f}", static_cast<double>(r.estimates.bytes) / seconds / 1e9)}};
    builder.add_range("CPU", builder.intern(r.kernel), ps(r.start_ns), ps(r.end_ns),
                      builder.add_details(std::move(details)));
  }
  return builder.build();
}

}  // namespace wavectl
