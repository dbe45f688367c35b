#pragma once
// Decoding raw PMC sample buffers (spec sqtt.md §16.5): an array of little-endian uint64 slots;
// each schedule entry owns `size / 8` slots from byte `offset`, enumerated xcc, inst, se, sa, wgp
// (wgp fastest). Malformed schedules or buffers are refused with Error(BadInput) naming the entry.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wavescope/base/progress.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/pmc/pmc_sample.hpp"

namespace wavescope::trace::pmc {

struct DecodeOptions {
  std::string processor;    // LLVM processor (picks the catalogue); may be empty
  std::string source_name;  // how to name the buffer in errors and notes, e.g. "pmc_0.bin"
  // Bytes the schedule is meant to cover (the capture's used_bytes); 0 = unknown. Non-zero bytes
  // past it are reported as a note.
  std::uint64_t used_bytes = 0;
};

// Decodes one buffer against its schedule: per counter the slots, per-instance rows, sum, max
// and count, then the derived metrics. Throws Error(BadInput) for an entry with a zero count in
// its geometry, a size that is not 8 x its slot count, an offset not a multiple of 8, or slots
// outside the buffer.
DispatchCounters decode_samples(std::span<const std::uint8_t> buffer,
                                std::span<const PmcSampleSpec> schedule,
                                const DecodeOptions &options = {});

// Reads and decodes every PMC event of a capture, in capture order; reports "pmc" progress per
// event. Throws Error(BadInput) naming the file for an unreadable or malformed buffer.
std::vector<DispatchCounters> decode_capture(const Capture &capture,
                                             const ProgressSink &progress = {});

// Reads and decodes one PMC event of a capture.
DispatchCounters decode_event(const Capture &capture, const CapturePmc &event);

}  // namespace wavescope::trace::pmc
