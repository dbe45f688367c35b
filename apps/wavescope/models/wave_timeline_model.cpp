#include "models/wave_timeline_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "app/document.hpp"

namespace wavescope::gui {

using trace::timeline::EventCategory;
using trace::timeline::RowKind;
using trace::timeline::TimelineEvent;

namespace {

std::uint64_t dispatch_key(int row, std::size_t index) {
  return (static_cast<std::uint64_t>(row) << 40) | static_cast<std::uint64_t>(index);
}

// The legend order: the instruction kinds first, then the wave-state markers.
constexpr EventCategory kLegendOrder[] = {EventCategory::Salu,      EventCategory::Smem,
                                          EventCategory::Valu,      EventCategory::Transcendental,
                                          EventCategory::Wmma,      EventCategory::Vmem,
                                          EventCategory::Lds,       EventCategory::Branch,
                                          EventCategory::Immediate, EventCategory::Message,
                                          EventCategory::Barrier,   EventCategory::WaveReady,
                                          EventCategory::WaveEnd,   EventCategory::OtherSimd,
                                          EventCategory::Other};

}  // namespace

WaveTimelineModel::WaveTimelineModel(QObject *parent) : QAbstractListModel(parent) {
  tops_.push_back(0);
}

void WaveTimelineModel::set_timeline(const trace::timeline::SeTimeline *timeline,
                                     const KernelCode *code) {
  beginResetModel();
  timeline_ = timeline;
  code_ = code;
  instruction_at_.clear();
  if (code_)
    for (std::size_t i = 0; i < code_->instructions.size(); ++i)
      instruction_at_[code_->instructions[i].address] = i;
  clock_ = timeline_ ? ClockEstimate(timeline_->clock) : ClockEstimate();
  build_occupancy();
  build_tracks();
  endResetModel();
}

void WaveTimelineModel::build_occupancy() {
  groups_.clear();
  wave_bars_.clear();
  if (!timeline_) return;
  std::map<std::pair<unsigned, unsigned>, std::size_t> group_of;
  for (const auto &w : timeline_->waves) {
    const auto key = std::make_pair(w.cu, w.simd);
    if (!group_of.count(key)) group_of[key] = 0;
  }
  for (auto &[key, index] : group_of) {
    index = groups_.size();
    groups_.push_back({key.first, key.second, {}, 0, 0});
  }
  for (std::size_t i = 0; i < timeline_->waves.size(); ++i) {
    const auto &w = timeline_->waves[i];
    auto &g = groups_[group_of[{w.cu, w.simd}]];
    if (g.lanes.size() <= w.slot) g.lanes.resize(w.slot + 1);
    g.lanes[w.slot].push_back({w.start, w.end, static_cast<std::uint32_t>(i), w.mapped});
    ++g.waves;
  }
  for (auto &g : groups_) {
    std::vector<std::pair<std::int64_t, int>> edges;
    for (auto &lane : g.lanes) {
      std::sort(lane.begin(), lane.end(),
                [](const OccupancyBar &a, const OccupancyBar &b) { return a.start < b.start; });
      for (const auto &bar : lane) edges.push_back({bar.start, 1}), edges.push_back({bar.end, -1});
    }
    std::sort(edges.begin(), edges.end());
    int live = 0;
    for (const auto &[t, d] : edges) g.peak = std::max(g.peak, live += d);
  }
}

void WaveTimelineModel::add_track(TimelineTrack track) {
  tops_.push_back(tops_.back() + track.height);
  tracks_.push_back(std::move(track));
}

void WaveTimelineModel::build_tracks() {
  tracks_.clear();
  tops_.assign(1, 0);
  track_of_row_.clear();
  skip_.clear();
  exec_of_dispatch_.clear();
  categories_.clear();
  bar_count_ = 0;
  fit_ = full_ = {0, 1};
  if (!timeline_) return;
  const auto &tl = *timeline_;

  TimelineTrack clock{TrackKind::Clock, tr("Shader clock"), {}, -1, -1, kClockHeight};
  clock.detail = clock_.empty() ? tr("No realtime markers on this SE, so no clock estimate")
                                : tr("%1 estimates from realtime markers, mean %2 GHz")
                                      .arg(clock_.size())
                                      .arg(clock_.mean_hz() / 1e9, 0, 'f', 2);
  add_track(clock);

  track_of_row_.assign(tl.rows.size(), -1);
  skip_.clear();
  unit_category_.clear();
  for (const auto &row : tl.rows) {
    skip_.emplace_back(row.events);
    EventCategory unit = EventCategory::Other;
    if (row.kind == RowKind::ExecUnit) {
      const auto name = std::string_view(row.name).substr(row.name.find(' ') + 1);
      unit =
          name == "TFU" ? EventCategory::Transcendental : trace::timeline::categorize_event(name);
    }
    unit_category_.push_back(unit);
  }
  std::set<EventCategory> seen;
  auto add_rows = [&](RowKind kind) {
    for (std::size_t r = 0; r < tl.rows.size(); ++r) {
      const auto &row = tl.rows[r];
      if (row.kind != kind) continue;
      TimelineTrack t;
      t.kind = kind == RowKind::ExecUnit ? TrackKind::ExecUnit : TrackKind::WaveSlot;
      t.row = static_cast<int>(r);
      t.height = kRowHeight;
      if (kind == RowKind::ExecUnit) {
        const auto space = row.name.find(' ');
        t.label = QString::fromStdString(space == std::string::npos ? row.name
                                                                    : row.name.substr(space + 1));
        t.detail = tr("%1: %2 execution events")
                       .arg(QString::fromStdString(row.name))
                       .arg(row.events.size());
      } else {
        t.label = tr("Wave %1").arg(row.slot);
        t.detail = tr("%1: %2 events of wave slot %3")
                       .arg(QString::fromStdString(row.name))
                       .arg(row.events.size())
                       .arg(row.slot);
      }
      for (const auto &e : row.events) seen.insert(category_of(static_cast<int>(r), e));
      bar_count_ += row.events.size();
      track_of_row_[r] = static_cast<int>(tracks_.size());
      add_track(std::move(t));
    }
  };
  const auto has = [&](RowKind kind) {
    return std::any_of(tl.rows.begin(), tl.rows.end(),
                       [&](const auto &row) { return row.kind == kind; });
  };
  if (has(RowKind::ExecUnit)) {
    add_track({TrackKind::Section, tr("Execution units"),
               tr("When each pipe executed a dispatched instruction (ALUEXEC / VMEMEXEC)"), -1, -1,
               kSectionHeight});
    add_rows(RowKind::ExecUnit);
  }
  if (has(RowKind::WaveSlot)) {
    add_track({TrackKind::Section, tr("Wave slots of the traced SIMD"),
               tr("One row per wave slot of CU 0 / SIMD 0: every instruction the wave issued"), -1,
               -1, kSectionHeight});
    add_rows(RowKind::WaveSlot);
  }
  if (!groups_.empty()) {
    add_track({TrackKind::Section,
               tr("Occupancy · %1 waves on %2 SIMDs").arg(tl.waves.size()).arg(groups_.size()),
               tr("Every wave of the SE from start to end, one lane per wave slot"), -1, -1,
               kSectionHeight});
    wave_bars_.assign(tl.waves.size(), {});
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      const auto &group = groups_[g];
      TimelineTrack t;
      t.kind = TrackKind::Occupancy;
      t.group = static_cast<int>(g);
      t.label = tr("CU %1 · SIMD %2").arg(group.cu).arg(group.simd);
      t.detail = tr("%1 waves, at most %2 at once").arg(group.waves).arg(group.peak);
      t.height = std::max(kRowHeight - 4, static_cast<int>(group.lanes.size()) * kLaneHeight + 6);
      for (std::size_t l = 0; l < group.lanes.size(); ++l)
        for (std::size_t i = 0; i < group.lanes[l].size(); ++i)
          wave_bars_[group.lanes[l][i].wave] = {static_cast<int>(tracks_.size()),
                                                static_cast<int>(l), i};
      bar_count_ += group.waves;
      add_track(std::move(t));
    }
  }

