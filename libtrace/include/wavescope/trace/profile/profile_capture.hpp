#pragma once
// A profile's SQTT and PMC data as a Capture, so every capture analysis (wavectl sqtt, pmc, the
// app) runs on a profile as on a capture folder.
//
// The capture takes the GPU device that recorded the SQTT/PMC events (its properties), the
// programs those events name (code objects, load addresses, runs), and the blobs and samples in
// recording order. Each is named as a capture folder names its files (tinygrad's corpus
// exporter's layout: `program.elf`, `se<N>.bin`, `pmc_<k>.bin`, and `program_k<tag>.elf`,
// `k<tag>_se<N>.bin` when the profile holds more than one program), so outputs read the same.
// A tinygrad profile does not record the event select of each PMC counter; the capture takes the
// one tinygrad programs, the perf-select enum's (libtrace's counter catalogue).

#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

// True when the profile holds SQTT or PMC data.
bool has_capture(const Profile &profile);

// Throws Error(BadInput) naming the profile when it holds no SQTT or PMC data, or names a
// program it does not hold.
Capture capture_of(const Profile &profile);

}  // namespace wavescope::trace::profile
