#pragma once
// The CDNA (gfx9) shader clock the analysis runs on, a stage between the packet decoder and the
// analyzers. The decoder keeps tinygrad's clock (spec §8: the CDNA_MISC deltas, re-anchored at
// each CDNA_TIMESTAMP), so decoded packets equal the corpus' reference decode; this stage re-times
// copies of the packets for the wave and instruction analysis (docs/sqtt-analysis.md, "CDNA
// (gfx950): which wave end is right"):
//
// * TIME_RESET windows. A CDNA_MISC with misc_type 1 (TIME_RESET, always delta 255) means the
//   delta counter ran out: the 1020 cycles it adds are a lower bound. The packets after it up to
//   the next CDNA_TIMESTAMP happened at that timestamp's time, and get it (as AMD's
//   rocprof-trace-decoder reads them). A window that meets another TIME_RESET or the end of the
//   blob first, or grows past kMaxWindow packets, keeps its times.
// * Ticks. Every CDNA packet other than CDNA_MISC and CDNA_TIMESTAMP has a bit 4 that spec §7 lists
//   no field for; rocprof-trace-decoder reads it as one more 4-cycle step of the clock. The packets
//   support that reading: by tinygrad's clock 35 of 228 consecutive issues of the same wave in the
//   gfx950 corpus fall into one 4-cycle step (a SIMD issues for a wave at most once per step), by
//   the ticked clock none. The ticks count from the blob's start; each later CDNA_TIMESTAMP
//   re-anchors the clock (the decoder's time there plus the ticks before the first timestamp).

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "wavescope/trace/sqtt/packet.hpp"

namespace wavescope::trace::timeline {

enum class CdnaClock : std::uint8_t {
  Tinygrad,      // the decoder's times, unchanged (tinygrad's waves.jsonl and timeline.jsonl)
  ResetWindows,  // tinygrad's clock, with TIME_RESET windows at their timestamp's time
  Ticked,        // ResetWindows plus the bit-4 ticks: rocprof-trace-decoder's clock (the default)
};
std::string_view to_string(CdnaClock clock);

// What the stage changed in one blob.
struct CdnaClockReport {
  std::uint64_t windows = 0;         // TIME_RESET windows closed by a CDNA_TIMESTAMP
  std::uint64_t window_packets = 0;  // packets inside them (given the timestamp's time)
  std::uint64_t open_windows = 0;    // windows that kept their times (no timestamp came)
  std::uint64_t ticks = 0;           // packets with the bit-4 tick (Ticked only)
  std::uint64_t retimed = 0;         // packets whose time the stage changed
  std::int64_t max_shift = 0;        // the largest change of a packet's time, cycles
};

// Feed every decoded packet of one blob in order through on_packet, then call finish; `out`
// receives each packet (a re-timed copy where the time changed), in the same order, possibly a
// few packets later (a window is held until its timestamp). Only CDNA packets are touched.
class CdnaClockStage {
public:
  explicit CdnaClockStage(CdnaClock clock) : clock_(clock) {}

  CdnaClock clock() const { return clock_; }

  template <class Emit> void on_packet(const sqtt::Packet &packet, Emit &&out) {
    if (clock_ == CdnaClock::Tinygrad) return out(packet);
    Held h{packet, packet.time};
    h.packet.time = ticked_time(packet);
    if (in_window_) {
      if (!is_anchor(packet) && !is_reset(packet) && window_.size() < kMaxWindow) {
        window_.push_back(h);
        return;
      }
      if (is_anchor(packet)) {
        ++report_.windows;
        for (auto &w : window_) {
          ++report_.window_packets;
          w.packet.time = h.packet.time;
          send(w, out);
        }
      } else {
        ++report_.open_windows;
        for (auto &w : window_) send(w, out);
      }
      window_.clear();
      in_window_ = false;
    }
    send(h, out);
    if (is_reset(packet)) in_window_ = true;
  }
  // Releases a window whose timestamp never came, with its times as they are.
  template <class Emit> void finish(Emit &&out) {
    if (!in_window_) return;
    ++report_.open_windows;
    for (auto &w : window_) send(w, out);
    window_.clear();
    in_window_ = false;
  }

  const CdnaClockReport &report() const { return report_; }

  static constexpr std::size_t kMaxWindow = 64;  // the corpus' windows hold 2-4 packets

  static bool is_reset(const sqtt::Packet &p);   // a CDNA_MISC TIME_RESET
  static bool is_anchor(const sqtt::Packet &p);  // a CDNA_TIMESTAMP with [15:4] == 0 (spec §8)
  static bool has_tick(const sqtt::Packet &p);   // bit 4 of a packet that has no delta there

private:
  struct Held {
    sqtt::Packet packet;
    std::int64_t decoded = 0;  // the decoder's time
  };
  // The packet's time with the ticks (Ticked), before any window.
  std::int64_t ticked_time(const sqtt::Packet &p);
  template <class Emit> void send(const Held &h, Emit &&out) {
    const std::int64_t shift = h.packet.time - h.decoded;
    if (shift) {
      ++report_.retimed;
      report_.max_shift = std::max(report_.max_shift, shift < 0 ? -shift : shift);
    }
    out(h.packet);
  }

  CdnaClock clock_;
  bool in_window_ = false;
  std::vector<Held> window_;
  bool seen_anchor_ = false;
  std::int64_t ticks_ = 0;       // cycles of ticks on top of the decoder's time
  std::int64_t base_ticks_ = 0;  // ticks before the first timestamp (kept by every re-anchoring)
  CdnaClockReport report_;
};

}  // namespace wavescope::trace::timeline