  for (const auto c : kLegendOrder)
    if (seen.count(c)) categories_.push_back(c);

  // Reverse links, ranges.
  std::int64_t lo = std::numeric_limits<std::int64_t>::max(),
               hi = std::numeric_limits<std::int64_t>::min();
  for (std::size_t r = 0; r < tl.rows.size(); ++r) {
    const auto &row = tl.rows[r];
    for (std::size_t i = 0; i < row.events.size(); ++i) {
      const auto &e = row.events[i];
      lo = std::min(lo, e.start);
      hi = std::max(hi, e.end);
      if (row.kind == RowKind::ExecUnit && e.link_row >= 0)
        exec_of_dispatch_[dispatch_key(e.link_row, e.link_index)] = {track_of_row_[r], 0, i};
    }
  }
  if (lo > hi)
    for (const auto &w : tl.waves) lo = std::min(lo, w.start), hi = std::max(hi, w.end);
  if (lo > hi) lo = tl.begin, hi = tl.end;
  fit_ = {lo, std::max(hi, lo + 1)};
  full_ = {std::min(lo, tl.begin), std::max(fit_.second, tl.end)};
  for (const auto &p : tl.clock)
    full_.first = std::min(full_.first, p.time), full_.second = std::max(full_.second, p.time);
}

int WaveTimelineModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(tracks_.size());
}

