#include "wavescope/trace/timeline/timeline_model.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include <fmt/format.h>

namespace wavescope::trace::timeline {

std::string_view to_string(EventCategory category) {
  switch (category) {
  case EventCategory::Salu: return "salu";
  case EventCategory::Smem: return "smem";
  case EventCategory::Valu: return "valu";
  case EventCategory::Transcendental: return "trans";
  case EventCategory::Wmma: return "wmma";
  case EventCategory::Vmem: return "vmem";
  case EventCategory::Lds: return "lds";
  case EventCategory::Branch: return "branch";
  case EventCategory::Immediate: return "immediate";
  case EventCategory::Barrier: return "barrier";
  case EventCategory::Message: return "message";
  case EventCategory::WaveEnd: return "wave_end";
  case EventCategory::WaveReady: return "wave_ready";
  case EventCategory::OtherSimd: return "other_simd";
  case EventCategory::Other: return "other";
  }
  return "other";
}

EventCategory categorize_event(std::string_view n) {
  if (n.starts_with("OTHER_")) return EventCategory::OtherSimd;
  if (n.find("WMMA") != std::string_view::npos) return EventCategory::Wmma;
  if (n.starts_with("WAVEEND") || n == "CDNA_WAVEEND") return EventCategory::WaveEnd;
  if (n == "WAVERDY") return EventCategory::WaveReady;
  if (n == "IMMEDIATE") return EventCategory::Immediate;
  if (n.starts_with("BARRIER")) return EventCategory::Barrier;
  if (n.starts_with("JUMP") || n == "CALL" || n == "NEXT" || n == "PC")
    return EventCategory::Branch;
  if (n == "MESSAGE" || n == "OTHER_MSG") return EventCategory::Message;
  if (n.starts_with("VALUT") || n == "VALU_SCL_TRANS") return EventCategory::Transcendental;
  if (n.starts_with("SMEM")) return EventCategory::Smem;
  if (n.starts_with("SALU")) return EventCategory::Salu;
  if (n.starts_with("VALU") || n.starts_with("VINTERP") || n.starts_with("DYN_VGPR"))
    return EventCategory::Valu;
  if (n.starts_with("LDS")) return EventCategory::Lds;
  if (n.starts_with("SGMEM") || n.starts_with("VMEM") || n.starts_with("FLAT") ||
      n.starts_with("BUF"))
    return EventCategory::Vmem;
  return EventCategory::Other;
}

std::pair<std::size_t, std::size_t> TimelineRow::overlapping(std::int64_t t0,
                                                             std::int64_t t1) const {
  auto by_start = [](const TimelineEvent &e, std::int64_t t) { return e.start < t; };
  const auto first = std::lower_bound(events.begin(), events.end(), t0 - max_duration, by_start);
  const auto last = std::lower_bound(first, events.end(), t1, by_start);
  return {static_cast<std::size_t>(first - events.begin()),
          static_cast<std::size_t>(last - events.begin())};
}

std::pair<std::size_t, std::size_t> TimelineRow::states_overlapping(std::int64_t t0,
                                                                    std::int64_t t1) const {
  // Runs do not overlap, so they are sorted by end as well as by start.
  const auto first =
      std::upper_bound(states.begin(), states.end(), t0,
                       [](std::int64_t t, const WaveStateRun &r) { return t < r.end; });
  const auto last = std::lower_bound(
      first, states.end(), t1, [](const WaveStateRun &r, std::int64_t t) { return r.start < t; });
  return {static_cast<std::size_t>(first - states.begin()),
          static_cast<std::size_t>(last - states.begin())};
}

namespace {

// A wave's states, which cover its lifetime and end with it at `end`.
void append_states(TimelineRow &row, std::int64_t end, std::span<const WaveStateSpan> states) {
  std::int64_t t = end;
  for (const auto &s : states) t -= s.duration;
  for (const auto &s : states) {
    row.states.push_back({t, t + s.duration, s.state});
    t += s.duration;
  }
}

// A new event at the end of a row, filled in place: an event built on the stack and copied in
// is read back in 16-byte pieces right after its 8-byte stores, which stalls store forwarding.
// Rows start with room for a blob's worth of events (a few hundred), not growing from one by
// doubling, each step a copy.
TimelineEvent &new_event(TimelineRow &row) {
  if (row.events.capacity() == 0) row.events.reserve(256);
  return row.events.emplace_back();
}

// Sorts a row's events by start, keeping the order of equal starts (std::stable_sort's result).
// Exec events come nearly in start order (each is reported when its unit ends it), so an
// insertion sort is about one pass; a row that needs more moves than a few per event (garbage
// input) goes to std::stable_sort instead, so the work stays O(n log n).
void sort_by_start(std::vector<TimelineEvent> &events) {
  const std::size_t n = events.size();
  std::size_t budget = 8 * n + 64;
  for (std::size_t i = 1; i < n; ++i) {
    if (events[i - 1].start <= events[i].start) continue;
    const TimelineEvent e = events[i];
    std::size_t j = i;
    while (j > 0 && events[j - 1].start > e.start && budget > 0) {
      events[j] = events[j - 1];
      --j, --budget;
    }
    events[j] = e;
    if (budget == 0) {
      std::stable_sort(
          events.begin(), events.end(),
          [](const TimelineEvent &a, const TimelineEvent &b) { return a.start < b.start; });
      return;
    }
  }
}

}  // namespace

EventCategory TimelineBuilder::category_of(std::string_view name) {
  auto &e = names_[(reinterpret_cast<std::uintptr_t>(name.data()) >> 3) % names_.size()];
  if (e.data != name.data() || e.size != name.size() || !e.data)
    e = {name.data(), name.size(), categorize_event(name), false};
  return e.category;
}

// An exec event's category: its unit's ("ALUEXEC:0 VALU" -> Valu), but a WMMA event on the VALU
// row is a Wmma one.
EventCategory TimelineBuilder::exec_category_of(std::string_view row, std::string_view name) {
  auto &u = units_[(reinterpret_cast<std::uintptr_t>(row.data()) >> 3) % units_.size()];
  if (u.data != row.data() || u.size != row.size() || !u.data)
    u = {row.data(), row.size(), categorize_event(row.substr(row.find(' ') + 1)),
         row.ends_with("VALU")};
  if (!u.valu) return u.category;
  auto &w = wmma_[(reinterpret_cast<std::uintptr_t>(name.data()) >> 3) % wmma_.size()];
  if (w.data != name.data() || w.size != name.size() || !w.data)
    w = {name.data(), name.size(), EventCategory::Wmma,
         name.find("WMMA") != std::string_view::npos};
  return w.valu ? EventCategory::Wmma : u.category;
}

void add_wave_states(SeTimeline &timeline, unsigned slot, std::int64_t end,
                     const std::vector<WaveStateSpan> &states) {
  const int r = timeline.wave_row(slot);
  if (r < 0 || states.empty()) return;
  auto &row = timeline.rows[static_cast<std::size_t>(r)];
  append_states(row, end, states);
  std::sort(row.states.begin(), row.states.end(),
            [](const WaveStateRun &a, const WaveStateRun &b) { return a.start < b.start; });
}

const TimelineRow *SeTimeline::row(std::string_view name) const {
  for (const auto &r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

int SeTimeline::wave_row(unsigned slot) const {
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].kind == RowKind::WaveSlot && rows[i].slot == slot) return static_cast<int>(i);
  return -1;
}

TimelineBuilder::TimelineBuilder(unsigned se, std::string blob) {
  timeline_.se = se;
  timeline_.blob = std::move(blob);
  // Rows are made as slots have events and named in finish(): a blob uses a few of the 32
  // slots, and a builder is made per blob (blobs are a few KB: per-blob work counts).
  slot_row_.fill(-1);
}

TimelineRow &TimelineBuilder::wave_row(unsigned slot) {
  slot %= 32;
  if (slot_row_[slot] < 0) {
    slot_row_[slot] = static_cast<std::int8_t>(wave_rows_.size());
    if (wave_rows_.capacity() == 0) wave_rows_.reserve(8);
    auto &r = wave_rows_.emplace_back();
    r.kind = RowKind::WaveSlot;
    r.slot = slot;
  }
  return wave_rows_[static_cast<std::size_t>(slot_row_[slot])];
}

void TimelineBuilder::on_wave(const Wave &wave) {
  if (timeline_.waves.capacity() == 0) timeline_.waves.reserve(64);
  timeline_.waves.push_back(wave);
}

void TimelineBuilder::on_dispatch(const DispatchEvent &d) {
  if (d.inserted) return;  // not a VIZ event (an RDNA4 s_barrier_wait without a packet)
  auto &row = wave_row(d.slot);
  if (d.kind == DispatchKind::WaveEnd) append_states(row, d.time, d.states);
  const EventCategory category =
      d.kind == DispatchKind::OtherSimd ? EventCategory::OtherSimd : category_of(d.name);
  TimelineEvent &e = new_event(row);
  e.start = d.time;
  e.end = d.time + 1;
  e.name = d.name;
  e.category = category;
  e.index = d.row_index;
  e.has_pc = d.has_pc;
  e.pc = d.pc;
  e.stall = d.stall;
  e.latency = d.duration;
}

TimelineRow &TimelineBuilder::exec_row(std::string_view name) {
  // By the name's address first (the analyzer's row names are literals), then by its text.
  for (std::size_t i = 0; i < exec_keys_.size(); ++i)
    if (exec_keys_[i].data() == name.data() && exec_keys_[i].size() == name.size())
      return exec_rows_[i];
  for (auto &r : exec_rows_)
    if (r.name == name) return r;
  exec_rows_.emplace_back();
  exec_rows_.back().kind = RowKind::ExecUnit;
  exec_rows_.back().name = std::string(name);
  exec_keys_.push_back(name);
  return exec_rows_.back();
}

void TimelineBuilder::on_exec(const ExecEvent &x) {
  auto &row = exec_row(x.row);
  const EventCategory category = exec_category_of(x.row, x.name);
  const auto index = static_cast<std::uint32_t>(row.events.size());
  TimelineEvent &e = new_event(row);
  e.start = x.start;
  e.end = x.end;
  e.name = x.name;
  e.category = category;
  e.index = index;
  e.has_pc = x.instruction != nullptr;
  e.pc = x.pc;
  if (x.linked) {
    e.link_row = static_cast<std::int32_t>(x.slot);  // a slot until finish() resolves it
    e.link_index = x.row_index;
  }
}

void TimelineBuilder::on_barrier(const BarrierSpan &span) {
  const int r = slot_row_[span.slot % 32];
  if (r < 0) return;
  auto &row = wave_rows_[static_cast<std::size_t>(r)];
  if (span.row_index < row.events.size()) row.events[span.row_index].end = span.end;
}

void TimelineBuilder::on_clock(const ClockPoint &point) { timeline_.clock.push_back(point); }

SeTimeline TimelineBuilder::finish() {
  std::sort(exec_rows_.begin(), exec_rows_.end(),
            [](const TimelineRow &a, const TimelineRow &b) { return a.name < b.name; });
  exec_keys_.clear();
  auto &rows = timeline_.rows;
  rows.clear();
  rows.reserve(exec_rows_.size() + wave_rows_.size());
  for (auto &r : exec_rows_) rows.push_back(std::move(r));
  std::array<int, 32> row_of_slot;
  row_of_slot.fill(-1);
  for (unsigned s = 0; s < slot_row_.size(); ++s) {
    if (slot_row_[s] < 0) continue;
    auto &r = wave_rows_[static_cast<std::size_t>(slot_row_[s])];
    if (r.events.empty()) continue;
    row_of_slot[s] = static_cast<int>(rows.size());
    r.name = "WAVE:" + std::to_string(s);
    rows.push_back(std::move(r));
  }
  bool any = false;
  auto extend = [&](std::int64_t a, std::int64_t b) {
    timeline_.begin = any ? std::min(timeline_.begin, a) : a;
    timeline_.end = any ? std::max(timeline_.end, b) : b;
    any = true;
  };
  for (auto &r : rows) {
    if (r.kind == RowKind::ExecUnit) {
      sort_by_start(r.events);
      for (auto &e : r.events)
        if (e.link_row >= 0) e.link_row = row_of_slot[static_cast<std::size_t>(e.link_row) % 32];
    }
    for (const auto &e : r.events) {
      r.max_duration = std::max(r.max_duration, e.end - e.start);
      extend(e.start, e.end);
    }
  }
  for (const auto &w : timeline_.waves) extend(w.start, w.end);
  exec_rows_.clear();
  wave_rows_.clear();
  slot_row_.fill(-1);
  return std::move(timeline_);
}

}  // namespace wavescope::trace::timeline
