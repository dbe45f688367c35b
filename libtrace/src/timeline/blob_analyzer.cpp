#include "wavescope/trace/timeline/blob_analyzer.hpp"

#include <algorithm>

#include "op_info.hpp"
#include "wavescope/trace/sqtt/blob_file.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/pc_stats.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"
#include "wavescope/trace/timeline/wave_trace.hpp"

namespace wavescope::trace::timeline {
namespace {

using sqtt::PacketType;

// A field's place in a packet's bits; a type without the field reads 0.
struct Field {
  std::uint8_t lo = 0;
  std::uint64_t mask = 0;
  std::uint64_t operator()(std::uint64_t raw) const { return raw >> lo & mask; }
};

// The fields the analyzer reads, per packet type. A wave packet's location is its array (RDNA
// sa, CDNA sh), unit (RDNA wgp, CDNA cu), SIMD and slot; its CU is derived on RDNA (spec §9.5).
struct TypeFields {
  Field wave, simd, array, unit, id, op, mask, src, delta;
  bool cdna = false;
  unsigned cu_shift = 3;  // RDNA: cu = wgp | sa << cu_shift
  bool has_unit = false;
};

struct FieldTable {
  std::array<TypeFields, sqtt::kPacketTypeCount> by_type;
  FieldTable() {
    for (std::size_t t = 0; t < sqtt::kPacketTypeCount; ++t) {
      const auto type = static_cast<PacketType>(t);
      const auto &spec = sqtt::packet_spec(type);
      auto field = [&](std::string_view name) {
        const sqtt::FieldSpec *f = spec.field(name);
        return f ? Field{f->lo, f->mask()} : Field{};
      };
      auto &f = by_type[t];
      f.cdna = type >= PacketType::CdnaMisc;
      f.wave = field("wave");
      f.simd = field("simd");
      f.array = field(f.cdna ? "sh" : "sa");
      f.unit = field(f.cdna ? "cu" : "wgp");
      f.id = field(f.cdna ? "count" : "id7");
      f.op = field("op");
      f.mask = field("mask");
      f.src = field("src");
      f.delta = field("delta");
      f.cu_shift = type == PacketType::WavestartRdna4 || type == PacketType::WaveendRdna4 ? 4 : 3;
      f.has_unit = spec.field("wgp") || spec.field("cu");
    }
  }
};

// Built when the library is loaded (the packet tables it reads are built on first use), so the
// per-packet reads are plain table reads. Nothing runs the analyzer from a static initializer.
const FieldTable kFields;

const TypeFields &fields_of(PacketType type) {
  return kFields.by_type[static_cast<std::size_t>(type)];
}

__extension__ typedef __int128 i128;

std::int64_t floor_div(i128 a, i128 b) {
  auto q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return static_cast<std::int64_t>(q);
}

// floor(cycles * 1e9 / (realtime * 10)): in 64 bits where neither product overflows (always, on
// real traces), else in 128 (a 128-bit division is a library call, ~0.7% of a full analysis).
std::int64_t clock_hz(std::int64_t cycles, std::int64_t realtime) {
  std::int64_t a, b;
  if (__builtin_mul_overflow(cycles, std::int64_t{1'000'000'000}, &a) ||
      __builtin_mul_overflow(realtime, std::int64_t{10}, &b))
    return floor_div(static_cast<i128>(cycles) * 1'000'000'000, static_cast<i128>(realtime) * 10);
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

std::string_view to_string(WaveState state) {
  switch (state) {
  case WaveState::Idle: return "IDLE";
  case WaveState::Exec: return "EXEC";
  case WaveState::Wait: return "WAIT";
  case WaveState::Stall: return "STALL";
  }
  return "?";
}

// An exec packet's source: its name (and the name of a WMMA dispatch's exec event), the queue of
// the dispatches it executes (-1: none), its row, and whether the packet marks the first cycle
// (SALU, VMEM, LDS) or the last (VALU).
struct BlobAnalyzer::ExecSource {
  std::string_view name, wmma_name;
  int queue;
  std::string_view row;
  bool marks_start;
};

BlobAnalyzer::BlobAnalyzer(const ProgramMap *program, unsigned se, AnalysisObserver &observer)
    : BlobAnalyzer(program, se, AnalysisSinks{.observer = &observer}) {}

BlobAnalyzer::BlobAnalyzer(const ProgramMap *program, unsigned se, const AnalysisSinks &sinks)
    : ops_(op_tables()) {
  reset(program, se, sinks);
}

void BlobAnalyzer::reset(const ProgramMap *program, unsigned se, const AnalysisSinks &sinks) {
  program_ = program && !program->empty() ? program : nullptr;
  se_ = se;
  sinks_ = sinks;
  events_ = sinks.pc_stats || sinks.waves || sinks.timeline || sinks.observer;
  wave_events_ = sinks.waves || sinks.timeline || sinks.observer;
  clock_events_ = sinks.clock || sinks.timeline || sinks.observer;
  if (open_waves_) close_open_waves();
  for (auto &s : slots_) s.restart();
  for (auto &q : pending_) q.clear();
  have_marker_ = false;
  marker_time_ = 0;
  marker_realtime_ = 0;
  waves_ = traced_waves_ = mapped_ = 0;
  anomalies_ = {};
}

// The decoder's sink for decode(): per packet, the analyzer's type mask and, for the third of
// the packets it acts on, handle() inlined. NOP runs are nothing to it.
struct BlobAnalyzer::Direct {
  BlobAnalyzer *analyzer;
  void operator()(const sqtt::Packet &p) const {
    if (analyzer->wants(p)) [[unlikely]]
      analyzer->handle(p.type, p.raw, p.time, p.index);
  }
  void on_nops(const sqtt::Packet &, unsigned) const {}
};

sqtt::DecodeSummary BlobAnalyzer::decode(std::span<const std::uint8_t> blob,
                                         const sqtt::DecodeOptions &options) {
  sqtt::PacketDecoder decoder(options);
  return decoder.decode(blob, Direct{this});
}

sqtt::DecodeSummary BlobAnalyzer::decode(const sqtt::BlobFile &file,
                                         const sqtt::DecodeOptions &options,
                                         const ProgressSink *progress) {
  return sqtt::decode_file(file, options, Direct{this}, progress);
}

void BlobAnalyzer::handle(PacketType type, std::uint64_t raw, std::int64_t time,
                          std::uint64_t index) {
  const TypeFields &f = fields_of(type);
  switch (type) {
  case PacketType::Wavestart:
  case PacketType::WavestartRdna4:
  case PacketType::CdnaWavestart: wave_start(type, raw, time, index); break;
  case PacketType::Waveend:
  case PacketType::WaveendRdna4:
  case PacketType::CdnaWaveend: wave_end(type, raw, time, index); break;
  case PacketType::Inst:
    instruction(type, time, static_cast<unsigned>(f.wave(raw)), ops_.inst[f.op(raw) & 0xFF]);
    break;
  case PacketType::InstRdna4:
    instruction(type, time, static_cast<unsigned>(f.wave(raw)), ops_.inst_rdna4[f.op(raw) & 0xFF]);
    break;
  case PacketType::CdnaInst:
    // Only a dispatch event: nothing to do for consumers of counts.
    if (events_ && f.simd(raw) == 0)
      instruction(type, time, static_cast<unsigned>(f.wave(raw)), ops_.cdna_inst[f.op(raw) & 0xFF]);
    break;
  case PacketType::Valuinst:
    instruction(type, time, static_cast<unsigned>(f.wave(raw)), ops_.valuinst);
    break;
  case PacketType::Immediate:
    instruction(type, time, static_cast<unsigned>(f.wave(raw)), ops_.immediate);
    break;
  case PacketType::ImmediateMask: immediate_mask(time, f.mask(raw)); break;
  case PacketType::TsDeltaOrMark:
    // A realtime marker (rt = 1, pl = 0; Packet::is_marker), else a time delta.
    if ((raw >> 9 & 1) && !(raw >> 8 & 1)) marker(type, raw, time);
    break;
  case PacketType::TsDeltaOrMarkRdna4:
    if ((raw >> 7 & 1) && !(raw >> 8 & 1)) marker(type, raw, time);
    break;
  case PacketType::Waverdy:
    // Only the timing model and the events see it.
    if (events_) wave_ready(time, f.mask(raw));
    break;
  case PacketType::Aluexec: alu_exec(time, static_cast<unsigned>(f.src(raw) & 3)); break;
  case PacketType::Vmemexec: {
    static constexpr ExecSource sources[] = {
        {"LDS", "LDS_WMMA", kLds, "VMEMEXEC:0 LDS", true},
        {"LDS_ALT", "LDS_ALT_WMMA", kLds + kAlt, "VMEMEXEC:0 LDS", true},
        {"VMEM", "VMEM_WMMA", kVmem, "VMEMEXEC:0 VMEM", true},
        {"VMEM_ALT", "VMEM_ALT_WMMA", kVmem + kAlt, "VMEMEXEC:0 VMEM", true}};
    exec(time, sources[f.src(raw) & 3]);
    break;
  }
  default: break;
  }
}

// Out of handle(), so that each of its cases is a tail call and it saves no registers.
[[gnu::noinline]] void BlobAnalyzer::immediate_mask(std::int64_t time, std::uint64_t mask) {
  for (unsigned w = 0; w < 16; ++w)
    if (mask & (1u << w)) instruction(PacketType::ImmediateMask, time, w, ops_.immediate_mask);
}

[[gnu::noinline]] void BlobAnalyzer::alu_exec(std::int64_t time, unsigned src) {
  // NONE, SALU, VALU; 3 is VALU_SALU: one exec event for each.
  static constexpr ExecSource sources[] = {{"NONE", "NONE_WMMA", -1, "ALUEXEC:0 NONE", false},
                                           {"SALU", "SALU_WMMA", kSalu, "ALUEXEC:0 SALU", true},
                                           {"VALU", "VALU_WMMA", kValu, "ALUEXEC:0 VALU", false}};
  if (src == 3) {
    exec(time, sources[2]);
    exec(time, sources[1]);
  } else {
    exec(time, sources[src]);
  }
}

std::uint8_t BlobAnalyzer::add_open_page() {
  open_pages_.emplace_back();
  return static_cast<std::uint8_t>(open_pages_.size());
}

BlobAnalyzer::OpenWave &BlobAnalyzer::open_wave_of(std::uint64_t array, std::uint64_t unit,
                                                   std::uint64_t simd, std::uint64_t wave) {
  const auto key = (((array * 16 + unit) * 4 + simd) * 32 + wave) % kOpenKeys;
  auto &page = open_page_[key / kPageKeys];
  if (!page) [[unlikely]]
    page = add_open_page();
  return open_pages_[page - 1u][key % kPageKeys];
}

void BlobAnalyzer::PendingQueue::grow() {
  std::vector<Pending> bigger(std::max<std::size_t>(16, 2 * ring.size()));
  std::uint64_t n = 0;
  for (; head != tail; ++head) bigger[n++] = front();
  ring = std::move(bigger);
  head = 0;
  tail = n;
}

void BlobAnalyzer::wave_start(PacketType type, std::uint64_t raw, std::int64_t time,
                              std::uint64_t index) {
  const TypeFields &f = fields_of(type);
  const auto array = f.array(raw), unit = f.unit(raw), simd = f.simd(raw), wave = f.wave(raw);
  const auto cu = f.cdna ? unit : unit | array << f.cu_shift;
  OpenWave &w = open_wave_of(array, unit, simd, wave);
  if (w.open)
    ++anomalies_.wave_start_on_busy_slot;
  else
    ++open_waves_;
  w = {true, time, index, static_cast<std::uint32_t>(f.id(raw))};

  // tinygrad's mapper follows one unit: CU and SIMD both 0.
  if (!((!f.has_unit || cu == 0) && simd == 0)) return;
  Slot &s = slots_[wave % kSlots];
  if (s.active) ++anomalies_.wave_start_on_busy_slot;
  if (s.in_barrier) s.in_barrier = false;  // a new wave: the old wait cannot end any more
  s.active = true;
  s.mapped = program_ != nullptr && !f.cdna;
  s.pc = program_ ? program_->entry() : 0;
  s.last_issue = time;
  s.wave_number = s.waves_started++;
  s.issued = 0;
  s.skipped_wait = nullptr;
  if (!events_) return;
  s.states.clear();
  set_state(s, WaveState::Idle, time);
  s.has_previous = false;
  s.barrier_pending = false;
  s.barrier_duration = -1;
}

void BlobAnalyzer::wave_end(PacketType type, std::uint64_t raw, std::int64_t time,
                            std::uint64_t index) {
  const TypeFields &f = fields_of(type);
  const bool cdna = f.cdna;
  const auto array = f.array(raw), unit = f.unit(raw), simd = f.simd(raw), wave = f.wave(raw);
  const auto cu = cdna ? unit : unit | array << f.cu_shift;
  OpenWave &w = open_wave_of(array, unit, simd, wave);
  if (w.open) {
    ++waves_;
    const bool traced = cu == 0 && simd == 0;
    traced_waves_ += traced;
    if (wave_events_) {
      Wave out;
      out.se = se_;
      if (cdna)
        out.sh = static_cast<unsigned>(array);
      else
        out.sa = static_cast<unsigned>(array), out.wgp = static_cast<unsigned>(unit);
      out.cu = static_cast<unsigned>(cu);
      out.simd = static_cast<unsigned>(simd);
      out.slot = static_cast<unsigned>(wave);
      out.id7 = w.id7;
      out.start = w.start;
      out.end = time;
      out.start_index = w.start_index;
      out.end_index = index;
      out.traced = traced;
      out.mapped = traced && !cdna && program_ != nullptr;
      if (sinks_.waves) sinks_.waves->on_wave(out);
      if (sinks_.timeline) sinks_.timeline->on_wave(out);
      if (sinks_.observer) sinks_.observer->on_wave(out);
    }
    w.open = false;
    --open_waves_;
  } else {
    ++anomalies_.wave_end_without_start;
  }

  if (!((!f.has_unit || cu == 0) && simd == 0)) return;
  const unsigned slot = static_cast<unsigned>(wave) % kSlots;
  Slot &s = slots_[slot];
  const bool has_pc = s.active && s.mapped && !cdna;
  mapped_ += has_pc;
  if (events_) {
    DispatchEvent e;
    e.slot = slot;
    e.time = time;
    const OpInfo &op = cdna                               ? ops_.cdna_waveend
                       : type == PacketType::WaveendRdna4 ? ops_.waveend_rdna4
                                                          : ops_.waveend;
    e.name = op.name;
    e.packet = type;
    e.kind = DispatchKind::WaveEnd;
    if (s.active) {
      e.issue_gap = time - s.last_issue;
      if (has_pc) {
        e.pc = s.pc;
        e.has_pc = true;
        const ProgramInstruction *inst = program_->at(s.pc);
        if (inst && inst->is_endpgm) e.instruction = inst;
      }
      // No instruction packet and no s_endpgm at the PC (the entry): nothing is known to have
      // run.
      e.issued_instructions = s.issued > 0 || e.instruction;
      if (!cdna) {
        // The state timeline: each change to the next one (or the end), equal states merged.
        s.spans.clear();
        for (std::size_t i = 0; i < s.states.size(); ++i) {
          const std::int64_t until = i + 1 < s.states.size() ? s.states[i + 1].time : time;
          const std::int64_t d = std::min(until, time) - s.states[i].time;
          if (d <= 0) continue;
          if (!s.spans.empty() && s.spans.back().state == s.states[i].state)
            s.spans.back().duration += d;
          else
            s.spans.push_back({s.states[i].state, d});
        }
        e.states = s.spans;
      }
    }
    add_dispatch(e, op);
  }
  s.active = false;
  s.mapped = false;
}

const ProgramInstruction *BlobAnalyzer::walk(Slot &s, std::uint16_t op_flags) {
  const bool skip_no_packet = op_flags & OpInfo::kSkipsNoPacket;
  const bool is_barrier_wait_packet = op_flags & OpInfo::kBarrierWait;
  const ProgramInstruction *inst = program_->at(s.pc);
  while (skip_no_packet && inst && inst->issues_no_packet &&
         !(is_barrier_wait_packet && inst->is_barrier_wait)) {
    if (inst->is_barrier_wait) s.skipped_wait = inst;
    s.pc += inst->size;
    inst = program_->at(s.pc);
  }
  if (!inst) {
    ++anomalies_.pc_outside_text;
    s.mapped = false;
    return nullptr;
  }
  if (inst->is_branch && !(op_flags & OpInfo::kJump)) {
    ++anomalies_.branch_without_jump;
    s.mapped = false;
    return nullptr;
  }
  s.pc += inst->size;
  if (op_flags & OpInfo::kJumpTaken)
    s.pc += static_cast<std::uint64_t>(std::int64_t{inst->simm16} * 4);
  return inst;
}

void BlobAnalyzer::instruction(PacketType type, std::int64_t time, unsigned slot,
                               const OpInfo &packet_op) {
  slot %= kSlots;
  Slot &s = slots_[slot];
  const OpInfo *op = &packet_op;
  const bool walks = op->has(OpInfo::kWalks);
  const ProgramInstruction *inst = nullptr;
  std::int64_t gap = -1;
  if (walks) {
    if (!s.active) {
      ++anomalies_.instructions_without_wave;
    } else {
      ++s.issued;
      s.skipped_wait = nullptr;
      if (s.mapped) {
        inst = walk(s, op->flags);
        mapped_ += inst != nullptr;
      }
      gap = time - s.last_issue;
      s.last_issue = time;
    }
    if (type == PacketType::Valuinst && inst && inst->is_wmma)
      op = inst->is_wmma_iu4 ? &ops_.wmma_valu_16 : &ops_.wmma_valu_32;
  }
  if (!events_) {
    // Counts only: the dispatch still waits for its exec packet (exec anomalies).
    if (op->queue >= 0) enqueue({op, inst, 0, 0, static_cast<std::uint8_t>(slot)}, op->queue);
    return;
  }
  DispatchEvent e;
  e.slot = slot;
  e.time = time;
  e.name = op->name;
  e.packet = type;
  e.kind =
      walks || type == PacketType::CdnaInst ? DispatchKind::Instruction : DispatchKind::OtherSimd;
  if (inst) {
    e.instruction = inst;
    e.pc = inst->address;
    e.has_pc = true;
  }
  e.issue_gap = gap;
  if (walks && s.active) {
    // rocprof-trace-decoder's categories: IMMEDIATE packets and the barrier ops are immediates
    // (their stall is the wait since the previous instruction ended); everything else stalls
    // from a WAVERDY on and then executes for its category's cycles.
    close_barrier(s, time);
    const bool had_previous = s.has_previous;
    const std::int64_t previous_end = s.previous_end;
    time_instruction(s, e, op->cycles, op->has(OpInfo::kImmediate));
    if (op->has(OpInfo::kRdna3Barrier)) {  // RDNA3: the barrier lasts until the wave's next event
      s.barrier_pending = true;
      s.barrier_first = time - e.stall;
      s.barrier_old_end = s.previous_end;
    }
    if (s.skipped_wait && had_previous) insert_barrier_wait(s, e, previous_end);
    s.skipped_wait = nullptr;
  }
  add_dispatch(e, *op);
}

void BlobAnalyzer::wave_ready(std::int64_t time, std::uint64_t mask) {
  for (unsigned w = 0; w < 16; ++w) {
    if (!(mask & (1u << w)) || !slots_[w].active) continue;
    // The wave is ready to issue: it stalls until its next instruction issues.
    close_barrier(slots_[w], time - 1);
    set_state(slots_[w], WaveState::Stall, time);
  }
  for (unsigned w = 0; w < 16; ++w)
    if ((mask & (1u << w)) && slots_[w].in_barrier) {
      DispatchEvent e;
      e.slot = w;
      e.time = time;
      e.name = ops_.waverdy.name;
      e.packet = PacketType::Waverdy;
      e.kind = DispatchKind::WaveReady;
      add_dispatch(e, ops_.waverdy);
    }
}

void BlobAnalyzer::set_state(Slot &s, WaveState state, std::int64_t time) {
  if (s.states.empty() || time > s.states.back().time)
    s.states.push_back({state, time});
  else
    s.states.back().state = state;  // a change at or before the last one takes over from it
}

void BlobAnalyzer::relabel_wait(Slot &s, std::int64_t from, std::int64_t to) {
  if (to <= from || s.states.empty()) return;
  auto &v = s.states;
  // The state in force at `to`, then every change inside [from, to) replaced by one WAIT.
  WaveState at_to = v.front().state;
  for (const auto &c : v)
    if (c.time <= to) at_to = c.state;
  const auto first = std::find_if(v.begin(), v.end(), [&](auto &c) { return c.time >= from; });
  const auto last = std::find_if(first, v.end(), [&](auto &c) { return c.time >= to; });
  const bool change_at_to = last != v.end() && last->time == to;
  const auto at = v.erase(first, last);
  const auto wait = v.insert(at, StateChange{WaveState::Wait, from});
  if (!change_at_to) v.insert(wait + 1, StateChange{at_to, to});
}

void BlobAnalyzer::close_barrier(Slot &s, std::int64_t time) {
  if (!s.barrier_pending) return;
  s.barrier_pending = false;
  set_state(s, WaveState::Wait, s.barrier_old_end);
  set_state(s, WaveState::Exec, time + 1);
  s.barrier_duration = std::max<std::int64_t>(0, time - s.barrier_first);
  s.previous_end = s.barrier_first + s.barrier_duration;
}

void BlobAnalyzer::time_instruction(Slot &s, DispatchEvent &e, std::int64_t cycles,
                                    bool immediate) {
  const std::int64_t t = e.time;
  if (immediate) {
    const std::int64_t first = s.has_previous ? std::min(t, s.previous_end) : t;
    e.stall = t - first;
    e.duration = e.stall + 1;
    set_state(s, WaveState::Wait, first);
    set_state(s, WaveState::Exec, t + 1);
    s.previous_end = t + 1;
  } else {
    const bool stalled =
        !s.states.empty() && s.states.back().state == WaveState::Stall && s.states.back().time < t;
    e.stall = stalled ? t - s.states.back().time : 0;
    e.duration = e.stall + cycles;
    set_state(s, WaveState::Exec, t);
    s.previous_end = t + cycles;
  }
  s.has_previous = true;
}

void BlobAnalyzer::insert_barrier_wait(Slot &s, DispatchEvent &next, std::int64_t from) {
  const ProgramInstruction *inst = s.skipped_wait;
  DispatchEvent w;
  w.slot = next.slot;
  w.row_index = s.row_count;
  w.wave_number = s.wave_number;
  w.name = "BARRIER_WAIT";
  w.packet = PacketType::Nop;
  w.kind = DispatchKind::Instruction;
  w.instruction = inst;
  w.pc = inst->address;
  w.has_pc = true;
  w.inserted = true;
  w.issue_gap = 0;
  w.stall = 0;
  // From the end of the instruction before it (the BARRIER_SIGNAL) to the next instruction's
  // first issue attempt, as rocprof-trace-decoder inserts it. Where the next one stalled from
  // that very cycle, the wait takes its first stall cycle (the decoder gives it one cycle too).
  w.time = from;
  if (next.time - next.stall == from && next.stall > 0 && next.duration > 1) {
    --next.stall;
    --next.duration;
  }
  w.duration = std::max<std::int64_t>(0, next.time - next.stall - from);
  relabel_wait(s, w.time, w.time + w.duration);
  dispatch(w);
}

void BlobAnalyzer::enqueue(const Pending &pending, int queue) {
  auto &q = pending_[static_cast<std::size_t>(queue)];
  if (q.size() >= kMaxPending) {
    q.pop_front();
    ++anomalies_.dropped_dispatches;
  }
  q.push_back(pending);
}

void BlobAnalyzer::dispatch(const DispatchEvent &e) {
  if (sinks_.pc_stats) sinks_.pc_stats->on_dispatch(e);
  if (sinks_.waves) sinks_.waves->on_dispatch(e);
  if (sinks_.timeline) sinks_.timeline->on_dispatch(e);
  if (sinks_.observer) sinks_.observer->on_dispatch(e);
}

void BlobAnalyzer::add_dispatch(DispatchEvent &e, const OpInfo &op) {
  Slot &s = slots_[e.slot];
  e.row_index = s.row_count++;
  e.wave_number = s.wave_number;
  e.opens_barrier = op.has(OpInfo::kOpensBarrier);
  if (op.queue >= 0) {
    enqueue({&op, e.instruction, e.wave_number, e.row_index, static_cast<std::uint8_t>(e.slot)},
            op.queue);
    e.expects_exec = true;
  }
  dispatch(e);
  if (s.in_barrier) {
    s.barrier.end = e.time;
    s.barrier.duration = s.barrier_duration;
    s.barrier_duration = -1;
    s.in_barrier = false;
    if (sinks_.pc_stats) sinks_.pc_stats->on_barrier(s.barrier);
    if (sinks_.waves) sinks_.waves->on_barrier(s.barrier);
    if (sinks_.timeline) sinks_.timeline->on_barrier(s.barrier);
    if (sinks_.observer) sinks_.observer->on_barrier(s.barrier);
  }
  if (e.opens_barrier) {
    s.in_barrier = true;
    s.barrier = {e.slot, e.row_index, e.time, e.time + 1, e.instruction, e.pc};
  }
}

void BlobAnalyzer::exec(std::int64_t time, const ExecSource &source) {
  const int queue = source.queue;
  PendingQueue *q = queue >= 0 ? &pending_[static_cast<std::size_t>(queue)] : nullptr;
  if (!events_) {
    if (q && !q->empty())
      q->pop_front();
    else
      ++anomalies_.exec_without_dispatch;
    return;
  }
  ExecEvent e;
  e.row = source.row;
  e.name = source.name;
  bool marks_start = source.marks_start;
  std::int64_t duration = 1;
  if (q && !q->empty()) {
    const Pending d = q->front();
    q->pop_front();
    e.linked = true;
    e.slot = d.slot;
    e.row_index = d.row_index;
    e.wave_number = d.wave_number;
    e.instruction = d.instruction;
    e.pc = d.instruction ? d.instruction->address : 0;
    if (d.op->has(OpInfo::kWmma)) {
      e.name = source.wmma_name;
      if (!d.op->has(OpInfo::kWmmaValu)) e.row = "ALUEXEC:0 WMMA", marks_start = false;
    }
    if (d.op->has(OpInfo::kValut)) e.row = "ALUEXEC:0 TFU", marks_start = true;
    duration = d.op->cycles;
  } else {
    ++anomalies_.exec_without_dispatch;
  }
  // SALU, TFU, VMEM and LDS packets mark the first cycle; VALU and WMMA packets the last.
  e.start = marks_start ? time : time - duration;
  e.end = marks_start ? time + duration : time;
  if (sinks_.pc_stats) sinks_.pc_stats->on_exec(e);
  if (sinks_.waves) sinks_.waves->on_exec(e);
  if (sinks_.timeline) sinks_.timeline->on_exec(e);
  if (sinks_.observer) sinks_.observer->on_exec(e);
}

void BlobAnalyzer::marker(PacketType type, std::uint64_t raw, std::int64_t time) {
  const std::uint64_t realtime = fields_of(type).delta(raw);
  if (sinks_.observer) sinks_.observer->on_realtime({time, realtime});
  if (have_marker_) {
    const auto dr = static_cast<std::int64_t>(realtime - marker_realtime_);
    if (dr == 0) {
      ++anomalies_.marker_pairs_without_progress;
    } else if (clock_events_) {
      ClockPoint c;
      c.time = time;
      c.freq_hz = clock_hz(time - marker_time_, dr);
      if (sinks_.clock) sinks_.clock->on_clock(c);
      if (sinks_.timeline) sinks_.timeline->on_clock(c);
      if (sinks_.observer) sinks_.observer->on_clock(c);
    }
  }
  have_marker_ = true;
  marker_time_ = time;
  marker_realtime_ = realtime;
}

void BlobAnalyzer::close_open_waves() {
  for (auto &page : open_pages_)
    for (auto &w : page) w.open = false;
  open_waves_ = 0;
}

void BlobAnalyzer::finish() {
  anomalies_.waves_without_end += open_waves_;
  if (open_waves_) close_open_waves();
}

}  // namespace wavescope::trace::timeline