QVariant WaveTimelineModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto &t = track(index.row());
  switch (role) {
  case Qt::DisplayRole: return t.label;
  case Qt::ToolTipRole: return t.detail;
  case KindRole: return static_cast<int>(t.kind);
  case HeightRole: return t.height;
  case TimelineRowRole: return t.row;
  case EventCountRole:
    if (t.kind == TrackKind::ExecUnit || t.kind == TrackKind::WaveSlot)
      return static_cast<qulonglong>(
          timeline_->rows[static_cast<std::size_t>(t.row)].events.size());
    if (t.kind == TrackKind::Occupancy)
      return static_cast<qulonglong>(groups_[static_cast<std::size_t>(t.group)].waves);
    if (t.kind == TrackKind::Clock) return static_cast<qulonglong>(clock_.size());
    return 0ULL;
  default: return {};
  }
}

int WaveTimelineModel::track_at_y(int y) const {
  if (y < 0 || y >= total_height()) return -1;
  const auto it = std::upper_bound(tops_.begin(), tops_.end(), y);
  return static_cast<int>(it - tops_.begin()) - 1;
}

int WaveTimelineModel::track_of_row(int row) const {
  return row >= 0 && static_cast<std::size_t>(row) < track_of_row_.size()
             ? track_of_row_[static_cast<std::size_t>(row)]
             : -1;
}

const TimelineEvent *WaveTimelineModel::event(TimelineEventRef ref) const {
  if (!timeline_ || ref.track < 0 || ref.track >= static_cast<int>(tracks_.size())) return nullptr;
  const auto &t = track(ref.track);
  if (t.row < 0) return nullptr;
  const auto &events = timeline_->rows[static_cast<std::size_t>(t.row)].events;
  return ref.index < events.size() ? &events[ref.index] : nullptr;
}

const OccupancyBar *WaveTimelineModel::bar(TimelineEventRef ref) const {
  if (ref.track < 0 || ref.track >= static_cast<int>(tracks_.size())) return nullptr;
  const auto &t = track(ref.track);
  if (t.kind != TrackKind::Occupancy) return nullptr;
  const auto &lanes = groups_[static_cast<std::size_t>(t.group)].lanes;
  if (ref.lane < 0 || static_cast<std::size_t>(ref.lane) >= lanes.size()) return nullptr;
  const auto &lane = lanes[static_cast<std::size_t>(ref.lane)];
  return ref.index < lane.size() ? &lane[ref.index] : nullptr;
}

