#include "wavescope/trace/timeline/blob_analyzer.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace wavescope::trace::timeline {
namespace {

using sqtt::FieldSpec;
using sqtt::Packet;
using sqtt::PacketType;

// The fields the analyzer reads, looked up once per packet type.
enum Key { kDelta, kWave, kSa, kWgp, kSimd, kCu, kSh, kOp, kSrc, kMask, kId7, kCount, kKeys };
constexpr std::string_view kKeyNames[kKeys] = {"delta", "wave", "sa",  "wgp",  "simd", "cu",
                                               "sh",    "op",   "src", "mask", "id7",  "count"};

struct FieldCache {
  std::array<std::array<const FieldSpec *, kKeys>, sqtt::kPacketTypeCount> fields{};
  FieldCache() {
    for (std::size_t t = 0; t < sqtt::kPacketTypeCount; ++t)
      for (int k = 0; k < kKeys; ++k)
        fields[t][k] = sqtt::packet_spec(static_cast<PacketType>(t)).field(kKeyNames[k]);
  }
};

// Built when the library is loaded (the packet tables it reads are built on first use), so
// get() and has(), several per packet, are plain table reads: a function-local static cost a
// call and an initialisation check each (a fifth of the analysis pass). Nothing runs the
// analyzer from a static initializer.
const FieldCache kFieldCache;

std::uint64_t get(const Packet &p, Key key) {
  const FieldSpec *f = kFieldCache.fields[static_cast<std::size_t>(p.type)][key];
  return f ? p.field(*f) : 0;
}
bool has(const Packet &p, Key key) {
  return kFieldCache.fields[static_cast<std::size_t>(p.type)][key] != nullptr;
}

bool is_rdna4_wave(PacketType t) {
  return t == PacketType::WavestartRdna4 || t == PacketType::WaveendRdna4;
}
bool is_cdna(PacketType t) { return t >= PacketType::CdnaMisc; }

// A wave packet's location, its fields read once: the array (RDNA sa, CDNA sh), the unit (RDNA
// wgp, CDNA cu), the CU (derived on RDNA, spec §9.5), SIMD and slot.
struct WaveFields {
  std::uint64_t array, unit, cu, simd, wave;
  bool traced;  // tinygrad's mapper follows one unit: CU and SIMD both 0
};
WaveFields wave_fields(const Packet &p) {
  WaveFields f;
  const bool cdna = is_cdna(p.type);
  f.array = get(p, cdna ? kSh : kSa);
  f.unit = get(p, cdna ? kCu : kWgp);
  f.cu = cdna ? f.unit : f.unit | (f.array << (is_rdna4_wave(p.type) ? 4 : 3));
  f.simd = get(p, kSimd);
  f.wave = get(p, kWave);
  const bool wave_packet = has(p, kWgp) || has(p, kCu);
  f.traced = (!wave_packet || f.cu == 0) && f.simd == 0;
  return f;
}

// The queue an instruction category is executed from (VIZ's dispatch_to_exec), or -1.
int exec_queue(std::string_view name) {
  if (name.starts_with("OTHER_")) name.remove_prefix(6);
  const auto prefix = name.substr(0, name.find('_'));
  if (prefix == "WMMA" || prefix == "VALU" || prefix == "VALU1" || prefix == "VALUT" ||
      prefix == "VALUB" || prefix == "VALUINST" || prefix == "VINTERP")
    return 1;
  if (prefix == "SGMEM" || prefix == "FLAT" || prefix == "VMEM") return 3;
  if (prefix == "LDS") return 2;
  if (prefix == "SALU" || prefix == "SMEM") return 0;
  return -1;
}

// The cycle count at the end of a category name ("VALUB_16" -> 16), 1 if there is none.
std::int64_t trailing_cycles(std::string_view name) {
  const auto underscore = name.rfind('_');
  if (underscore == std::string_view::npos || underscore + 1 == name.size()) return 1;
  std::int64_t value = 0;
  for (char c : name.substr(underscore + 1)) {
    if (c < '0' || c > '9') return 1;
    value = value * 10 + (c - '0');
    if (value > 1'000'000) return 1;
  }
  return value;
}

// Names for op values outside the tables, as VIZ prints them ("0x4a").
std::string_view hex_op_name(std::uint64_t op) {
  static const auto names = [] {
    std::array<std::string, 256> n;
    for (unsigned i = 0; i < 256; ++i) n[i] = fmt::format("0x{:02x}", i);
    return n;
  }();
  return names[op & 0xFF];
}

std::string_view wmma_exec_name(std::string_view source) {
  static constexpr std::string_view names[][2] = {
      {"NONE", "NONE_WMMA"},        {"SALU", "SALU_WMMA"},       {"VALU", "VALU_WMMA"},
      {"LDS", "LDS_WMMA"},          {"LDS_ALT", "LDS_ALT_WMMA"}, {"VMEM", "VMEM_WMMA"},
      {"VMEM_ALT", "VMEM_ALT_WMMA"}};
  for (const auto &n : names)
    if (n[0] == source) return n[1];
  return source;
}

__extension__ typedef __int128 i128;

std::int64_t floor_div(i128 a, i128 b) {
  auto q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return static_cast<std::int64_t>(q);
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

BlobAnalyzer::BlobAnalyzer(const ProgramMap *program, unsigned se, AnalysisObserver &observer)
    : program_(program && !program->empty() ? program : nullptr), se_(se), observer_(observer) {}

void BlobAnalyzer::handle(const Packet &p) {
  switch (p.type) {
  case PacketType::Wavestart:
  case PacketType::WavestartRdna4:
  case PacketType::CdnaWavestart: wave_start(p); break;
  case PacketType::Waveend:
  case PacketType::WaveendRdna4:
  case PacketType::CdnaWaveend: wave_end(p); break;
  case PacketType::TsDeltaOrMark:
  case PacketType::TsDeltaOrMarkRdna4:
    if (p.is_marker()) marker(p);
    break;
  case PacketType::Inst:
  case PacketType::InstRdna4: {
    const auto op = get(p, kOp);
    auto name = sqtt::inst_op_name(p.type, op);
    if (name.empty()) name = hex_op_name(op);
    instruction(p, static_cast<unsigned>(get(p, kWave)), name, !name.starts_with("OTHER_"));
    break;
  }
  case PacketType::CdnaInst:
    if (get(p, kSimd) == 0) {
      const auto op = get(p, kOp);
      auto name = sqtt::inst_op_name(p.type, op);
      if (name.empty()) name = hex_op_name(op);
      instruction(p, static_cast<unsigned>(get(p, kWave)), name, false);
    }
    break;
  case PacketType::Valuinst:
    instruction(p, static_cast<unsigned>(get(p, kWave)), "VALUINST", true);
    break;
  case PacketType::Immediate:
    instruction(p, static_cast<unsigned>(get(p, kWave)), "IMMEDIATE", true);
    break;
  case PacketType::ImmediateMask: {
    const auto mask = get(p, kMask);
    for (unsigned w = 0; w < 16; ++w)
      if (mask & (1u << w)) instruction(p, w, "IMMEDIATE", true);
    break;
  }
  case PacketType::Waverdy: {
    const auto mask = get(p, kMask);
    for (unsigned w = 0; w < 16; ++w) {
      if (!(mask & (1u << w)) || !slots_[w].active) continue;
      // The wave is ready to issue: it stalls until its next instruction issues.
      close_barrier(slots_[w], p.time - 1);
      set_state(slots_[w], WaveState::Stall, p.time);
    }
    for (unsigned w = 0; w < 16; ++w)
      if ((mask & (1u << w)) && slots_[w].in_barrier) {
        DispatchEvent e;
        e.slot = w;
        e.time = p.time;
        e.name = "WAVERDY";
        e.packet = p.type;
        e.kind = DispatchKind::WaveReady;
        add_dispatch(e);
      }
    break;
  }
  case PacketType::Aluexec: {
    // NONE, SALU, VALU; 3 is VALU_SALU: one exec event for each.
    static constexpr ExecSource sources[] = {{"NONE", -1, "ALUEXEC:0 NONE", false},
                                             {"SALU", kSalu, "ALUEXEC:0 SALU", true},
                                             {"VALU", kValu, "ALUEXEC:0 VALU", false}};
    const auto src = get(p, kSrc) & 3;
    if (src == 3) {
      exec(p, sources[2]);
      exec(p, sources[1]);
    } else {
      exec(p, sources[src]);
    }
    break;
  }
  case PacketType::Vmemexec: {
    static constexpr ExecSource sources[] = {{"LDS", kLds, "VMEMEXEC:0 LDS", true},
                                             {"LDS_ALT", kLds + kAlt, "VMEMEXEC:0 LDS", true},
                                             {"VMEM", kVmem, "VMEMEXEC:0 VMEM", true},
                                             {"VMEM_ALT", kVmem + kAlt, "VMEMEXEC:0 VMEM", true}};
    exec(p, sources[get(p, kSrc) & 3]);
    break;
  }
  default: break;
  }
}

BlobAnalyzer::OpenWave &BlobAnalyzer::open_wave_of(std::uint64_t array, std::uint64_t unit,
                                                   std::uint64_t simd, std::uint64_t wave) {
  const auto key = (((array * 16 + unit) * 4 + simd) * 32 + wave) % kOpenKeys;
  auto &page = open_page_[key / kPageKeys];
  if (!page) {
    open_pages_.emplace_back();
    page = static_cast<std::uint8_t>(open_pages_.size());
  }
  return open_pages_[page - 1u][key % kPageKeys];
}

void BlobAnalyzer::wave_start(const Packet &p) {
  const bool cdna = is_cdna(p.type);
  const WaveFields f = wave_fields(p);
  OpenWave &w = open_wave_of(f.array, f.unit, f.simd, f.wave);
  if (w.open) ++anomalies_.wave_start_on_busy_slot;
  w = {true, p.time, p.index, static_cast<std::uint32_t>(cdna ? get(p, kCount) : get(p, kId7))};

  if (!f.traced) return;
  Slot &s = slots_[f.wave % kSlots];
  if (s.active) ++anomalies_.wave_start_on_busy_slot;
  if (s.in_barrier) s.in_barrier = false;  // a new wave: the old wait cannot end any more
  s.active = true;
  s.mapped = program_ != nullptr && !cdna;
  s.pc = program_ ? program_->entry() : 0;
  s.last_issue = p.time;
  s.wave_number = s.waves_started++;
  s.states.clear();
  set_state(s, WaveState::Idle, p.time);
  s.issued = 0;
  s.has_previous = false;
  s.barrier_pending = false;
  s.barrier_duration = -1;
  s.skipped_wait = nullptr;
}

void BlobAnalyzer::wave_end(const Packet &p) {
  const bool cdna = is_cdna(p.type);
  const WaveFields f = wave_fields(p);
  OpenWave &w = open_wave_of(f.array, f.unit, f.simd, f.wave);
  if (w.open) {
    Wave wave;
    wave.se = se_;
    if (cdna)
      wave.sh = static_cast<unsigned>(f.array);
    else
      wave.sa = static_cast<unsigned>(f.array), wave.wgp = static_cast<unsigned>(f.unit);
    wave.cu = static_cast<unsigned>(f.cu);
    wave.simd = static_cast<unsigned>(f.simd);
    wave.slot = static_cast<unsigned>(f.wave);
    wave.id7 = w.id7;
    wave.start = w.start;
    wave.end = p.time;
    wave.start_index = w.start_index;
    wave.end_index = p.index;
    wave.traced = wave.cu == 0 && wave.simd == 0;
    wave.mapped = wave.traced && !cdna && program_ != nullptr;
    w.open = false;
    ++waves_;
    observer_.on_wave(wave);
  } else {
    ++anomalies_.wave_end_without_start;
  }

  if (!f.traced) return;
  const unsigned slot = static_cast<unsigned>(f.wave) % kSlots;
  Slot &s = slots_[slot];
  DispatchEvent e;
  e.slot = slot;
  e.time = p.time;
  e.name = sqtt::to_string(p.type);
  e.packet = p.type;
  e.kind = DispatchKind::WaveEnd;
  if (s.active) {
    e.issue_gap = p.time - s.last_issue;
    if (s.mapped && !cdna) {
      e.pc = s.pc;
      e.has_pc = true;
      const ProgramInstruction *inst = program_->at(s.pc);
      if (inst && inst->is_endpgm) e.instruction = inst;
    }
    // No instruction packet and no s_endpgm at the PC (the entry): nothing is known to have run.
    e.issued_instructions = s.issued > 0 || e.instruction;
    if (!cdna) {
      // The state timeline: each change to the next one (or the end), equal states merged.
      s.spans.clear();
      for (std::size_t i = 0; i < s.states.size(); ++i) {
        const std::int64_t until = i + 1 < s.states.size() ? s.states[i + 1].time : p.time;
        const std::int64_t d = std::min(until, p.time) - s.states[i].time;
        if (d <= 0) continue;
        if (!s.spans.empty() && s.spans.back().state == s.states[i].state)
          s.spans.back().duration += d;
        else
          s.spans.push_back({s.states[i].state, d});
      }
      e.states = s.spans;
    }
  }
  add_dispatch(e);
  s.active = false;
  s.mapped = false;
}

const ProgramInstruction *BlobAnalyzer::walk(Slot &s, bool is_jump_packet, bool is_jump_taken,
                                             bool skip_no_packet, bool is_barrier_wait_packet) {
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
  if (inst->is_branch && !is_jump_packet) {
    ++anomalies_.branch_without_jump;
    s.mapped = false;
    return nullptr;
  }
  s.pc += inst->size;
  if (is_jump_taken) s.pc += static_cast<std::uint64_t>(std::int64_t{inst->simm16} * 4);
  return inst;
}

void BlobAnalyzer::instruction(const Packet &p, unsigned slot, std::string_view name, bool walks) {
  slot %= kSlots;
  Slot &s = slots_[slot];
  DispatchEvent e;
  e.slot = slot;
  e.time = p.time;
  e.name = name;
  e.packet = p.type;
  e.kind =
      walks || p.type == PacketType::CdnaInst ? DispatchKind::Instruction : DispatchKind::OtherSimd;
  if (walks) {
    if (!s.active) {
      ++anomalies_.instructions_without_wave;
    } else {
      ++s.issued;
      s.skipped_wait = nullptr;
      if (s.mapped) {
        const bool inst_packet = p.type == PacketType::Inst || p.type == PacketType::InstRdna4;
        const bool jump = inst_packet && (name == "JUMP" || name == "JUMP_NO");
        const bool is_mask = p.type == PacketType::ImmediateMask;
        const ProgramInstruction *inst = walk(s, jump, inst_packet && name == "JUMP", !is_mask,
                                              inst_packet && name == "BARRIER_WAIT");
        if (inst) {
          e.instruction = inst;
          e.pc = inst->address;
          e.has_pc = true;
        }
      }
      e.issue_gap = p.time - s.last_issue;
      s.last_issue = p.time;
    }
    if (p.type == PacketType::Valuinst && e.instruction && e.instruction->is_wmma)
      e.name = e.instruction->is_wmma_iu4 ? "WMMA_VALU_16" : "WMMA_VALU_32";
    if (s.active) {
      // rocprof-trace-decoder's categories: IMMEDIATE packets and the barrier ops are immediates
      // (their stall is the wait since the previous instruction ended); everything else stalls
      // from a WAVERDY on and then executes for its category's cycles.
      const bool immediate = p.type == PacketType::Immediate ||
                             p.type == PacketType::ImmediateMask || e.name == "BARRIER" ||
                             e.name == "BARRIER_WAIT";
      close_barrier(s, p.time);
      const bool had_previous = s.has_previous;
      const std::int64_t previous_end = s.previous_end;
      time_instruction(s, e, trailing_cycles(e.name), immediate);
      if (e.name == "BARRIER") {  // RDNA3: the barrier lasts until the wave's next event
        s.barrier_pending = true;
        s.barrier_first = p.time - e.stall;
        s.barrier_old_end = s.previous_end;
      }
      if (s.skipped_wait && had_previous) insert_barrier_wait(s, e, previous_end);
      s.skipped_wait = nullptr;
    }
  }
  add_dispatch(e);
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
  observer_.on_dispatch(w);
}

void BlobAnalyzer::add_dispatch(DispatchEvent &e) {
  Slot &s = slots_[e.slot];
  e.row_index = s.row_count++;
  e.wave_number = s.wave_number;
  e.opens_barrier = e.name == "BARRIER" || e.name == "BARRIER_SIGNAL";
  if (e.packet == PacketType::Valuinst || e.packet == PacketType::Inst ||
      e.packet == PacketType::InstRdna4) {
    const int queue = exec_queue(e.name);
    if (queue >= 0) {
      auto &q =
          pending_[static_cast<std::size_t>(queue + (e.name.starts_with("OTHER_") ? kAlt : 0))];
      if (q.size() >= kMaxPending) {
        q.pop_front();
        ++anomalies_.dropped_dispatches;
      }
      q.push_back({e.slot, e.row_index, e.wave_number, e.name, e.instruction, e.pc});
      e.expects_exec = true;
    }
  }
  observer_.on_dispatch(e);
  if (s.in_barrier) {
    s.barrier.end = e.time;
    s.barrier.duration = s.barrier_duration;
    s.barrier_duration = -1;
    s.in_barrier = false;
    observer_.on_barrier(s.barrier);
  }
  if (e.opens_barrier) {
    s.in_barrier = true;
    s.barrier = {e.slot, e.row_index, e.time, e.time + 1, e.instruction, e.pc};
  }
}

void BlobAnalyzer::exec(const Packet &p, const ExecSource &source) {
  const int queue = source.queue;
  ExecEvent e;
  e.row = source.row;
  e.name = source.name;
  bool marks_start = source.marks_start;
  std::int64_t duration = 1;
  if (queue >= 0 && !pending_[static_cast<std::size_t>(queue)].empty()) {
    auto &q = pending_[static_cast<std::size_t>(queue)];
    const Pending d = q.front();
    q.pop_front();
    e.linked = true;
    e.slot = d.slot;
    e.row_index = d.row_index;
    e.wave_number = d.wave_number;
    e.instruction = d.instruction;
    e.pc = d.pc;
    if (d.op_type.starts_with("WMMA")) {
      e.name = wmma_exec_name(source.name);
      if (!d.op_type.starts_with("WMMA_VALU")) e.row = "ALUEXEC:0 WMMA", marks_start = false;
    }
    if (d.op_type.starts_with("VALUT")) e.row = "ALUEXEC:0 TFU", marks_start = true;
    duration = trailing_cycles(d.op_type);
  } else {
    ++anomalies_.exec_without_dispatch;
  }
  // SALU, TFU, VMEM and LDS packets mark the first cycle; VALU and WMMA packets the last.
  e.start = marks_start ? p.time : p.time - duration;
  e.end = marks_start ? p.time + duration : p.time;
  observer_.on_exec(e);
}

void BlobAnalyzer::marker(const Packet &p) {
  const std::uint64_t realtime = get(p, kDelta);
  observer_.on_realtime({p.time, realtime});
  if (have_marker_) {
    const auto dr = static_cast<std::int64_t>(realtime - marker_realtime_);
    if (dr == 0) {
      ++anomalies_.marker_pairs_without_progress;
    } else {
      ClockPoint c;
      c.time = p.time;
      c.freq_hz = floor_div(static_cast<i128>(p.time - marker_time_) * 1'000'000'000,
                            static_cast<i128>(dr) * 10);
      observer_.on_clock(c);
    }
  }
  have_marker_ = true;
  marker_time_ = p.time;
  marker_realtime_ = realtime;
}

void BlobAnalyzer::finish() {
  for (auto &page : open_pages_)
    for (auto &w : page)
      if (w.open) ++anomalies_.waves_without_end, w.open = false;
}

}  // namespace wavescope::trace::timeline
