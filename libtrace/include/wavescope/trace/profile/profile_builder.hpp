#pragma once
// Collecting a profile's raw events and normalising them into a Profile the way tinygrad VIZ
// does (spec viz.md a.6): every profile reader feeds one of these.
//
// Raw times are picoseconds on each device's own clock, all measured from one reference the
// reader picks, which must be a whole number of microseconds (so VIZ's whole-microsecond figures
// stay exact). build() then
//   1. adds each device's clock offset to its ranges and to graph entries (point events are
//      host-clock already and are not shifted);
//   2. turns each graph batch into a "<DEV> Graph" span covering its entries, and places every
//      entry on its own device's track;
//   3. takes the earliest timestamp, rounded down to a whole microsecond, as the origin;
//   4. sorts each device's events by whole-microsecond start (stably: ties keep their recording
//      order, as VIZ's sort does), drops zero-length ranges, binds device spans to the exec
//      event before them, and stacks spans into first-fit levels;
//   5. builds a memory track per device with alloc/free events: running total, peak, and the
//      runs (exec events) that used each buffer, with the argument and mode; buffers alive at
//      the end are freed there; element counts are capped at 1e12;
//   6. turns each LINE:<name> device into a counter track <name>;
//   7. orders tracks: GC, USER, TINY, then devices by base device (a device's Graph and copy
//      tracks beside it), DISK, memory tracks last;
//   8. keeps markers by time.
// Before that it links kernel spans to their programs (add_program).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

struct ExecBinding {
  std::string name;  // the run's (kernel's) name
  std::vector<std::uint64_t> buffers;
  std::vector<unsigned> inputs, outputs;  // indices into buffers
};

class ProfileBuilder {
public:
  ProfileBuilder(std::filesystem::path source, std::string format);

  StringId intern(std::string_view text);
  std::int32_t add_details(SpanDetails details);

  // A device registration; a later one of the same name replaces its clock offset.
  void add_device(Device device);
  // A range on `device`'s clock; no end means a zero-length range (dropped, as VIZ does).
  void add_range(std::string_view device, StringId name, Picoseconds start,
                 std::optional<Picoseconds> end, std::int32_t details = -1,
                 std::int32_t program = -1);
  void add_alloc(std::string_view device, std::uint64_t key, std::string dtype, unsigned item_size,
                 std::uint64_t elements, Picoseconds time);
  void add_free(std::string_view device, std::uint64_t key, Picoseconds time);
  void add_exec(std::string_view device, std::uint64_t run, ExecBinding binding, Picoseconds time);
  void add_marker(std::string name, std::string color, Picoseconds time);
  void add_instant(std::string_view device, StringId name, Picoseconds time,
                   std::int32_t details = -1);
  // A sample of a numeric series: device "LINE:<name>" becomes the counter track <name>.
  void add_counter(std::string_view device, double value, Picoseconds time);
  // A graph batch with entry times on their devices' clocks.
  void add_graph(GraphBatch batch);
  // A dependency between two raw points (already on the host clock).
  void add_flow(std::uint64_t id, std::string name, std::string_view from_device,
                Picoseconds from_time, std::string_view to_device, Picoseconds to_time);

  // A GPU program. build() links it to its kernel spans: those on its device with its name, or
  // with its profile key when both have one (the last such program registered wins), and lists
  // them as its runs.
  Program &add_program(Program program);
  // The whole microsecond the raw times count from (for the programs' runs, which keep the
  // device's own clock).
  void set_reference_us(std::int64_t us) { reference_us_ = us; }
  void add_sqtt(SqttTrace trace) { profile_.sqtt.push_back(std::move(trace)); }
  void add_pmc(PmcTrace trace) { profile_.pmc.push_back(std::move(trace)); }
  void note(std::string text) { profile_.notes.push_back(std::move(text)); }
  void keep_alive(std::shared_ptr<const void> owner) { profile_.keep_alive = std::move(owner); }

  // Normalises what was added; the builder is spent afterwards.
  Profile build();

private:
  enum class Kind : std::uint8_t { Range, Alloc, Free, Exec, Marker, Instant, Counter, Graph };
  // One raw event in recording order; build() replays them as VIZ does.
  struct Record {
    Picoseconds start = 0, end = 0;
    std::uint64_t key = 0;  // buffer key, run id; a counter's value (bit copy)
    StringId name = 0;
    std::uint32_t device = 0;  // index into device_names_
    std::int32_t details = -1, program = -1;
    std::uint32_t payload = 0;  // index into allocs_ / execs_ / markers_ / graphs_
    Kind kind = Kind::Range;
    bool has_end = false;
  };
  struct AllocInfo {
    std::string dtype;
    unsigned item_size = 0;
    std::uint64_t elements = 0;
  };
  struct RawFlow {
    Flow flow;
    std::uint32_t from_device = 0, to_device = 0;
  };
  std::uint32_t device_index(std::string_view device);

  Profile profile_;
  std::unordered_map<std::string, StringId> interned_;
  std::vector<std::string> device_names_;
  std::unordered_map<std::string, std::uint32_t> device_index_;
  std::vector<Record> records_;
  std::vector<AllocInfo> allocs_;
  std::vector<ExecBinding> execs_;
  std::vector<Marker> markers_;
  std::vector<GraphBatch> graphs_;
  std::vector<RawFlow> flows_;
  std::int64_t reference_us_ = 0;
  void link_programs();

  // build()'s phases (profile_builder.cpp), numbered as above.
  struct Flattened;
  class DeviceReplay;
  std::vector<Picoseconds> clock_offsets();                               // 1
  void flatten(Flattened &flat);                                          // 2
  void flatten_graph(const Record &r, Flattened &flat);                   // 2
  Picoseconds place_origin(Flattened &flat);                              // 3
  std::vector<Track> device_tracks(Flattened &flat, Picoseconds origin);  // 4-6
  void order_tracks_and_events(std::vector<Track> tracks);                // 7, 8
  void add_flows(Picoseconds origin);
};

// Stacks spans (in their order) into first-fit levels: each takes the first level whose last span
// ended by its start. Returns the number of levels.
std::uint32_t stack_levels(std::vector<Span> &spans);
// Sorts spans by whole-microsecond start, keeping the order of spans that start in the same
// microsecond (VIZ's sort), then stacks them.
void sort_and_stack(Track &track);

// VIZ's track order key (a.6 step 7), as a comparable tuple.
struct TrackOrderKey {
  bool memory;
  int group;  // GC 0, USER 1, TINY 2, devices 100, DISK 999
  std::string base_device;
  std::string name;
  auto operator<=>(const TrackOrderKey &) const = default;
};
TrackOrderKey track_order_key(std::string_view track_name);

}  // namespace wavescope::trace::profile