std::int64_t WaveTimelineModel::start_of(TimelineEventRef ref) const {
  if (const auto *e = event(ref)) return e->start;
  if (const auto *b = bar(ref)) return b->start;
  return 0;
}

std::int64_t WaveTimelineModel::end_of(TimelineEventRef ref) const {
  if (const auto *e = event(ref)) return e->end;
  if (const auto *b = bar(ref)) return b->end;
  return 0;
}

TimelineEventRef WaveTimelineModel::partner(TimelineEventRef ref) const {
  const auto *e = event(ref);
  if (!e) return {};
  const auto &t = track(ref.track);
  if (t.kind == TrackKind::ExecUnit) {
    const int target = track_of_row(e->link_row);
    if (target < 0) return {};
    TimelineEventRef dispatch{target, 0, e->link_index};
    return event(dispatch) ? dispatch : TimelineEventRef{};
  }
  const auto it = exec_of_dispatch_.find(dispatch_key(t.row, ref.index));
  return it == exec_of_dispatch_.end() ? TimelineEventRef{} : it->second;
}

TimelineEventRef WaveTimelineModel::neighbour(TimelineEventRef ref, int step) const {
  if (!event(ref) && !bar(ref)) return {};
  const auto target = static_cast<std::int64_t>(ref.index) + step;
  if (target < 0) return {};
  TimelineEventRef next = ref;
  next.index = static_cast<std::size_t>(target);
  return event(next) || bar(next) ? next : TimelineEventRef{};
}

TimelineEventRef WaveTimelineModel::event_at(int track_index, int lane, double cycle,
                                             double slack) const {
  if (!timeline_ || track_index < 0 || track_index >= static_cast<int>(tracks_.size())) return {};
  const auto &t = track(track_index);
  TimelineEventRef best;
  double best_distance = slack;
  auto consider = [&](std::int64_t start, std::int64_t end, TimelineEventRef ref) {
    const double distance = cycle < static_cast<double>(start) ? static_cast<double>(start) - cycle
                            : cycle > static_cast<double>(end) ? cycle - static_cast<double>(end)
                                                               : 0.0;
    if (distance <= best_distance && (!best.valid() || distance < best_distance)) {
      best = ref;
      best_distance = distance;
    }
  };
  if (t.row >= 0) {
    const auto &row = timeline_->rows[static_cast<std::size_t>(t.row)];
    const auto [first, last] =
        row.overlapping(static_cast<std::int64_t>(std::floor(cycle - slack)),
                        static_cast<std::int64_t>(std::ceil(cycle + slack)) + 1);
    for (std::size_t i = first; i < last; ++i)
      consider(row.events[i].start, row.events[i].end, {track_index, 0, i});
  } else if (t.kind == TrackKind::Occupancy) {
    const auto &lanes = groups_[static_cast<std::size_t>(t.group)].lanes;
    if (lane < 0 || static_cast<std::size_t>(lane) >= lanes.size()) return {};
    const auto &bars = lanes[static_cast<std::size_t>(lane)];
    // Sorted by end as well: the first bar ending at or after cycle - slack.
    auto it = std::lower_bound(
        bars.begin(), bars.end(), cycle - slack,
        [](const OccupancyBar &b, double c) { return static_cast<double>(b.end) < c; });
    for (; it != bars.end() && static_cast<double>(it->start) <= cycle + slack; ++it)
      consider(it->start, it->end,
               {track_index, lane, static_cast<std::size_t>(it - bars.begin())});
  }
  return best;
}

