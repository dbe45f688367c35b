#include "wavescope/trace/profile/profile_builder.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>

#include <fmt/format.h>

namespace wavescope::trace::profile {
namespace {

Picoseconds floor_us(Picoseconds t) {
  Picoseconds q = t / kPicosPerMicro;
  if (t % kPicosPerMicro != 0 && t < 0) --q;
  return q;
}

bool is_host_group(std::string_view device) {
  const auto first = device.substr(0, device.find_first_of(" :"));
  return first == "GC" || first == "USER" || first == "TINY";
}

}  // namespace

// First-fit levels (VIZ 2.6): each span takes the first level whose last span ended by its start.
std::uint32_t stack_levels(std::vector<Span> &spans) {
  std::vector<Picoseconds> last_end;
  for (auto &s : spans) {
    std::size_t level = 0;
    while (level < last_end.size() && last_end[level] > s.start) ++level;
    if (level == last_end.size())
      last_end.push_back(s.end);
    else
      last_end[level] = s.end;
    s.depth = static_cast<std::uint32_t>(level);
  }
  return static_cast<std::uint32_t>(last_end.size());
}

void sort_and_stack(Track &track) {
  const auto by_start = [](const Span &a, const Span &b) {
    return floor_us(a.start) < floor_us(b.start);
  };
  // Most traces are written in order: no sort buffer for those.
  if (!std::is_sorted(track.spans.begin(), track.spans.end(), by_start))
    std::stable_sort(track.spans.begin(), track.spans.end(), by_start);
  track.levels = stack_levels(track.spans);
}

TrackOrderKey track_order_key(std::string_view name) {
  TrackOrderKey key;
  key.memory = name.size() >= 7 && name.substr(name.size() - 7) == " Memory";
  key.name = std::string(name);
  const auto first_word = name.substr(0, name.find(' '));
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    const auto colon = first_word.find(':', at);
    parts.push_back(first_word.substr(at, colon == std::string_view::npos ? colon : colon - at));
    if (colon == std::string_view::npos) break;
    at = colon + 1;
  }
  const auto p0 = parts[0];
  key.group = p0 == "GC" ? 0 : p0 == "USER" ? 1 : p0 == "TINY" ? 2 : p0 == "DISK" ? 999 : 100;
  const bool numbered =
      parts.size() >= 2 && !parts[1].empty() &&
      std::all_of(parts[1].begin(), parts[1].end(), [](char c) { return c >= '0' && c <= '9'; });
  key.base_device = numbered ? std::string(p0) + ":" + std::string(parts[1]) : std::string(p0);
  return key;
}

ProfileBuilder::ProfileBuilder(std::filesystem::path source, std::string format) {
  profile_.source = std::move(source);
  profile_.format = std::move(format);
}

StringId ProfileBuilder::intern(std::string_view text) {
  if (auto it = interned_.find(std::string(text)); it != interned_.end()) return it->second;
  const auto id = static_cast<StringId>(profile_.strings.size());
  profile_.strings.emplace_back(text);
  interned_.emplace(std::string(text), id);
  return id;
}

std::int32_t ProfileBuilder::add_details(SpanDetails details) {
  profile_.span_details.push_back(std::move(details));
  return static_cast<std::int32_t>(profile_.span_details.size() - 1);
}

std::uint32_t ProfileBuilder::device_index(std::string_view device) {
  const std::string name(device);
  if (auto it = device_index_.find(name); it != device_index_.end()) return it->second;
  const auto index = static_cast<std::uint32_t>(device_names_.size());
  device_names_.push_back(name);
  device_index_.emplace(name, index);
  return index;
}

void ProfileBuilder::add_device(Device device) {
  for (auto &d : profile_.devices)
    if (d.name == device.name) {
      d = std::move(device);
      return;
    }
  profile_.devices.push_back(std::move(device));
}

