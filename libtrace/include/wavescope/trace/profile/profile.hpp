#pragma once
// The profile model: what every profile source (a tinygrad profile pickle, a Chrome/Perfetto
// trace JSON) fills, and what the app's timeline and memory views and `wavectl profile` read.
//
// A profile is normalised as tinygrad VIZ normalises one (spec viz.md a.6): device clocks aligned
// to the host clock, graph batches spread onto their devices, one time origin, tracks sorted and
// ordered, spans stacked into levels, memory tracks with their peak and the users of every
// buffer. Times are integer picoseconds from the origin, which is the earliest event's timestamp
// rounded down to a whole microsecond (VIZ's origin), so VIZ's own whole-microsecond figures are
// exact integer arithmetic on them.
//
// Beside the timeline, a profile keeps what a capture needs: the GPU programs (code objects with
// load addresses), and per dispatch the SQTT blobs and PMC samples (capture_of in
// profile_capture.hpp turns them into a Capture).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wavescope/base/byte_source.hpp"
#include "wavescope/trace/capture.hpp"

namespace wavescope::trace::profile {

using Picoseconds = std::int64_t;
inline constexpr Picoseconds kPicosPerMicro = 1'000'000;
inline double to_us(Picoseconds t) { return static_cast<double>(t) / 1e6; }
inline double to_ms(Picoseconds t) { return static_cast<double>(t) / 1e9; }

// Strings are interned: spans name themselves by index into Profile::strings.
using StringId = std::uint32_t;

struct Device {
  std::string name;              // "AMD", "AMD:SDMA:0", "CPU", "TINY", ...
  Picoseconds clock_offset = 0;  // tdiff: added to the device's ranges to reach host time
  std::vector<std::pair<std::string, std::string>> properties;  // as recorded, values as text
  unsigned gfx_target_version = 0;                              // from the properties, 0 when none
};

struct StackFrame {
  std::string file;
  std::int64_t line = 0;
  std::string function;
  std::string code;
};

// The rarer parts of a span, kept apart so spans stay small.
struct SpanDetails {
  std::optional<std::uint64_t> exec;   // the exec (run) id that bound a device kernel span
  std::optional<std::uint64_t> bytes;  // bytes moved (a copy); B/s = bytes / duration
  std::string metadata;                // free text
  std::vector<std::pair<std::string, std::string>> fields;  // extra fields: key, JSON-encoded value
  std::vector<StackFrame> stack;                            // the Python call stack, innermost last
  std::string profile_key;  // hex of the key linking a kernel span to its codegen context
  std::string category;     // Chrome trace "cat"
};

struct Span {
  Picoseconds start = 0, end = 0;
  StringId name = 0;
  std::uint32_t depth = 0;    // stacking level: the first level whose last span ended by start
  std::int32_t program = -1;  // index into Profile::programs when the span runs one
  std::int32_t details = -1;  // index into Profile::span_details, -1 for none
  Picoseconds duration() const { return end - start; }
};

// A point in time on a track (Chrome "i"/"I" events, tinygrad point events other than
// alloc/free/exec/marker).
struct Instant {
  Picoseconds time = 0;
  StringId name = 0;
  std::int32_t details = -1;
};

enum class AccessMode : std::uint8_t { Read, Write, ReadWrite };
const char *to_string(AccessMode mode);

// A kernel run that used a buffer.
struct BufferUser {
  std::uint64_t exec = 0;  // run id
  std::string kernel;      // the run's name
  unsigned argument = 0;   // which kernel argument (data<n>)
  AccessMode mode = AccessMode::Read;
};

struct Buffer {
  std::uint64_t key = 0;
  std::string dtype;
  unsigned item_size = 0;
  std::uint64_t elements = 0;  // capped at 1e12 as VIZ does
  std::uint64_t bytes() const { return elements * item_size; }
  Picoseconds allocated = 0, freed = 0;  // freed: the free, or the profile's end if none
  bool freed_in_profile = false;
  std::vector<BufferUser> users;
};

struct CounterSample {
  Picoseconds time = 0;
  double value = 0;
};

enum class TrackKind : std::uint8_t {
  Spans,    // a device's or a host thread's spans and instants
  Memory,   // a device's allocations: buffers and their running total
  Counter,  // a numeric series (a LINE:<name> device, a Chrome "C" counter)
};

struct Track {
  std::string name;    // "TINY", "AMD", "AMD Graph", "AMD:SDMA:0", "AMD Memory", ...
  std::string device;  // the device it shows
  TrackKind kind = TrackKind::Spans;
  std::vector<Span> spans;  // by start, levels assigned
  std::uint32_t levels = 0;
  std::vector<Instant> instants;
  // Memory tracks: every buffer by allocation time, and the running total after each event.
  std::vector<Buffer> buffers;
  std::vector<CounterSample> usage;
  // Counter tracks: the series; Memory and Counter tracks: the peak.
  std::vector<CounterSample> samples;
  double peak = 0;
};

// A kernel run as the host launched it (tinygrad's exec point event): its buffers and how each
// was used. The device span it started, if the device recorded one, has details().exec == run.
struct Execution {
  Picoseconds time = 0;
  std::string device;
  std::uint64_t run = 0;
  std::string name;
  std::vector<std::uint64_t> buffers;  // buffer keys, by argument number
  std::vector<AccessMode> modes;       // per argument
};

struct Marker {
  Picoseconds time = 0;
  std::string name;
  std::string color;
};

// A batched command graph (a JIT/HCQ graph): one "<DEV> Graph" span covering its entries; each
// entry is also a span on its own device's track.
struct GraphBatch {
  std::string track;  // "<DEV> Graph"
  Picoseconds start = 0, end = 0;
  struct Entry {
    std::string device, name;
    Picoseconds start = 0, end = 0;
  };
  std::vector<Entry> entries;
  std::vector<std::pair<std::size_t, std::size_t>> dependencies;  // entry -> entry it waits on
};

// A dependency arrow between two points of the timeline (graph dependencies, Chrome flows).
struct Flow {
  std::uint64_t id = 0;
  std::string name;
  std::size_t from_track = 0, to_track = 0;
  Picoseconds from_time = 0, to_time = 0;
};

struct Program {
  std::string name;
  std::string device;
  std::uint32_t tag = 0;        // the id SQTT and PMC events name it by
  std::uint64_t base = 0;       // GPU address the ELF was loaded at
  ByteSource code;              // the code object
  std::string profile_key;      // hex, empty when none
  std::vector<ExecRange> runs;  // its kernel spans, in microseconds of the device's own clock
};

// The SQ thread trace of one shader engine for one dispatch.
struct SqttTrace {
  std::string device;
  std::uint32_t program_tag = 0;
  unsigned se = 0;
  bool itrace = false;
  std::uint64_t exec_tag = 0;
  ByteSource blob;
  std::size_t recorded = 0;  // position among the source's events
};

// The performance counter readout of one dispatch.
struct PmcTrace {
  std::string device;
  std::uint32_t program_tag = 0;
  std::uint64_t exec_tag = 0;
  std::vector<PmcSampleSpec> schedule;
  ByteSource blob;
  std::size_t recorded = 0;  // position among the source's events
};

struct Profile {
  std::filesystem::path source;   // the file it was read from
  std::string format;             // "tinygrad profile", "Chrome trace JSON"
  std::string display_time_unit;  // a Chrome trace's displayTimeUnit ("ms", "ns"), if it named one
  std::vector<std::string> strings;
  std::vector<Device> devices;  // in registration order
  std::vector<Track> tracks;    // in VIZ's order (a.6 step 7)
  std::vector<SpanDetails> span_details;
  std::vector<Marker> markers;        // by time
  std::vector<Execution> executions;  // by time
  std::vector<GraphBatch> graphs;
  std::vector<Flow> flows;
  std::vector<Program> programs;
  std::vector<SqttTrace> sqtt;
  std::vector<PmcTrace> pmc;
  Picoseconds duration = 0;                // latest end minus the origin
  double memory_peak = 0;                  // the largest memory-track peak, in bytes
  std::vector<std::string> notes;          // what was tolerated while reading
  std::shared_ptr<const void> keep_alive;  // memory the byte sources above point into

  std::string_view str(StringId id) const { return strings[id]; }
  const SpanDetails *details(const Span &s) const {
    return s.details < 0 ? nullptr : &span_details[static_cast<std::size_t>(s.details)];
  }
  const Track *track(std::string_view name) const;
  const Device *device(std::string_view name) const;
  std::size_t span_count() const;
  // The device properties of the first GPU device (gfx_target_version set), if any.
  const Device *gpu() const;
};

// Strips ANSI color escapes (tinygrad colors kernel names): "r\x1b[90m_\x1b[0m32" -> "r_32".
std::string plain_text(std::string_view text);

}  // namespace wavescope::trace::profile