TimelineEventRef WaveTimelineModel::first_with_pc(std::uint64_t pc, double from) const {
  if (!timeline_) return {};
  TimelineEventRef after, first;
  std::int64_t after_time = 0, first_time = 0;
  for (std::size_t r = 0; r < timeline_->rows.size(); ++r) {
    const auto &row = timeline_->rows[r];
    if (row.kind != RowKind::WaveSlot) continue;
    for (std::size_t i = 0; i < row.events.size(); ++i) {
      const auto &e = row.events[i];
      if (!e.has_pc || e.pc != pc) continue;
      const TimelineEventRef ref{track_of_row_[r], 0, i};
      if (!first.valid() || e.start < first_time) first = ref, first_time = e.start;
      if (static_cast<double>(e.start) >= from && (!after.valid() || e.start < after_time))
        after = ref, after_time = e.start;
    }
  }
  return after.valid() ? after : first;
}

std::vector<TimelineEventRef> WaveTimelineModel::events_with_pc(std::uint64_t pc) const {
  std::vector<TimelineEventRef> refs;
  if (timeline_)
    for (std::size_t r = 0; r < timeline_->rows.size(); ++r) {
      const auto &row = timeline_->rows[r];
      if (row.kind != RowKind::WaveSlot) continue;
      for (std::size_t i = 0; i < row.events.size(); ++i)
        if (row.events[i].has_pc && row.events[i].pc == pc)
          refs.push_back({track_of_row_[r], 0, i});
    }
  return refs;
}

TimelineEventRef WaveTimelineModel::wave_bar(int wave) const {
  return wave >= 0 && static_cast<std::size_t>(wave) < wave_bars_.size()
             ? wave_bars_[static_cast<std::size_t>(wave)]
             : TimelineEventRef{};
}

TimelineEventRef WaveTimelineModel::first_event_of_wave(int wave) const {
  if (!timeline_ || wave < 0 || static_cast<std::size_t>(wave) >= timeline_->waves.size())
    return {};
  const auto &w = timeline_->waves[static_cast<std::size_t>(wave)];
  if (!w.traced) return {};
  const int row = timeline_->wave_row(w.slot);
  if (row < 0) return {};
  const auto &events = timeline_->rows[static_cast<std::size_t>(row)].events;
  const auto it =
      std::lower_bound(events.begin(), events.end(), w.start,
                       [](const TimelineEvent &e, std::int64_t t) { return e.start < t; });
  if (it == events.end() || it->start > w.end) return {};
  return {track_of_row(row), 0, static_cast<std::size_t>(it - events.begin())};
}

int WaveTimelineModel::wave_of_event(TimelineEventRef ref) const {
  const auto *e = event(ref);
  if (!e || track(ref.track).kind != TrackKind::WaveSlot) return -1;
  const unsigned slot = timeline_->rows[static_cast<std::size_t>(track(ref.track).row)].slot;
  for (std::size_t i = 0; i < timeline_->waves.size(); ++i) {
    const auto &w = timeline_->waves[i];
    if (w.traced && w.slot == slot && w.start <= e->start && e->start <= w.end)
      return static_cast<int>(i);
  }
  return -1;
}

EventCategory WaveTimelineModel::category_of(int row, const TimelineEvent &event) const {
  if (event.category != EventCategory::Other || row < 0 ||
      static_cast<std::size_t>(row) >= unit_category_.size())
    return event.category;
  return unit_category_[static_cast<std::size_t>(row)];
}

QString WaveTimelineModel::instruction_text(std::uint64_t pc) const {
  const auto it = instruction_at_.find(pc);
  return it == instruction_at_.end() ? QString()
                                     : QString::fromStdString(code_->instructions[it->second].text);
}

QString WaveTimelineModel::mnemonic(std::uint64_t pc) const {
  const auto it = instruction_at_.find(pc);
  return it == instruction_at_.end()
             ? QString()
             : QString::fromStdString(code_->instructions[it->second].mnemonic);
}

}  // namespace wavescope::gui
