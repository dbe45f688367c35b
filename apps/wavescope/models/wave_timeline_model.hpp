#pragma once
// The wave timeline of one shader engine as the waves view draws it (viz.md §2.8), adapted from
// libtrace's SeTimeline: a list of tracks, top to bottom
//
//   Shader clock                 the frequency estimate (a line), the wall-time axis' source
//   Execution units              ALUEXEC/VMEMEXEC rows, each event linked to its dispatch
//   Wave slots                   WAVE:<slot> rows of the traced SIMD: the instruction stream
//   Occupancy                    one track per CU/SIMD of the SE: every wave's lifetime, one
//                                lane per wave slot (beyond VIZ, which draws none of these)
//
// and the queries a view needs to draw any window of a long trace cheaply and to navigate it:
// events overlapping a range (binary search), hit tests, dispatch <-> exec partners, the next
// event of a row, the events of a PC. The track list is a Qt list model (label, kind, height);
// the events stay in libtrace's arrays.

#include <QAbstractListModel>
#include <QString>

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "wavescope/trace/timeline/clock_estimate.hpp"
#include "wavescope/trace/timeline/end_skip_index.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"

namespace wavescope::gui {

// libtrace's analysis helpers, named as the views that draw the timeline use them.
using trace::timeline::ClockEstimate;
using trace::timeline::EndSkipIndex;

struct KernelCode;

enum class TrackKind { Clock, Section, ExecUnit, WaveSlot, Occupancy };

struct TimelineTrack {
  TrackKind kind = TrackKind::Section;
  QString label;    // label column text
  QString detail;   // tooltip / second line
  int row = -1;     // SeTimeline::rows index (ExecUnit, WaveSlot)
  int group = -1;   // occupancy group (Occupancy)
  int height = 20;  // pixels
};

// A wave's lifetime on an occupancy lane.
struct OccupancyBar {
  std::int64_t start = 0, end = 0;
  std::uint32_t wave = 0;  // index into SeTimeline::waves
  bool mapped = false;     // its instruction stream was followed
};

// The waves of one CU/SIMD, one lane per wave slot; waves in a lane never overlap, so each lane
// is sorted by start and by end alike.
struct OccupancyGroup {
  unsigned cu = 0, simd = 0;
  std::vector<std::vector<OccupancyBar>> lanes;
  std::size_t waves = 0;
  int peak = 0;  // most waves resident at once
};

// An event of a track: (track, index) on exec and wave tracks; (track, lane, index) on
// occupancy tracks.
struct TimelineEventRef {
  int track = -1;
  int lane = 0;
  std::size_t index = 0;
  bool valid() const { return track >= 0; }
  bool operator==(const TimelineEventRef &) const = default;
};

class WaveTimelineModel : public QAbstractListModel {
  Q_OBJECT
public:
  enum Role {
    KindRole = Qt::UserRole + 1,  // int TrackKind
    EventCountRole,               // events (bars) on the track
    HeightRole,                   // pixels
    TimelineRowRole,              // SeTimeline row index, -1 for other tracks
  };
  static constexpr int kClockHeight = 48;
  static constexpr int kSectionHeight = 20;
  static constexpr int kRowHeight = 20;
  static constexpr int kLaneHeight = 3;

  explicit WaveTimelineModel(QObject *parent = nullptr);

  // Shows `timeline` (nullptr clears); `code` (may be null) names the instructions at PCs. Both
  // must outlive the model's use of them.
  void set_timeline(const trace::timeline::SeTimeline *timeline, const KernelCode *code = nullptr);
  const trace::timeline::SeTimeline *timeline() const { return timeline_; }

  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;

  const std::vector<TimelineTrack> &tracks() const { return tracks_; }
  const TimelineTrack &track(int index) const { return tracks_[static_cast<std::size_t>(index)]; }
  const std::vector<OccupancyGroup> &occupancy() const { return groups_; }
  const ClockEstimate &clock() const { return clock_; }
  // Vertical layout: the top of a track, the total height, the track at a y (-1 if none).
  int track_top(int track) const { return tops_[static_cast<std::size_t>(track)]; }
  int total_height() const { return tops_.empty() ? 0 : tops_.back(); }
  int track_at_y(int y) const;
  // The track of a SeTimeline row, -1 if none.
  int track_of_row(int row) const;