void ProfileBuilder::add_range(std::string_view device, StringId name, Picoseconds start,
                               std::optional<Picoseconds> end, std::int32_t details,
                               std::int32_t program) {
  Record r;
  r.kind = Kind::Range;
  r.device = device_index(device);
  r.name = name;
  r.start = start;
  r.has_end = end.has_value();
  r.end = end.value_or(start);
  r.details = details;
  r.program = program;
  records_.push_back(r);
}

void ProfileBuilder::add_alloc(std::string_view device, std::uint64_t key, std::string dtype,
                               unsigned item_size, std::uint64_t elements, Picoseconds time) {
  Record r;
  r.kind = Kind::Alloc;
  r.device = device_index(device);
  r.start = r.end = time;
  r.key = key;
  r.payload = static_cast<std::uint32_t>(allocs_.size());
  allocs_.push_back({std::move(dtype), item_size, elements});
  records_.push_back(r);
}

void ProfileBuilder::add_free(std::string_view device, std::uint64_t key, Picoseconds time) {
  Record r;
  r.kind = Kind::Free;
  r.device = device_index(device);
  r.start = r.end = time;
  r.key = key;
  records_.push_back(r);
}

void ProfileBuilder::add_exec(std::string_view device, std::uint64_t run, ExecBinding binding,
                              Picoseconds time) {
  Record r;
  r.kind = Kind::Exec;
  r.device = device_index(device);
  r.start = r.end = time;
  r.key = run;
  r.payload = static_cast<std::uint32_t>(execs_.size());
  execs_.push_back(std::move(binding));
  records_.push_back(r);
}

void ProfileBuilder::add_marker(std::string name, std::string color, Picoseconds time) {
  Record r;
  r.kind = Kind::Marker;
  r.start = r.end = time;
  r.payload = static_cast<std::uint32_t>(markers_.size());
  markers_.push_back({time, std::move(name), std::move(color)});
  records_.push_back(r);
}

void ProfileBuilder::add_instant(std::string_view device, StringId name, Picoseconds time,
                                 std::int32_t details) {
  Record r;
  r.kind = Kind::Instant;
  r.device = device_index(device);
  r.start = r.end = time;
  r.name = name;
  r.details = details;
  records_.push_back(r);
}

void ProfileBuilder::add_counter(std::string_view device, double value, Picoseconds time) {
  Record r;
  r.kind = Kind::Counter;
  r.device = device_index(device);
  r.start = r.end = time;
  r.key = std::bit_cast<std::uint64_t>(value);
  records_.push_back(r);
}

void ProfileBuilder::add_graph(GraphBatch batch) {
  Record r;
  r.kind = Kind::Graph;
  r.payload = static_cast<std::uint32_t>(graphs_.size());
  if (batch.track.empty() && !batch.entries.empty()) {
    const auto &first = batch.entries.front().device;
    batch.track = first.substr(0, first.find(':')) + " Graph";
  }
  r.device = device_index(batch.track);
  graphs_.push_back(std::move(batch));
  records_.push_back(r);
}

void ProfileBuilder::add_flow(std::uint64_t id, std::string name, std::string_view from_device,
                              Picoseconds from_time, std::string_view to_device,
                              Picoseconds to_time) {
  RawFlow f;
  f.flow.id = id;
  f.flow.name = std::move(name);
  f.flow.from_time = from_time;
  f.flow.to_time = to_time;
  f.from_device = device_index(from_device);
  f.to_device = device_index(to_device);
  flows_.push_back(std::move(f));
}

Program &ProfileBuilder::add_program(Program program) {
  profile_.programs.push_back(std::move(program));
  return profile_.programs.back();
}

