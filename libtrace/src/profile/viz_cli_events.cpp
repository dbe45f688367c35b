#include "wavescope/trace/profile/viz_cli_events.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wavescope::trace::profile {
namespace {

using nlohmann::json;

std::string json_string(std::string_view s) { return json(std::string(s)).dump(); }

// The per-dispatch sources VIZ's CLI lists after the tracks: "<kernel>[ nK] PMC" and
// "<kernel>[ nK] SQTT SE:<n> PKTS", one group per (kernel tag, exec tag) in recording order.
std::vector<std::string> dispatch_sources(const Profile &p) {
  struct Dispatch {
    std::uint32_t tag;
    std::uint64_t exec;
    bool pmc = false;
    std::vector<unsigned> itrace_ses;
  };
  // One group per (kernel, exec tag), in the order its first PMC or SQTT event was recorded.
  struct Event {
    std::size_t recorded;
    std::uint32_t tag;
    std::uint64_t exec;
    bool pmc;
    bool itrace;
    unsigned se;
  };
  std::vector<Event> events;
  for (const auto &e : p.pmc)
    events.push_back({e.recorded, e.program_tag, e.exec_tag, true, false, 0});
  for (const auto &e : p.sqtt)
    events.push_back({e.recorded, e.program_tag, e.exec_tag, false, e.itrace, e.se});
  std::stable_sort(events.begin(), events.end(),
                   [](const Event &a, const Event &b) { return a.recorded < b.recorded; });
  std::vector<Dispatch> order;
  for (const auto &e : events) {
    auto it = std::find_if(order.begin(), order.end(),
                           [&](const Dispatch &d) { return d.tag == e.tag && d.exec == e.exec; });
    if (it == order.end()) it = order.insert(order.end(), {e.tag, e.exec, false, {}});
    if (e.pmc)
      it->pmc = true;
    else if (e.itrace)
      it->itrace_ses.push_back(e.se);
  }
  std::map<std::uint32_t, unsigned> runs;
  std::vector<std::string> out;
  for (const auto &d : order) {
    std::string name = fmt::format("kernel {}", d.tag);
    for (const auto &prog : p.programs)
      if (prog.tag == d.tag && prog.device.starts_with("AMD")) name = prog.name;
    const unsigned run = ++runs[d.tag];
    if (run > 1) name += fmt::format(" n{}", run);
    if (d.pmc) out.push_back(name + " PMC");
    for (const auto se : d.itrace_ses) out.push_back(fmt::format("{} SQTT SE:{} PKTS", name, se));
  }
  return out;
}

std::string file_name_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// VIZ's extra fields of a span and its stack lines (viz serve.py timeline_layout, cli.py).
void span_fields(const Profile &p, const Span &s, double dur_us, VizCliEvent &e) {
  const SpanDetails *d = p.details(s);
  if (!d) return;
  const bool tracing_key =
      d->bytes || !d->metadata.empty() || !d->fields.empty() || !d->stack.empty();
  if (!tracing_key) return;
  std::vector<std::pair<std::string, std::string>> fmt_fields;
  std::vector<StackFrame> tb;
  if (!d->fields.empty()) {
    fmt_fields = d->fields;
  } else if (!d->metadata.empty()) {
    fmt_fields.emplace_back("metadata", json_string(d->metadata));
  } else if (d->bytes) {
    const double rate = static_cast<double>(*d->bytes) / (dur_us * 1e-6);
    fmt_fields.emplace_back("B/s", std::to_string(static_cast<std::int64_t>(rate)));
    fmt_fields.emplace_back("B", std::to_string(*d->bytes));
  } else {
    tb = d->stack;
  }
  std::vector<std::string> ext;
  while (!tb.empty()) {
    const StackFrame f = tb.back();
    tb.pop_back();
    const std::string line = fmt::format("{}:{} {}", file_name_of(f.file), f.line, f.function);
    if (!fmt_fields.empty())
      ext.push_back(line + " " + f.code);
    else if (!f.file.starts_with("<") && !f.function.starts_with("<"))
      fmt_fields.emplace_back("loc", json_string(line));
  }
  e.fields = std::move(fmt_fields);
  for (std::size_t i = 0; i < ext.size(); ++i) e.ext += (i ? "\n" : "") + ext[i];
}

}  // namespace

