#include "wavescope/trace/timeline/cdna_clock.hpp"

namespace wavescope::trace::timeline {

using sqtt::PacketType;

std::string_view to_string(CdnaClock clock) {
  switch (clock) {
  case CdnaClock::Tinygrad: return "tinygrad";
  case CdnaClock::ResetWindows: return "reset-windows";
  case CdnaClock::Ticked: return "ticked";
  }
  return "?";
}

bool CdnaClockStage::is_reset(const sqtt::Packet &p) {
  return p.type == PacketType::CdnaMisc && !p.in_tail && ((p.raw >> 13) & 7) == 1;
}

bool CdnaClockStage::is_anchor(const sqtt::Packet &p) {
  return p.type == PacketType::CdnaTimestamp && !p.in_tail && ((p.raw >> 4) & 0xFFF) == 0;
}

bool CdnaClockStage::has_tick(const sqtt::Packet &p) {
  return p.type > PacketType::CdnaTimestamp && ((p.raw >> 4) & 1) != 0;
}

std::int64_t CdnaClockStage::ticked_time(const sqtt::Packet &p) {
  if (clock_ != CdnaClock::Ticked || p.type < PacketType::CdnaMisc || p.in_tail) return p.time;
  if (is_anchor(p)) {
    // The decoder re-anchors at every timestamp but the first (which fixes the offset): the
    // ticks before that one stay part of the clock, those since the last anchor are absorbed.
    if (!seen_anchor_) base_ticks_ = ticks_;
    seen_anchor_ = true;
    ticks_ = base_ticks_;
  } else if (has_tick(p)) {
    ticks_ += 4;
    ++report_.ticks;
  }
  return p.time + ticks_;
}

}  // namespace wavescope::trace::timeline
