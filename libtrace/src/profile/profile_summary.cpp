#include "wavescope/trace/profile/profile_summary.hpp"

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/compiler/isa/gpu_target.hpp"

namespace wavescope::trace::profile {
namespace {

const char *kind_name(TrackKind k) {
  switch (k) {
  case TrackKind::Spans: return "spans";
  case TrackKind::Memory: return "memory";
  case TrackKind::Counter: return "counter";
  }
  return "?";
}

std::string bytes_text(double bytes) {
  for (auto [scale, unit] :
       {std::pair{double(1 << 30), "GiB"}, {double(1 << 20), "MiB"}, {double(1 << 10), "KiB"}})
    if (bytes >= scale) return fmt::format("{:.2f} {}", bytes / scale, unit);
  return fmt::format("{:.0f} B", bytes);
}

// A kernel's name as a table shows it: no colors, no padding.
std::string kernel_name(std::string_view name) {
  std::string s = plain_text(name);
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

}  // namespace

ProfileSummary summarize(const Profile &p) {
  ProfileSummary s;
  s.source = p.source.string();
  s.format = p.format;
  s.duration_ms = to_ms(p.duration);
  for (const auto &d : p.devices)
    s.devices.push_back({d.name, to_us(d.clock_offset),
                         d.gfx_target_version ? compiler::isa::processor_from_gfx_target_version(
                                                    d.gfx_target_version)
                                              : std::string(),
                         d.properties.size()});
  for (const auto &t : p.tracks) {
    ProfileSummary::TrackRow row;
    row.name = t.name;
    row.kind = kind_name(t.kind);
    row.levels = t.levels;
    if (t.kind == TrackKind::Spans) {
      row.events = t.spans.size() + t.instants.size();
      for (const auto &span : t.spans)
        if (span.depth == 0) row.busy_ms += to_ms(span.duration());
    } else if (t.kind == TrackKind::Memory) {
      row.events = t.buffers.size();
      row.peak = t.peak;
      s.buffers += t.buffers.size();
      for (const auto &b : t.buffers) s.buffer_bytes += static_cast<double>(b.bytes());
      if (t.peak > s.memory_peak) {
        s.memory_peak = t.peak;
        s.memory_peak_track = t.name;
      }
    } else {
      row.events = t.samples.size();
      row.peak = t.peak;
    }
    s.tracks.push_back(std::move(row));
  }
  // Kernels: what the host launched (exec events), and what devices ran (spans of programs).
  std::map<std::pair<std::string, std::string>, ProfileSummary::KernelRow> kernels;
  std::vector<std::pair<std::string, std::string>> order;
  auto row = [&](const std::string &name,
                 const std::string &device) -> ProfileSummary::KernelRow & {
    auto key = std::pair{name, device};
    auto [it, fresh] = kernels.try_emplace(key);
    if (fresh) {
      it->second.name = name;
      it->second.device = device;
      order.push_back(key);
    }
    return it->second;
  };
  for (const auto &x : p.executions) ++row(kernel_name(x.name), x.device).runs;
  for (const auto &t : p.tracks)
    for (const auto &span : t.spans)
      if (span.program >= 0) {
        auto &r =
            row(kernel_name(p.programs[static_cast<std::size_t>(span.program)].name), t.device);
        r.total_ms += to_ms(span.duration());
        if (p.executions.empty()) ++r.runs;
      }
  for (const auto &k : order) s.kernels.push_back(kernels[k]);
  s.markers = p.markers.size();
  s.graphs = p.graphs.size();
  s.programs = p.programs.size();
  s.sqtt_blobs = p.sqtt.size();
  for (const auto &t : p.sqtt) s.sqtt_bytes += t.blob.size();
  s.pmc_samples = p.pmc.size();
  s.notes = p.notes;
  return s;
}

void print_summary_text(std::ostream &out, const ProfileSummary &s) {
  out << fmt::format("{}: {}, {:.3f} ms\n", s.source, s.format, s.duration_ms);
  out << fmt::format("\ndevices ({}):\n", s.devices.size());
  for (const auto &d : s.devices)
    out << fmt::format("  {:<16} clock offset {:.3f} us{}\n", d.name, d.clock_offset_us,
                       d.processor.empty() ? "" : ", " + d.processor);
  out << fmt::format("\ntracks ({}):\n", s.tracks.size());
  for (const auto &t : s.tracks) {
    if (t.kind == "spans")
      out << fmt::format("  {:<20} {:>7} spans  {:>3} levels  busy {:.3f} ms\n", t.name, t.events,
                         t.levels, t.busy_ms);
    else if (t.kind == "memory")
      out << fmt::format("  {:<20} {:>7} buffers, peak {}\n", t.name, t.events, bytes_text(t.peak));
    else
      out << fmt::format("  {:<20} {:>7} samples, peak {}\n", t.name, t.events, t.peak);
  }
  out << fmt::format("\nkernels ({}):\n", s.kernels.size());
  for (const auto &k : s.kernels)
    out << fmt::format("  {:<40} {:<12} {:>5} runs{}\n", k.name, k.device, k.runs,
                       k.total_ms > 0 ? fmt::format("  {:.3f} ms on device", k.total_ms) : "");
  out << fmt::format("\nbuffers: {} ({} allocated); memory peak {}{}\n", s.buffers,
                     bytes_text(s.buffer_bytes), bytes_text(s.memory_peak),
                     s.memory_peak_track.empty() ? "" : " on " + s.memory_peak_track);
  out << fmt::format("markers {}, graph batches {}, programs {}, SQTT blobs {} ({}), PMC samples "
                     "{}\n",
                     s.markers, s.graphs, s.programs, s.sqtt_blobs,
                     bytes_text(static_cast<double>(s.sqtt_bytes)), s.pmc_samples);
  if (s.sqtt_blobs || s.pmc_samples)
    out << "(a capture: wavectl sqtt waves|insts|stats|timeline and wavectl pmc open it)\n";
  for (const auto &n : s.notes) out << "note: " << n << '\n';
}

void print_summary_json(std::ostream &out, const ProfileSummary &s) {
  using nlohmann::json;
  json j;
  j["source"] = s.source;
  j["format"] = s.format;
  j["duration_ms"] = s.duration_ms;
  for (const auto &d : s.devices)
    j["devices"].push_back({{"name", d.name},
                            {"clock_offset_us", d.clock_offset_us},
                            {"processor", d.processor.empty() ? json(nullptr) : json(d.processor)},
                            {"properties", d.properties}});
  for (const auto &t : s.tracks) {
    json r = {{"name", t.name}, {"kind", t.kind}, {"events", t.events}};
    if (t.kind == "spans")
      r["levels"] = t.levels, r["busy_ms"] = t.busy_ms;
    else
      r["peak"] = t.peak;
    j["tracks"].push_back(std::move(r));
  }
  j["kernels"] = json::array();
  for (const auto &k : s.kernels)
    j["kernels"].push_back(
        {{"name", k.name}, {"device", k.device}, {"runs", k.runs}, {"total_ms", k.total_ms}});
  j["buffers"] = s.buffers;
  j["buffer_bytes"] = s.buffer_bytes;
  j["memory_peak"] = s.memory_peak;
  j["memory_peak_track"] = s.memory_peak_track;
  j["markers"] = s.markers;
  j["graphs"] = s.graphs;
  j["programs"] = s.programs;
  j["sqtt_blobs"] = s.sqtt_blobs;
  j["sqtt_bytes"] = s.sqtt_bytes;
  j["pmc_samples"] = s.pmc_samples;
  j["notes"] = s.notes;
  out << j.dump() << '\n';
}

}  // namespace wavescope::trace::profile
