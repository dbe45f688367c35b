#pragma once
// `wavectl run --profile`: the timed runs as a profile (one CPU track, a span per kernel run with
// its target, ops, bytes, GFLOP/s and GB/s), written as Chrome trace JSON, which the app's
// timeline and Perfetto open. The one place that knows both the compiler and the profile model.

#include <filesystem>
#include <vector>

#include "wavescope/compiler/codegen/run_event.hpp"
#include "wavescope/trace/profile/profile.hpp"

namespace wavectl {

wavescope::trace::profile::Profile
run_profile(const std::vector<wavescope::compiler::codegen::RunEvent> &runs);

}  // namespace wavectl
