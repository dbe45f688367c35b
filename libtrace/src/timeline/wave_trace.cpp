#include "wavescope/trace/timeline/wave_trace.hpp"

#include <algorithm>

namespace wavescope::trace::timeline {

void WaveTraceCollector::on_wave(const Wave &wave) {
  if (current_.empty()) current_.assign(32, -1), ended_.assign(32, -1);
  // Room for a blob's waves (a few dozen) from the first.
  if (traces_.capacity() == 0) traces_.reserve(64);
  if (!wave.mapped || !map_) {
    traces_.push_back(WaveTrace{wave, false, {}, 0, {}, {}});
    order_.push_back(traces_.size() - 1);
    return;
  }
  // The WAVEEND dispatch of this wave follows right away; attach the lifetime to its trace.
  const unsigned slot = wave.slot % 32;
  if (current_[slot] < 0) {
    traces_.emplace_back();
    current_[slot] = static_cast<std::int64_t>(traces_.size() - 1);
  }
  auto &t = traces_[static_cast<std::size_t>(current_[slot])];
  t.wave = wave;
  t.mapped = true;
  ended_[slot] = current_[slot];
}

void WaveTraceCollector::on_dispatch(const DispatchEvent &d) {
  if (!map_) return;
  if (current_.empty()) current_.assign(32, -1), ended_.assign(32, -1);
  const bool wave_end = d.kind == DispatchKind::WaveEnd;
  if (!d.has_pc && !(wave_end && ended_[d.slot] >= 0)) return;
  if (current_[d.slot] < 0) {
    if (traces_.capacity() == 0) traces_.reserve(64);
    traces_.emplace_back();
    current_[d.slot] = static_cast<std::int64_t>(traces_.size() - 1);
  }
  const auto index = static_cast<std::size_t>(current_[d.slot]);
  auto &trace = traces_[index];
  if (wave_end) trace.states.assign(d.states.begin(), d.states.end());
  if (wave_end && !d.issued_instructions) {
    // No instruction is known to have run: report none, not an s_endpgm at the entry.
    if (ended_[d.slot] == current_[d.slot]) order_.push_back(index);
    current_[d.slot] = -1;
    ended_[d.slot] = -1;
    return;
  }
  ++trace.instruction_count;
  if (keep_) {
    // Room for a wave's stream (tens to hundreds of records) from the first. The record is
    // filled in place (one built on the stack and copied in stalls store forwarding).
    if (trace.instructions.capacity() == 0) trace.instructions.reserve(64);
    InstructionTiming &t = trace.instructions.emplace_back();
    t.pc = d.pc;
    t.instruction = d.instruction;
    t.time = d.time;
    t.issue_gap = d.issue_gap < 0 ? 0 : d.issue_gap;
    t.packet = d.packet;
    t.name = d.name;
    t.bar_start = d.time;
    t.bar_end = d.time + 1;
    t.is_wave_end = wave_end;
    t.stall = d.stall;
    t.duration = d.duration;
    t.inserted = d.inserted;
    if (d.inserted) t.bar_end = d.time + std::max<std::int64_t>(1, d.duration);
    if (!d.inserted) {
      if (by_row_.size() <= d.slot) by_row_.resize(d.slot + 1);
      auto &rows = by_row_[d.slot];
      if (rows.size() <= d.row_index)
        rows.resize(std::max<std::size_t>({std::size_t{d.row_index} + 1, 2 * rows.size(), 64}));
      rows[d.row_index] = {index, trace.instructions.size() - 1};
    }
  }
  if (wave_end) {
    if (ended_[d.slot] == current_[d.slot]) order_.push_back(index);
    current_[d.slot] = -1;
    ended_[d.slot] = -1;
  }
}

const WaveTraceCollector::Ref *WaveTraceCollector::ref(unsigned slot,
                                                       std::uint32_t row_index) const {
  if (slot >= by_row_.size() || row_index >= by_row_[slot].size()) return nullptr;
  const Ref &r = by_row_[slot][row_index];
  return r.trace == kNone ? nullptr : &r;
}

void WaveTraceCollector::on_exec(const ExecEvent &e) {
  if (!e.linked) return;
  const Ref *r = ref(e.slot, e.row_index);
  if (!r) return;
  ++traces_[r->trace].instructions[r->instruction].exec_count;
  if (exec_.capacity() == 0) exec_.reserve(256);
  auto &p = exec_.emplace_back();
  p.at = *r;
  p.span.row = e.row;
  p.span.name = e.name;
  p.span.start = e.start;
  p.span.end = e.end;
}

void WaveTraceCollector::on_barrier(const BarrierSpan &span) {
  const Ref *r = ref(span.slot, span.row_index);
  if (!r) return;
  auto &t = traces_[r->trace].instructions[r->instruction];
  t.bar_end = span.end;
  t.barrier_wait = span.end - span.start;
  if (span.duration >= 0) t.duration = span.duration;
}

std::vector<WaveTrace> WaveTraceCollector::take() {
  // Each wave's exec spans in one array, instruction by instruction: exec_first is where an
  // instruction's start, exec_count (counted as they came) how many; placed in arrival order.
  if (!exec_.empty()) {
    for (auto &t : traces_) {
      std::uint32_t first = 0;
      for (auto &i : t.instructions) {
        i.exec_first = first;
        first += i.exec_count;
        i.exec_count = 0;
      }
      if (first) t.exec_spans.resize(first);
    }
    for (const auto &p : exec_) {
      auto &t = traces_[p.at.trace];
      auto &i = t.instructions[p.at.instruction];
      t.exec_spans[i.exec_first + i.exec_count++] = p.span;
    }
    exec_.clear();
  }
  std::vector<WaveTrace> out;
  // Traces made in the order their waves ended (every wave off the traced unit, all of a CDNA
  // blob's) are handed over as they are; else moved into that order.
  bool in_order = order_.size() == traces_.size();
  for (std::size_t k = 0; in_order && k < order_.size(); ++k) in_order = order_[k] == k;
  if (in_order) {
    out = std::move(traces_);
  } else {
    out.reserve(order_.size());
    for (auto i : order_) out.push_back(std::move(traces_[i]));
  }
  traces_.clear();
  order_.clear();
  by_row_.clear();
  current_.clear();
  ended_.clear();
  return out;
}

}  // namespace wavescope::trace::timeline