void ProfileBuilder::link_programs() {
  auto &programs = profile_.programs;
  if (programs.empty()) return;
  for (auto &r : records_) {
    if (r.kind != Kind::Range) continue;
    const SpanDetails *d =
        r.details >= 0 ? &profile_.span_details[static_cast<std::size_t>(r.details)] : nullptr;
    const std::string_view key = d ? std::string_view(d->profile_key) : std::string_view();
    const std::string_view name = profile_.strings[r.name];
    const std::string &device = device_names_[r.device];
    for (std::size_t i = programs.size(); i-- > 0;) {
      const auto &p = programs[i];
      const bool by_key = !key.empty() && key == p.profile_key;
      const bool by_name =
          (key.empty() || p.profile_key.empty()) && name == p.name && device == p.device;
      if (!by_key && !by_name) continue;
      r.program = static_cast<std::int32_t>(i);
      if (r.has_end)
        programs[i].runs.push_back(
            {static_cast<double>(reference_us_) + static_cast<double>(r.start) / 1e6,
             static_cast<double>(reference_us_) + static_cast<double>(r.end) / 1e6});
      break;
    }
  }
}

// build() step 2's result: each device's events in recording order, ranges and graph entries on
// the host clock (not yet relative to the origin).
struct ProfileBuilder::Flattened {
  struct Event {
    Picoseconds st, et;
    const Record *record;
  };
  std::vector<Picoseconds> offset;  // each device's clock offset (step 1)
  std::vector<std::vector<Event>> per_device;
  std::vector<std::uint32_t> appearance;  // devices in order of their first event
  std::vector<bool> seen;
  std::vector<Record> graph_records;  // synthetic ranges for graph spans and entries
  std::vector<GraphBatch> graphs;     // the graph batches with aligned times

  void put(std::uint32_t device, Picoseconds st, Picoseconds et, const Record *r) {
    if (device >= per_device.size()) {
      per_device.resize(device + 1);
      seen.resize(device + 1, false);
      offset.resize(device + 1, 0);
    }
    if (!seen[device]) {
      seen[device] = true;
      appearance.push_back(device);
    }
    per_device[device].push_back({st, et, r});
  }
};

// build() steps 4-6 for one device: its sorted events replayed into a span track, a memory track
// and a counter track.
class ProfileBuilder::DeviceReplay {
public:
  DeviceReplay(ProfileBuilder &builder, std::uint32_t device);
  void replay(const Flattened::Event &f, Picoseconds origin);
  // Frees the buffers still alive at the end and keeps the tracks that have content.
  void finish(std::vector<Track> &tracks);

private:
  void add_span(const Record &r, Picoseconds st, Picoseconds et);
  void add_execution(const Record &r, Picoseconds st);
  void allocate(const Record &r, Picoseconds st);
  void release(const Record &r, Picoseconds st);
  std::vector<BufferUser> users_of(std::uint64_t key);
  void free_buffer(std::uint64_t key, Picoseconds at, bool in_profile);

  ProfileBuilder &builder_;
  Profile &p_;
  const std::string &name_;
  const bool host_;
  Track timeline_, memory_, counter_;
  bool has_memory_ = false;
  bool exec_pending_ = false;
  std::uint64_t pending_exec_ = 0;
  std::map<std::uint64_t, std::size_t> live_;  // buffer key -> index in memory_.buffers
  std::vector<std::uint64_t> live_order_;
  std::map<std::uint64_t, std::vector<const Record *>> buffer_runs_;
  double total_ = 0;
};

Profile ProfileBuilder::build() {
  link_programs();
  Flattened flat;
  flat.offset = clock_offsets();
  flatten(flat);
  const Picoseconds origin = place_origin(flat);
  order_tracks_and_events(device_tracks(flat, origin));
  add_flows(origin);
  return std::move(profile_);
}

// 1. Clock offsets, by device (a later registration of a name replaced the earlier one).
std::vector<Picoseconds> ProfileBuilder::clock_offsets() {
  for (const auto &d : profile_.devices) device_index(d.name);
  std::vector<Picoseconds> offset(device_names_.size(), 0);
  for (const auto &d : profile_.devices) offset[device_index(d.name)] = d.clock_offset;
  return offset;
}

