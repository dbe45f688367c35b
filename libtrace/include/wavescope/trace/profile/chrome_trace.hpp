#pragma once
// Chrome trace-event JSON (what chrome://tracing and Perfetto load) in and out of the profile
// model.
//
// Reading takes both forms (an object with "traceEvents", or a bare array, whose closing bracket
// may be missing as Chrome allows) and the phases X (complete), B/E (begin/end, matched per
// thread), i/I (instants; global ones become markers), C (counters: one counter track per
// series), M (process and thread names and sort indices) and s/t/f (flows, chained by id);
// other phases are counted in the profile's notes. Timestamps ("ts", "dur") are microseconds as
// the format defines them (displayTimeUnit only changes how a viewer displays them; it is kept)
// and are converted from their decimal text exactly. Each thread is a track named by its
// thread_name; threads of one process with the same name are one track (how the writer splits a
// track's overlapping spans).
//
// Writing gives each device a process and each track a thread (named with M events); spans are
// X events, and spans of one track that overlap without nesting go to further threads of the
// same name; instants are "i", markers global "i", memory totals and counter series "C", graph
// dependencies and flows "s"/"f". A capture adds, per shader engine, its waves (in shader cycles,
// shown as nanoseconds, from the start of their kernel's span when the profile has one) and, when
// there is no profile timeline, its kernels. Names are written without tinygrad's ANSI colors.

#include <filesystem>
#include <ostream>
#include <span>
#include <string>

#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

// True when the first non-blank byte of `head` opens a JSON object or array.
bool looks_like_json(std::span<const std::uint8_t> head);

// Reads a trace file (mapped; its pages are released as they are read). Throws Error(BadInput)
// naming the file and byte offset.
Profile read_chrome_trace(const std::filesystem::path &path);
// Reads trace JSON held in memory; `source` names it in errors.
Profile parse_chrome_trace(std::span<const std::uint8_t> json, const std::filesystem::path &source);

struct ChromeTraceOptions {
  const Capture *capture = nullptr;  // add its kernels and per-SE wave activity
};

struct ChromeTraceStats {
  std::size_t events = 0;  // trace events written, metadata included
  std::size_t spans = 0, instants = 0, counter_samples = 0, flows = 0, waves = 0;
};

// The trace as JSON text.
std::string chrome_trace_json(const Profile &profile, const ChromeTraceOptions &options = {},
                              ChromeTraceStats *stats = nullptr);
// Writes it atomically (a failure leaves no partial file).
ChromeTraceStats write_chrome_trace(const Profile &profile, const std::filesystem::path &out,
                                    const ChromeTraceOptions &options = {});
// What `wavectl profile export` prints about a written trace.
void print_export_text(std::ostream &out, const std::filesystem::path &file,
                       const ChromeTraceStats &stats);
void print_export_json(std::ostream &out, const std::filesystem::path &file,
                       const ChromeTraceStats &stats);

}  // namespace wavescope::trace::profile