std::vector<VizCliEvent> viz_cli_events(const Profile &p, VizTimes times) {
  std::vector<VizCliEvent> out;
  auto plain = [](VizCliEvent::Kind kind, const char *device, std::string name, double st_ms) {
    VizCliEvent e;
    e.kind = kind;
    e.device = device;
    e.name = std::move(name);
    e.st_ms = st_ms;
    return e;
  };
  for (const auto &t : p.tracks)
    if (t.kind != TrackKind::Spans)
      out.push_back(plain(VizCliEvent::Kind::Source, "SOURCE", t.name, 0));
  for (auto &name : dispatch_sources(p))
    out.push_back(plain(VizCliEvent::Kind::Source, "SOURCE", std::move(name), 0));

  // Spans merged by whole-microsecond start; ties keep track order, then recording order, and
  // markers come after the spans that start in the same microsecond (heapq.merge's stability).
  struct Item {
    Picoseconds start_us;
    std::size_t track;
    std::size_t index;
  };
  std::vector<Item> items;
  for (std::size_t t = 0; t < p.tracks.size(); ++t) {
    if (p.tracks[t].kind != TrackKind::Spans) continue;
    for (std::size_t i = 0; i < p.tracks[t].spans.size(); ++i)
      items.push_back({p.tracks[t].spans[i].start / kPicosPerMicro, t, i});
  }
  for (std::size_t m = 0; m < p.markers.size(); ++m)
    items.push_back({p.markers[m].time / kPicosPerMicro, p.tracks.size(), m});
  std::stable_sort(items.begin(), items.end(), [](const Item &a, const Item &b) {
    return std::tie(a.start_us, a.track) < std::tie(b.start_us, b.track);
  });
  const bool packed = times == VizTimes::Packed;
  for (const auto &item : items) {
    if (item.track == p.tracks.size()) {
      const auto &m = p.markers[item.index];
      out.push_back(plain(VizCliEvent::Kind::Marker, "MARKER", m.name,
                          packed ? static_cast<double>(item.start_us) * 1e-3 : to_ms(m.time)));
      continue;
    }
    const Track &track = p.tracks[item.track];
    const Span &s = track.spans[item.index];
    VizCliEvent e;
    e.device = track.name;
    e.name = std::string(p.str(s.name));
    const double dur_us = static_cast<double>(s.duration()) / 1e6;
    if (packed) {
      e.st_ms = static_cast<double>(item.start_us) * 1e-3;
      e.dur_ms = static_cast<double>(static_cast<float>(dur_us)) * 1e-3;
    } else {
      e.st_ms = to_ms(s.start);
      e.dur_ms = to_ms(s.duration());
    }
    span_fields(p, s, dur_us, e);
    out.push_back(std::move(e));
  }
  return out;
}

void print_viz_cli_json(std::ostream &out, const std::vector<VizCliEvent> &events) {
  for (const auto &e : events) {
    json j;
    j["device"] = e.device;
    j["name"] = e.name;
    if (e.dur_ms) j["dur_ms"] = *e.dur_ms;
    j["st_ms"] = e.st_ms;
    if (e.kind == VizCliEvent::Kind::Span) {
      json fields = json::object();
      for (const auto &[k, v] : e.fields) fields[k] = json::parse(v, nullptr, false);
      j["fmt"] = std::move(fields);
    }
    j["ref"] = nullptr;
    j["ext"] = e.kind == VizCliEvent::Kind::Span ? json(e.ext) : json(nullptr);
    out << j.dump() << '\n';
  }
}

namespace {

// tinygrad's time_to_str: seconds, milliseconds or microseconds, two decimals, width `w`.
std::string time_to_str(double seconds, int w = 9) {
  if (seconds > 10) return fmt::format("{:{}.2f}s ", seconds, w);
  if (seconds > 10e-3) return fmt::format("{:{}.2f}ms", seconds * 1e3, w);
  return fmt::format("{:{}.2f}us", seconds * 1e6, w);
}

std::string field_text(const std::string &key, const std::string &value) {
  const auto v = json::parse(value, nullptr, false);
  if (v.is_string()) return key + " " + v.get<std::string>();
  if (v.is_number() && (key == "FLOPS" || key.starts_with("B/s"))) {
    const double x = v.get<double>();
    return x < 1e13 ? fmt::format("{:.0f} G{}", x * 1e-9, key)
                    : fmt::format("{:.0f} T{}", x * 1e-12, key);
  }
  if (v.is_number() && key == "B") {
    const double x = v.get<double>();
    for (auto [scale, unit] : {std::pair{1e9, "GB"}, {1e6, "MB"}, {1e3, "KB"}})
      if (x >= scale) return fmt::format("{:.0f} {}", x / scale, unit);
    return fmt::format("{:.0f} B", x);
  }
  return key + "=" + value;
}

}  // namespace

void print_viz_cli_text(std::ostream &out, const std::vector<VizCliEvent> &events) {
  for (const auto &e : events) {
    if (e.kind != VizCliEvent::Kind::Span) {
      out << "--- " << e.device << " " << e.name;
      if (e.st_ms != 0) out << fmt::format("/{:9.2f}ms", e.st_ms);
      out << '\n';
      continue;
    }
    const std::string plain = plain_text(e.name);
    const std::string device = e.device.substr(0, 7);
    std::string line = fmt::format("*** {:7s} {}{}", device, e.name,
                                   std::string(plain.size() < 46 ? 46 - plain.size() : 0, ' '));
    line += fmt::format(" tm {}/{:9.2f}ms", time_to_str(e.dur_ms.value_or(0) * 1e-3), e.st_ms);
    if (!e.fields.empty()) {
      line += " (";
      for (std::size_t i = 0; i < e.fields.size(); ++i) {
        const auto part = field_text(e.fields[i].first, e.fields[i].second);
        line += part;
        if (i + 1 < e.fields.size())
          line += std::string(part.size() < 14 ? 14 - part.size() : 0, ' ') + "  ";
      }
      line += ")";
    }
    out << line << '\n';
  }
}

}  // namespace wavescope::trace::profile