// 2. Flatten into per-device lists in recording order, ranges and graph entries aligned.
void ProfileBuilder::flatten(Flattened &flat) {
  flat.per_device.resize(device_names_.size());
  flat.seen.resize(device_names_.size(), false);
  flat.graph_records.reserve(records_.size());
  // Graph records are made first, so pointers into graph_records stay valid.
  std::size_t graph_records_needed = 0;
  for (const auto &r : records_)
    if (r.kind == Kind::Graph) graph_records_needed += 1 + graphs_[r.payload].entries.size();
  flat.graph_records.reserve(graph_records_needed);
  for (const auto &r : records_) {
    switch (r.kind) {
    case Kind::Range: {
      const Picoseconds off = flat.offset[r.device];
      flat.put(r.device, r.start + off, r.end + off, &r);
      break;
    }
    case Kind::Graph: flatten_graph(r, flat); break;
    case Kind::Marker: flat.put(device_index(""), r.start, r.start, &r); break;
    default: flat.put(r.device, r.start, r.start, &r);
    }
  }
}

// A graph batch becomes a span on its own track covering its entries, and each entry a span on
// its device's track, all on the host clock.
void ProfileBuilder::flatten_graph(const Record &r, Flattened &flat) {
  GraphBatch g = graphs_[r.payload];
  Picoseconds st = 0, et = 0;
  bool first = true;
  std::vector<std::pair<Picoseconds, Picoseconds>> times;
  for (auto &e : g.entries) {
    const auto entry_device = device_index(e.device);
    if (entry_device >= flat.offset.size()) flat.offset.resize(entry_device + 1, 0);
    const Picoseconds off = flat.offset[entry_device];
    times.push_back({e.start + off, e.end + off});
    for (Picoseconds t : {e.start + off, e.end + off}) {
      st = first ? t : std::min(st, t);
      et = first ? t : std::max(et, t);
      first = false;
    }
  }
  Record span;
  span.kind = Kind::Range;
  span.device = r.device;
  span.name = intern(fmt::format("batched {}", g.entries.size()));
  span.has_end = true;
  flat.graph_records.push_back(span);
  if (!g.entries.empty()) flat.put(r.device, st, et, &flat.graph_records.back());
  for (std::size_t i = 0; i < g.entries.size(); ++i) {
    Record entry;
    entry.kind = Kind::Range;
    entry.device = device_index(g.entries[i].device);
    entry.name = intern(g.entries[i].name);
    entry.has_end = true;
    flat.graph_records.push_back(entry);
    flat.put(entry.device, times[i].first, times[i].second, &flat.graph_records.back());
    g.entries[i].start = times[i].first;
    g.entries[i].end = times[i].second;
  }
  g.start = st;
  g.end = et;
  flat.graphs.push_back(std::move(g));
}

// 3. The origin: the earliest timestamp, down to a whole microsecond. Sets the duration and
// moves the graph batches, made relative to it, into the profile.
Picoseconds ProfileBuilder::place_origin(Flattened &flat) {
  bool any = false;
  Picoseconds first_us = 0, last = 0;
  for (const auto &events : flat.per_device)
    for (const auto &f : events) {
      first_us = any ? std::min(first_us, floor_us(f.st)) : floor_us(f.st);
      last = any ? std::max(last, f.et) : f.et;
      any = true;
    }
  const Picoseconds origin = first_us * kPicosPerMicro;
  profile_.duration = any ? last - origin : 0;
  for (auto &g : flat.graphs) {
    g.start -= origin;
    g.end -= origin;
    for (auto &e : g.entries) e.start -= origin, e.end -= origin;
  }
  profile_.graphs = std::move(flat.graphs);
  return origin;
}

// 4-6. Tracks per device, in order of the devices' first events.
std::vector<Track> ProfileBuilder::device_tracks(Flattened &flat, Picoseconds origin) {
  std::vector<Track> tracks;
  for (const std::uint32_t device : flat.appearance) {
    auto &events = flat.per_device[device];
    std::stable_sort(events.begin(), events.end(),
                     [](const Flattened::Event &a, const Flattened::Event &b) {
                       return floor_us(a.st) < floor_us(b.st);
                     });
    DeviceReplay replay(*this, device);
    for (const auto &f : events) replay.replay(f, origin);
    replay.finish(tracks);
  }
  return tracks;
}

