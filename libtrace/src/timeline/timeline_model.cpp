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

// compute(name) for a name with static storage (every dispatch and exec event name is one, as
// TimelineEvent::name requires: op table entries and literals), remembered by its address: the
// same few dozen names recur on every event, and the string tests cost more than the rest of an
// event. One table per `compute` (each lambda is a type of its own).
template <class Value, class Compute> Value remembered(std::string_view name, Compute compute) {
  struct Entry {
    const char *data = nullptr;
    std::size_t size = 0;
    Value value{};
  };
  thread_local std::array<Entry, 64> memo;
  auto &e = memo[(reinterpret_cast<std::uintptr_t>(name.data()) >> 3) % memo.size()];
  if (e.data != name.data() || e.size != name.size() || !e.data)
    e = {name.data(), name.size(), compute(name)};
  return e.value;
}

EventCategory category_of(std::string_view name) {
  return remembered<EventCategory>(name, [](std::string_view n) { return categorize_event(n); });
}

// An exec event's category: its unit's ("ALUEXEC:0 VALU" -> Valu), but a WMMA event on the VALU
// row is a Wmma one.
EventCategory exec_category_of(std::string_view row, std::string_view name) {
  struct Unit {
    EventCategory category = EventCategory::Other;
    bool valu = false;
  };
  const auto unit = remembered<Unit>(row, [](std::string_view r) {
    return Unit{categorize_event(r.substr(r.find(' ') + 1)), r.ends_with("VALU")};
  });
  if (unit.valu && remembered<bool>(name, [](std::string_view n) {
        return n.find("WMMA") != std::string_view::npos;
      }))
    return EventCategory::Wmma;
  return unit.category;
}

// Rows start with room for a blob's worth of events (a few hundred), not growing from one by
// doubling, each step a copy.
void push_event(TimelineRow &row, const TimelineEvent &e) {
  if (row.events.capacity() == 0) row.events.reserve(256);
  row.events.push_back(e);
}

}  // namespace

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

TimelineBuilder::TimelineBuilder(unsigned se, std::string blob) : wave_rows_(32) {
  timeline_.se = se;
  timeline_.blob = std::move(blob);
  // Rows are named in finish(), only those with events: a blob uses a few of the 32 slots, and
  // a builder is made per blob (blobs are a few KB: per-blob work counts).
  for (unsigned s = 0; s < wave_rows_.size(); ++s) {
    wave_rows_[s].kind = RowKind::WaveSlot;
    wave_rows_[s].slot = s;
  }
}

void TimelineBuilder::on_wave(const Wave &wave) { timeline_.waves.push_back(wave); }

void TimelineBuilder::on_dispatch(const DispatchEvent &d) {
  if (d.inserted) return;  // not a VIZ event (an RDNA4 s_barrier_wait without a packet)
  auto &row = wave_rows_[d.slot % wave_rows_.size()];
  if (d.kind == DispatchKind::WaveEnd) append_states(row, d.time, d.states);
  TimelineEvent e;
  e.start = d.time;
  e.end = d.time + 1;
  e.name = d.name;
  e.category = d.kind == DispatchKind::OtherSimd ? EventCategory::OtherSimd : category_of(d.name);
  e.index = d.row_index;
  e.has_pc = d.has_pc;
  e.pc = d.pc;
  e.stall = d.stall;
  e.latency = d.duration;
  push_event(row, e);
}

TimelineRow &TimelineBuilder::exec_row(std::string_view name) {
  for (auto &r : exec_rows_)
    if (r.name == name) return r;
  exec_rows_.emplace_back();
  exec_rows_.back().kind = RowKind::ExecUnit;
  exec_rows_.back().name = std::string(name);
  return exec_rows_.back();
}

void TimelineBuilder::on_exec(const ExecEvent &x) {
  auto &row = exec_row(x.row);
  TimelineEvent e;
  e.start = x.start;
  e.end = x.end;
  e.name = x.name;
  e.category = exec_category_of(x.row, x.name);
  e.index = static_cast<std::uint32_t>(row.events.size());
  e.has_pc = x.instruction != nullptr;
  e.pc = x.pc;
  if (x.linked) {
    e.link_row = static_cast<std::int32_t>(x.slot);  // a slot until finish() resolves it
    e.link_index = x.row_index;
  }
  push_event(row, e);
}

void TimelineBuilder::on_barrier(const BarrierSpan &span) {
  auto &row = wave_rows_[span.slot % wave_rows_.size()];
  if (span.row_index < row.events.size()) row.events[span.row_index].end = span.end;
}

void TimelineBuilder::on_clock(const ClockPoint &point) { timeline_.clock.push_back(point); }

SeTimeline TimelineBuilder::finish() {
  std::sort(exec_rows_.begin(), exec_rows_.end(),
            [](const TimelineRow &a, const TimelineRow &b) { return a.name < b.name; });
  auto &rows = timeline_.rows;
  rows.clear();
  for (auto &r : exec_rows_) rows.push_back(std::move(r));
  std::vector<int> row_of_slot(wave_rows_.size(), -1);
  for (auto &r : wave_rows_)
    if (!r.events.empty()) {
      row_of_slot[r.slot] = static_cast<int>(rows.size());
      r.name = fmt::format("WAVE:{}", r.slot);
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
      std::stable_sort(
          r.events.begin(), r.events.end(),
          [](const TimelineEvent &a, const TimelineEvent &b) { return a.start < b.start; });
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
  return std::move(timeline_);
}

}  // namespace wavescope::trace::timeline
