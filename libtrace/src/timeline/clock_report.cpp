#include "wavescope/trace/timeline/clock_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/base/text_table.hpp"

namespace wavescope::trace::timeline {
namespace {

constexpr std::uint64_t kRealtimeNs = 10;  // one tick of the 100 MHz realtime counter

// The frequency estimate made at a marker (the second of its pair), or nullptr for the first
// marker and for a pair whose realtime did not advance. Both lists are in trace order.
class PointAt {
public:
  explicit PointAt(const std::vector<ClockPoint> &points) : points_(points) {}
  const ClockPoint *operator()(std::size_t marker, std::int64_t time) {
    if (marker == 0 || next_ >= points_.size() || points_[next_].time != time) return nullptr;
    return &points_[next_++];
  }

private:
  const std::vector<ClockPoint> &points_;
  std::size_t next_ = 0;
};

}  // namespace

std::string to_json(const ClockReport &report) {
  std::string out;
  for (const auto &b : report.analysis.blobs) {
    PointAt point_at(b.clock);
    for (std::size_t i = 0; i < b.realtime.size(); ++i) {
      const auto &pair = b.realtime[i];
      const ClockPoint *point = point_at(i, pair.shader_clock);
      nlohmann::json j = {{"blob", b.blob->file_name},
                          {"kernel", b.blob->program},
                          {"se", b.blob->se},
                          {"marker", i},
                          {"shader_clock", pair.shader_clock},
                          {"realtime", pair.realtime},
                          {"realtime_ns", pair.realtime * kRealtimeNs},
                          {"freq_hz", point ? nlohmann::json(point->freq_hz) : nlohmann::json()}};
      if (!out.empty()) out += '\n';
      out += json_line(j);
    }
  }
  return out;
}

std::string to_text(const ClockReport &report) {
  using Align = TextTable::Align;
  std::string out;
  for (const auto &b : report.analysis.blobs) {
    const auto &pairs = b.realtime;
    out += fmt::format("{} ({}, SE {}): ", b.blob->file_name, b.blob->program, b.blob->se);
    if (pairs.empty()) {
      out += "no realtime markers, so no shader clock estimate\n\n";
      continue;
    }
    const auto cycles = pairs.back().shader_clock - pairs.front().shader_clock;
    const auto ns = (pairs.back().realtime - pairs.front().realtime) * kRealtimeNs;
    out += fmt::format("{} realtime markers over {} cycles and {:.3f} us", pairs.size(), cycles,
                       double(ns) / 1e3);
    if (b.clock_points)
      out += fmt::format("; shader clock median {} MHz", b.clock_median_hz / 1'000'000);
    out += '\n';
    TextTable table(
        {"marker", "shader clock", "realtime", "d cycles", "d ns", "MHz"},
        {Align::Right, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right});
    PointAt point_at(b.clock);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const ClockPoint *point = point_at(i, pairs[i].shader_clock);
      const bool later = i > 0;
      table.add_row(
          {std::to_string(i), std::to_string(pairs[i].shader_clock),
           std::to_string(pairs[i].realtime),
           later ? std::to_string(pairs[i].shader_clock - pairs[i - 1].shader_clock) : "",
           later ? std::to_string((pairs[i].realtime - pairs[i - 1].realtime) * kRealtimeNs) : "",
           point ? fmt::format("{:.1f}", double(point->freq_hz) / 1e6) : ""});
    }
    out += table.render() + '\n';
  }
  return out;
}

}  // namespace wavescope::trace::timeline