ProfileBuilder::DeviceReplay::DeviceReplay(ProfileBuilder &builder, std::uint32_t device)
    : builder_(builder), p_(builder.profile_), name_(builder.device_names_[device]),
      host_(is_host_group(name_)) {
  timeline_.name = name_;
  timeline_.device = name_;
  memory_.name = name_ + " Memory";
  memory_.device = name_;
  memory_.kind = TrackKind::Memory;
  counter_.name = name_.starts_with("LINE:") ? name_.substr(5) : name_;
  counter_.device = name_;
  counter_.kind = TrackKind::Counter;
}

void ProfileBuilder::DeviceReplay::replay(const Flattened::Event &f, Picoseconds origin) {
  const Record &r = *f.record;
  const Picoseconds st = f.st - origin, et = f.et - origin;
  switch (r.kind) {
  case Kind::Range:
    if (f.et == f.st) break;  // zero-length (or open) ranges are not shown
    add_span(r, st, et);
    break;
  case Kind::Instant: timeline_.instants.push_back({st, r.name, r.details}); break;
  case Kind::Counter: counter_.samples.push_back({st, std::bit_cast<double>(r.key)}); break;
  case Kind::Exec: add_execution(r, st); break;
  case Kind::Alloc: allocate(r, st); break;
  case Kind::Free: release(r, st); break;
  case Kind::Marker: {
    auto m = builder_.markers_[r.payload];
    m.time = st;
    p_.markers.push_back(std::move(m));
    break;
  }
  case Kind::Graph: break;
  }
}

// A device span, bound to the exec event before it.
void ProfileBuilder::DeviceReplay::add_span(const Record &r, Picoseconds st, Picoseconds et) {
  Span s;
  s.start = st;
  s.end = et;
  s.name = r.name;
  s.program = r.program;
  s.details = r.details;
  if (exec_pending_ && !host_) {
    if (s.details < 0) s.details = builder_.add_details({});
    p_.span_details[static_cast<std::size_t>(s.details)].exec = pending_exec_;
    exec_pending_ = false;
  }
  timeline_.spans.push_back(s);
}

void ProfileBuilder::DeviceReplay::add_execution(const Record &r, Picoseconds st) {
  const auto &b = builder_.execs_[r.payload];
  Execution x;
  x.time = st;
  x.device = name_;
  x.run = r.key;
  x.name = b.name;
  x.buffers = b.buffers;
  for (unsigned i = 0; i < b.buffers.size(); ++i) {
    const bool in = std::find(b.inputs.begin(), b.inputs.end(), i) != b.inputs.end();
    const bool out = std::find(b.outputs.begin(), b.outputs.end(), i) != b.outputs.end();
    x.modes.push_back(in && out ? AccessMode::ReadWrite
                      : out     ? AccessMode::Write
                                : AccessMode::Read);
  }
  p_.executions.push_back(std::move(x));
  exec_pending_ = true;
  pending_exec_ = r.key;
  for (auto key : b.buffers) buffer_runs_[key].push_back(&r);
}

void ProfileBuilder::DeviceReplay::allocate(const Record &r, Picoseconds st) {
  has_memory_ = true;
  const auto &a = builder_.allocs_[r.payload];
  Buffer b;
  b.key = r.key;
  b.dtype = a.dtype;
  b.item_size = a.item_size;
  b.elements = std::min<std::uint64_t>(a.elements, 1'000'000'000'000ull);
  b.allocated = st;
  if (live_.count(r.key)) {
    p_.notes.push_back(fmt::format("{}: buffer {} allocated again before it was freed; the "
                                   "first allocation is taken as freed then",
                                   name_, r.key));
    free_buffer(r.key, st, true);
  }
  live_[r.key] = memory_.buffers.size();
  live_order_.push_back(r.key);
  memory_.buffers.push_back(std::move(b));
  total_ += static_cast<double>(memory_.buffers.back().bytes());
  memory_.usage.push_back({st, total_});
  memory_.peak = std::max(memory_.peak, total_);
}