  // What "fit" shows: first to last instruction event (exec and wave rows), else the waves'
  // span. Cycle 0 of the axis is its start.
  std::pair<std::int64_t, std::int64_t> fit_range() const { return fit_; }
  // Everything, clock points included.
  std::pair<std::int64_t, std::int64_t> full_range() const { return full_; }
  std::int64_t origin() const { return fit_.first; }
  // Bars over all tracks (exec and wave events plus occupancy bars).
  std::size_t bar_count() const { return bar_count_; }
  // The categories that occur, in legend order.
  const std::vector<trace::timeline::EventCategory> &categories() const { return categories_; }

  // Events.
  const trace::timeline::TimelineEvent *event(TimelineEventRef ref) const;
  const OccupancyBar *bar(TimelineEventRef ref) const;
  std::int64_t start_of(TimelineEventRef ref) const;
  std::int64_t end_of(TimelineEventRef ref) const;
  // The dispatch an exec event executes, or the exec event of a dispatch; invalid if none.
  TimelineEventRef partner(TimelineEventRef ref) const;
  // The event `step` positions later (earlier if negative) on the same row or lane.
  TimelineEventRef neighbour(TimelineEventRef ref, int step) const;
  // The event of `track` (and lane) nearest to `cycle` within `slack` cycles; invalid if none.
  TimelineEventRef event_at(int track, int lane, double cycle, double slack) const;
  // The first wave-row event with that PC starting at or after `from` (else the first at all).
  TimelineEventRef first_with_pc(std::uint64_t pc, double from) const;
  // Every wave-row event with that PC, by track and time.
  std::vector<TimelineEventRef> events_with_pc(std::uint64_t pc) const;
  // Skip index of a SeTimeline row (for drawing only what one pixel column can show).
  const EndSkipIndex &skip_index(int row) const { return skip_[static_cast<std::size_t>(row)]; }
  // The occupancy bar of SeTimeline::waves[wave], and the first event of that wave on its
  // wave-slot row (invalid when the wave was not traced).
  TimelineEventRef wave_bar(int wave) const;
  TimelineEventRef first_event_of_wave(int wave) const;
  // The SeTimeline::waves index a wave-row event belongs to, -1 if none.
  int wave_of_event(TimelineEventRef ref) const;

  // The color category of an event: its own, except on exec rows whose unit says more than the
  // event name (libtrace files the transcendental unit's events under Other).
  trace::timeline::EventCategory category_of(int row,
                                             const trace::timeline::TimelineEvent &event) const;

  // The instruction at a PC: its text and mnemonic (empty when unknown).
  QString instruction_text(std::uint64_t pc) const;
  QString mnemonic(std::uint64_t pc) const;

private:
  void build_tracks();
  void build_occupancy();
  void add_track(TimelineTrack track);

  const trace::timeline::SeTimeline *timeline_ = nullptr;
  const KernelCode *code_ = nullptr;
  std::unordered_map<std::uint64_t, std::size_t> instruction_at_;  // PC -> code index
  std::vector<TimelineTrack> tracks_;
  std::vector<int> tops_;  // tracks_.size() + 1 entries
  std::vector<int> track_of_row_;
  std::vector<EndSkipIndex> skip_;                             // per SeTimeline row
  std::vector<trace::timeline::EventCategory> unit_category_;  // per row, Other if none
  std::vector<OccupancyGroup> groups_;
  std::vector<TimelineEventRef> wave_bars_;  // per SeTimeline wave
  // (wave row, index) -> exec event executing it
  std::unordered_map<std::uint64_t, TimelineEventRef> exec_of_dispatch_;
  ClockEstimate clock_;
  std::pair<std::int64_t, std::int64_t> fit_{0, 1}, full_{0, 1};
  std::size_t bar_count_ = 0;
  std::vector<trace::timeline::EventCategory> categories_;
};

}  // namespace wavescope::gui
