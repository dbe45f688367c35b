#pragma once
// What `wavectl profile info` prints: a profile's devices, tracks, kernels, buffers and memory
// peak, computed here and printed by the printers below (text and JSON).

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

struct ProfileSummary {
  std::string source, format;
  double duration_ms = 0;
  struct DeviceRow {
    std::string name;
    double clock_offset_us = 0;
    std::string processor;  // from gfx_target_version, empty for none
    std::size_t properties = 0;
  };
  std::vector<DeviceRow> devices;
  struct TrackRow {
    std::string name;
    std::string kind;        // "spans", "memory", "counter"
    std::size_t events = 0;  // spans + instants, buffers, or samples
    std::uint32_t levels = 0;
    double busy_ms = 0;  // spans: time covered by level-0 spans
    double peak = 0;     // memory: bytes; counter: value
  };
  std::vector<TrackRow> tracks;
  struct KernelRow {
    std::string name;  // plain text (ANSI colors stripped)
    std::string device;
    std::size_t runs = 0;  // executions launched (exec events) or device spans
    double total_ms = 0;   // device time, when the device recorded spans
  };
  std::vector<KernelRow> kernels;
  std::size_t buffers = 0;
  double buffer_bytes = 0;  // allocated over the whole profile
  double memory_peak = 0;   // bytes, the largest memory track peak
  std::string memory_peak_track;
  std::size_t markers = 0, graphs = 0, programs = 0, sqtt_blobs = 0, pmc_samples = 0;
  std::uint64_t sqtt_bytes = 0;
  std::vector<std::string> notes;
};

ProfileSummary summarize(const Profile &profile);
void print_summary_text(std::ostream &out, const ProfileSummary &summary);
// One JSON object.
void print_summary_json(std::ostream &out, const ProfileSummary &summary);

}  // namespace wavescope::trace::profile