void ProfileBuilder::DeviceReplay::release(const Record &r, Picoseconds st) {
  has_memory_ = true;
  if (!live_.count(r.key)) {
    p_.notes.push_back(
        fmt::format("{}: buffer {} freed but never allocated; ignored", name_, r.key));
    return;
  }
  free_buffer(r.key, st, true);
}

// The runs that used a buffer, with the argument and mode; each run is listed once, at its free.
std::vector<BufferUser> ProfileBuilder::DeviceReplay::users_of(std::uint64_t key) {
  std::vector<BufferUser> users;
  auto it = buffer_runs_.find(key);
  if (it == buffer_runs_.end()) return users;
  for (const Record *run : it->second) {
    const auto &exec = builder_.execs_[run->payload];
    unsigned num = 0;
    while (num < exec.buffers.size() && exec.buffers[num] != key) ++num;
    const bool in = std::find(exec.inputs.begin(), exec.inputs.end(), num) != exec.inputs.end();
    const bool out = std::find(exec.outputs.begin(), exec.outputs.end(), num) != exec.outputs.end();
    users.push_back({run->key, exec.name, num,
                     in && out ? AccessMode::ReadWrite
                     : out     ? AccessMode::Write
                               : AccessMode::Read});
  }
  buffer_runs_.erase(it);
  return users;
}

void ProfileBuilder::DeviceReplay::free_buffer(std::uint64_t key, Picoseconds at, bool in_profile) {
  const auto it = live_.find(key);
  auto &b = memory_.buffers[it->second];
  b.freed = at;
  b.freed_in_profile = in_profile;
  b.users = users_of(key);
  total_ -= static_cast<double>(b.bytes());
  memory_.usage.push_back({at, total_});
  live_.erase(it);
}

void ProfileBuilder::DeviceReplay::finish(std::vector<Track> &tracks) {
  for (const auto key : live_order_)
    if (live_.count(key)) free_buffer(key, p_.duration, false);

  if (!timeline_.spans.empty() || !timeline_.instants.empty()) {
    timeline_.levels = stack_levels(timeline_.spans);
    tracks.push_back(std::move(timeline_));
  }
  if (has_memory_) {
    p_.memory_peak = std::max(p_.memory_peak, memory_.peak);
    tracks.push_back(std::move(memory_));
  }
  if (!counter_.samples.empty()) {
    for (const auto &s : counter_.samples) counter_.peak = std::max(counter_.peak, s.value);
    tracks.push_back(std::move(counter_));
  }
}

// 7. Track order; 8. markers (and executions) by time.
void ProfileBuilder::order_tracks_and_events(std::vector<Track> tracks) {
  Profile &p = profile_;
  std::stable_sort(p.markers.begin(), p.markers.end(),
                   [](const Marker &a, const Marker &b) { return a.time < b.time; });
  std::stable_sort(p.executions.begin(), p.executions.end(),
                   [](const Execution &a, const Execution &b) { return a.time < b.time; });
  std::stable_sort(tracks.begin(), tracks.end(), [](const Track &a, const Track &b) {
    return track_order_key(a.name) < track_order_key(b.name);
  });
  p.tracks = std::move(tracks);
}

// The flows between the ordered tracks' spans, relative to the origin; a flow whose end has no
// span track is dropped.
void ProfileBuilder::add_flows(Picoseconds origin) {
  Profile &p = profile_;
  for (auto &raw : flows_) {
    Flow f = raw.flow;
    f.from_time -= origin;
    f.to_time -= origin;
    auto track_of = [&](std::uint32_t device) -> std::size_t {
      for (std::size_t i = 0; i < p.tracks.size(); ++i)
        if (p.tracks[i].device == device_names_[device] && p.tracks[i].kind == TrackKind::Spans)
          return i;
      return p.tracks.size();
    };
    f.from_track = track_of(raw.from_device);
    f.to_track = track_of(raw.to_device);
    if (f.from_track < p.tracks.size() && f.to_track < p.tracks.size())
      p.flows.push_back(std::move(f));
  }
}

}  // namespace wavescope::trace::profile
