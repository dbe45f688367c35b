#pragma once
// The VIZ-style timeline of one shader engine's trace (spec §12), as plain data for a viewer:
//
//   * a shader-clock line (points, Hz) from the realtime markers;
//   * execution-unit rows ("ALUEXEC:0 SALU|VALU|TFU|WMMA|NONE", "VMEMEXEC:0 LDS|VMEM"), each
//     event linked to the dispatch it executes;
//   * one row per wave slot of the traced SIMD ("WAVE:<slot>"), holding the dispatch events
//     (one cycle each, barriers extended to the wave's next event), PC-mapped where possible;
//   * on each wave row, the IDLE/EXEC/WAIT/STALL state timeline of the slot's traced waves
//     (beyond VIZ: rocprof-trace-decoder's wave states, docs/sqtt-analysis.md);
//   * every wave's lifetime on the SE (all CUs and SIMDs), for occupancy views.
//
// Rows keep their events sorted by start time; overlapping() finds the events of a time range by
// binary search, so a view can draw any window of a long trace cheaply.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wavescope/trace/timeline/events.hpp"

namespace wavescope::trace::timeline {

enum class RowKind : std::uint8_t { ExecUnit, WaveSlot };

// A color-worthy grouping of event names (the viewer's legend).
enum class EventCategory : std::uint8_t {
  Salu,
  Smem,
  Valu,
  Transcendental,
  Wmma,
  Vmem,
  Lds,
  Branch,
  Immediate,
  Barrier,
  Message,
  WaveEnd,
  WaveReady,
  OtherSimd,
  Other,
};
std::string_view to_string(EventCategory category);
// The category of a dispatch or exec event name ("SGMEM_RD_2" -> Vmem, "VALU_WMMA" -> Wmma, ...).
EventCategory categorize_event(std::string_view name);

struct TimelineEvent {
  std::int64_t start = 0, end = 0;  // [start, end) in shader cycles of this SE's blob
  std::string_view name;            // static storage: op category or exec unit name
  EventCategory category = EventCategory::Other;
  std::uint32_t index = 0;  // wave rows: position in the row (VIZ's idx); exec rows: arrival order
  bool has_pc = false;
  std::uint64_t pc = 0;  // ELF address of the mapped instruction
  // Exec events: the dispatch they execute, as (row in SeTimeline::rows, index in that row).
  std::int32_t link_row = -1;
  std::uint32_t link_index = 0;
  // Wave-row instructions of the traced unit: stall and latency (rocprof-trace-decoder's
  // duration) in cycles, DispatchEvent's; -1 where undefined.
  std::int64_t stall = -1, latency = -1;
};

// A stretch of one wave state on a wave row: [start, end) in shader cycles.
struct WaveStateRun {
  std::int64_t start = 0, end = 0;
  WaveState state = WaveState::Idle;
};

struct TimelineRow {
  RowKind kind = RowKind::WaveSlot;
  std::string name;                   // "WAVE:3", "ALUEXEC:0 VALU", ...
  unsigned slot = 0;                  // wave rows
  std::vector<TimelineEvent> events;  // sorted by start
  std::int64_t max_duration = 0;      // longest event, for range queries
  // Wave rows: the state timelines of the slot's traced waves, sorted by start, not overlapping.
  std::vector<WaveStateRun> states;

  // Index range [first, last) of the events that may overlap [t0, t1): every overlapping event
  // is inside it; the caller skips the few that end before t0.
  std::pair<std::size_t, std::size_t> overlapping(std::int64_t t0, std::int64_t t1) const;
  // Index range [first, last) of the state runs that overlap [t0, t1).
  std::pair<std::size_t, std::size_t> states_overlapping(std::int64_t t0, std::int64_t t1) const;
};

struct SeTimeline {
  unsigned se = 0;
  std::string blob;                 // the blob's file name
  std::vector<ClockPoint> clock;    // "LINE:Shader Clock"
  std::vector<TimelineRow> rows;    // exec rows first (sorted by name), then WAVE rows by slot
  std::vector<Wave> waves;          // every paired wave of the SE, in order of their ends
  std::int64_t begin = 0, end = 0;  // time span of all events and waves

  const TimelineRow *row(std::string_view name) const;
  // The row index of a wave slot's row, -1 if the slot has no events.
  int wave_row(unsigned slot) const;
};

// Adds a wave's state timeline (ending at `end`) to the row of its slot, if the slot has one:
// for waves whose states come after the timeline (CDNA's, from CdnaMapper).
void add_wave_states(SeTimeline &timeline, unsigned slot, std::int64_t end,
                     const std::vector<WaveStateSpan> &states);

// Builds an SeTimeline from the analyzer's events.
class TimelineBuilder final : public AnalysisObserver {
public:
  TimelineBuilder(unsigned se, std::string blob);
  void on_wave(const Wave &wave) override;
  void on_dispatch(const DispatchEvent &event) override;
  void on_exec(const ExecEvent &event) override;
  void on_barrier(const BarrierSpan &span) override;
  void on_clock(const ClockPoint &point) override;
  // Sorts the rows and hands the model over.
  SeTimeline finish();

private:
  TimelineRow &exec_row(std::string_view name);
  // An event name's category, remembered by the name's address (every dispatch and exec event
  // name has static storage): the same few dozen names recur on every event.
  struct Remembered {
    const char *data = nullptr;
    std::size_t size = 0;
    EventCategory category = EventCategory::Other;
    bool valu = false;  // exec rows: the VALU unit's, where WMMA events are Wmma
  };
  EventCategory category_of(std::string_view name);
  EventCategory exec_category_of(std::string_view row, std::string_view name);
  SeTimeline timeline_;
  // A slot's row, made when the slot has its first event (a blob uses a few of the 32 slots).
  TimelineRow &wave_row(unsigned slot);
  std::vector<TimelineRow> wave_rows_;    // in the order their slots first had an event
  std::array<std::int8_t, 32> slot_row_;  // each slot's index in wave_rows_, -1 without one
  std::vector<TimelineRow> exec_rows_;
  std::vector<std::string_view> exec_keys_;  // exec_rows_[i]'s name as the events gave it
  std::array<Remembered, 64> names_{}, units_{}, wmma_{};
};

}  // namespace wavescope::trace::timeline
