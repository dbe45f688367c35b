// Writing the profile model as Chrome trace-event JSON (see chrome_trace.hpp).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "wavescope/base/atomic_file.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/wave_trace.hpp"

namespace wavescope::trace::profile {
namespace {

// Picoseconds as exact decimal microseconds ("12.5", "-3", "0.000001").
void append_us(std::string &out, Picoseconds t) {
  if (t < 0) {
    out += '-';
    t = -t;
  }
  const auto whole = t / kPicosPerMicro;
  auto frac = t % kPicosPerMicro;
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, whole);
  out.append(buf, r.ptr);
  if (frac) {
    char digits[7] = {'0', '0', '0', '0', '0', '0', 0};
    for (int i = 5; i >= 0; --i, frac /= 10) digits[i] = static_cast<char>('0' + frac % 10);
    int n = 6;
    while (n > 0 && digits[n - 1] == '0') --n;
    out += '.';
    out.append(digits, static_cast<std::size_t>(n));
  }
}

void append_json_string(std::string &out, std::string_view s) {
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    default:
      if (c < 0x20)
        out += fmt::format("\\u{:04x}", c);
      else
        out += ch;
    }
  }
  out += '"';
}

class Writer {
public:
  explicit Writer(const Profile &p) : p_(p) { out_.reserve(1 << 20); }

  ChromeTraceStats stats;

  std::string finish() && {
    out_ += "\n]}\n";
    return std::move(out_);
  }

  void header() {
    out_ += "{\"displayTimeUnit\":";
    append_json_string(out_, p_.display_time_unit.empty() ? "ns" : p_.display_time_unit);
    out_ += ",\"otherData\":{\"source\":";
    append_json_string(out_, p_.source.string());
    out_ += ",\"format\":";
    append_json_string(out_, p_.format);
    out_ += ",\"writer\":\"wavescope\"},\"traceEvents\":[";
  }

  // ---- the profile --------------------------------------------------------------------------
  void profile() {
    // A process per device (in track order), a thread per track and overlap lane.
    for (std::size_t i = 0; i < p_.tracks.size(); ++i) {
      const auto &t = p_.tracks[i];
      const int pid = pid_of(t.device);
      if (t.kind == TrackKind::Spans)
        spans(i, pid);
      else if (t.kind == TrackKind::Memory)
        counter(t.name, pid, t.usage, "bytes");
      else
        counter(t.name, pid, t.samples, "value");
    }
    for (const auto &m : p_.markers) {
      begin_event();
      out_ += "{\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"name\":";
      append_json_string(out_, plain_text(m.name));
      out_ += ",\"ts\":";
      append_us(out_, m.time);
      if (!m.color.empty()) {
        out_ += ",\"args\":{\"color\":";
        append_json_string(out_, m.color);
        out_ += '}';
      }
      out_ += '}';
    }
    // Graph dependencies and imported flows as s/f pairs.
    std::uint64_t flow_id = 1;
    for (const auto &g : p_.graphs)
      for (const auto &[entry, dep] : g.dependencies) {
        if (entry >= g.entries.size() || dep >= g.entries.size()) continue;
        const auto &from = g.entries[dep], &to = g.entries[entry];
        flow(flow_id++, "graph dependency", lane0_of(from.device), from.end, lane0_of(to.device),
             to.start);
      }
    for (const auto &f : p_.flows)
      flow(flow_id++, f.name, lane0_of_track(f.from_track), f.from_time, lane0_of_track(f.to_track),
           f.to_time);
  }

  // ---- a capture: kernels and per-SE wave activity -------------------------------------------
  void capture(const Capture &c) {
    const std::string process =
        "SQTT " + (c.example.empty() ? c.source.filename().string() : c.example);
    const int pid = next_pid_++;
    metadata_process(pid, process);
    // Kernels: a profile has them on its device tracks already; a bare capture gets a thread of
    // its runs on the device clock, from the earliest.
    double first = 0;
    bool any = false;
    for (const auto &prog : c.programs)
      for (const auto &r : prog.exec_ranges) {
        first = any ? std::min(first, r.start_us) : r.start_us;
        any = true;
      }
    if (any && p_.tracks.empty()) {
      const int tid = next_tid_++;
      metadata_thread(pid, tid, "kernels", tid);
      for (const auto &prog : c.programs)
        for (const auto &r : prog.exec_ranges)
          complete(pid, tid, plain_text(prog.name), std::llround((r.start_us - first) * 1e6),
                   std::llround((r.end_us - r.start_us) * 1e6), "");
    }
    // Waves: one thread (and overlap lanes) per blob, shader cycles written as nanoseconds.
    timeline::CaptureAnalyzer analyzer(c);
    for (const auto &blob : c.blobs) {
      timeline::WaveTraceCollector collector(false);
      analyzer.analyze(blob, collector);
      auto waves = collector.take();
      if (waves.empty()) continue;
      std::sort(waves.begin(), waves.end(),
                [](const auto &a, const auto &b) { return a.wave.start < b.wave.start; });
      const std::int64_t origin = waves.front().wave.start;
      const Picoseconds anchor = kernel_start(blob.kernel_tag);
      const std::string thread =
          fmt::format("{} SE{} waves ({})", blob.program, blob.se, blob.file_name);
      std::vector<Span> spans;
      for (const auto &w : waves) {
        Span s;
        s.start = (w.wave.start - origin) * 1000;
        s.end = (w.wave.end - origin) * 1000;
        spans.push_back(s);
      }
      const auto lanes = lanes_of(spans);
      std::vector<int> tids;
      for (std::size_t i = 0; i < waves.size(); ++i) {
        while (tids.size() <= lanes[i]) {
          tids.push_back(next_tid_++);
          metadata_thread(pid, tids.back(), thread, tids.back());
        }
        const auto &w = waves[i].wave;
        complete(pid, tids[lanes[i]], fmt::format("wave cu{} simd{} slot{}", w.cu, w.simd, w.slot),
                 anchor + spans[i].start, spans[i].duration(), "");
        ++stats.waves;
      }
    }
  }

private:
  // Where a dispatch's waves start on the profile's timeline: its kernel span, when the profile
  // has one (waves then sit under their kernel), else 0.
  Picoseconds kernel_start(std::uint32_t tag) const {
    for (const auto &t : p_.tracks)
      for (const auto &s : t.spans)
        if (s.program >= 0 && p_.programs[static_cast<std::size_t>(s.program)].tag == tag)
          return s.start;
    return 0;
  }

  void begin_event() {
    ++stats.events;
    if (!first_) out_ += ",";
    out_ += '\n';
    first_ = false;
  }

  int pid_of(const std::string &device) {
    auto [it, fresh] = pids_.try_emplace(device, 0);
    if (fresh) {
      it->second = next_pid_++;
      metadata_process(it->second, device);
    }
    return it->second;
  }

  void metadata_process(int pid, const std::string &name) {
    begin_event();
    out_ += fmt::format(
        "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":{},\"tid\":0,\"args\":{{\"name\":", pid);
    append_json_string(out_, name);
    out_ += "}}";
    begin_event();
    out_ += fmt::format("{{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":{},\"tid\":0,"
                        "\"args\":{{\"sort_index\":{}}}}}",
                        pid, pid);
  }
  void metadata_thread(int pid, int tid, const std::string &name, int sort) {
    begin_event();
    out_ += fmt::format(
        "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":", pid,
        tid);
    append_json_string(out_, name);
    out_ += "}}";
    begin_event();
    out_ += fmt::format("{{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":{},\"tid\":{},"
                        "\"args\":{{\"sort_index\":{}}}}}",
                        pid, tid, sort);
  }

  // Lanes such that the spans of a lane nest strictly (what one Chrome thread can show).
  static std::vector<std::size_t> lanes_of(const std::vector<Span> &spans) {
    std::vector<std::size_t> lane(spans.size());
    std::vector<std::vector<const Span *>> stacks;
    for (std::size_t i = 0; i < spans.size(); ++i) {
      const Span &s = spans[i];
      std::size_t l = 0;
      for (;; ++l) {
        if (l == stacks.size()) stacks.emplace_back();
        auto &stack = stacks[l];
        while (!stack.empty() && stack.back()->end <= s.start) stack.pop_back();
        if (stack.empty() || (stack.back()->start <= s.start && s.end <= stack.back()->end)) break;
      }
      stacks[l].push_back(&s);
      lane[i] = l;
    }
    return lane;
  }

  void complete(int pid, int tid, std::string_view name, Picoseconds ts, Picoseconds dur,
                std::string_view args) {
    begin_event();
    out_ += "{\"ph\":\"X\",\"name\":";
    append_json_string(out_, name);
    out_ += ",\"ts\":";
    append_us(out_, ts);
    out_ += ",\"dur\":";
    append_us(out_, dur);
    out_ += ",\"pid\":";
    out_ += std::to_string(pid);
    out_ += ",\"tid\":";
    out_ += std::to_string(tid);
    out_ += args;
    out_ += '}';
  }

  std::string args_of(const Span &s) const {
    const SpanDetails *d = p_.details(s);
    std::string out;
    auto field = [&](std::string_view key, const std::string &json_value) {
      out += out.empty() ? ",\"args\":{" : ",";
      append_json_string(out, key);
      out += ':';
      out += json_value;
    };
    if (s.program >= 0) {
      std::string v;
      append_json_string(v, plain_text(p_.programs[static_cast<std::size_t>(s.program)].name));
      field("program", v);
    }
    if (d) {
      if (d->exec) field("exec", std::to_string(*d->exec));
      if (d->bytes) field("bytes", std::to_string(*d->bytes));
      if (!d->metadata.empty()) {
        std::string v;
        append_json_string(v, d->metadata);
        field("metadata", v);
      }
      for (const auto &[k, v] : d->fields) field(k, v);
      if (!d->profile_key.empty()) {
        std::string v;
        append_json_string(v, d->profile_key);
        field("profile_key", v);
      }
      if (!d->stack.empty()) {
        const auto &f = d->stack.back();
        std::string v;
        append_json_string(v, fmt::format("{}:{} {}", f.file, f.line, f.function));
        field("location", v);
      }
    }
    if (!out.empty()) out += '}';
    if (d && !d->category.empty()) {
      out += ",\"cat\":";
      append_json_string(out, d->category);
    }
    return out;
  }

  void spans(std::size_t index, int pid) {
    const Track &t = p_.tracks[index];
    const auto lanes = lanes_of(t.spans);
    auto &tids = track_tids_[index];
    auto tid_of = [&](std::size_t lane) {
      while (tids.size() <= lane) {
        tids.push_back(next_tid_++);
        metadata_thread(pid, tids.back(), t.name, tids.back());
      }
      return tids[lane];
    };
    tid_of(0);
    for (std::size_t i = 0; i < t.spans.size(); ++i) {
      const Span &s = t.spans[i];
      complete(pid, tid_of(lanes[i]), plain_text(p_.str(s.name)), s.start, s.duration(),
               args_of(s));
      ++stats.spans;
    }
    for (const auto &in : t.instants) {
      begin_event();
      out_ += "{\"ph\":\"i\",\"s\":\"t\",\"name\":";
      append_json_string(out_, plain_text(p_.str(in.name)));
      out_ += ",\"ts\":";
      append_us(out_, in.time);
      out_ += fmt::format(",\"pid\":{},\"tid\":{}}}", pid, tids[0]);
      ++stats.instants;
    }
    track_pid_[index] = pid;
  }

  void counter(const std::string &name, int pid, const std::vector<CounterSample> &samples,
               const char *key) {
    for (const auto &s : samples) {
      begin_event();
      out_ += "{\"ph\":\"C\",\"name\":";
      append_json_string(out_, name);
      out_ += ",\"ts\":";
      append_us(out_, s.time);
      out_ += fmt::format(",\"pid\":{},\"tid\":0,\"args\":{{\"{}\":{}}}}}", pid, key, s.value);
      ++stats.counter_samples;
    }
  }

  std::pair<int, int> lane0_of_track(std::size_t track) const {
    auto pid = track_pid_.find(track);
    auto tids = track_tids_.find(track);
    if (pid == track_pid_.end() || tids == track_tids_.end() || tids->second.empty())
      return {-1, -1};
    return {pid->second, tids->second[0]};
  }
  std::pair<int, int> lane0_of(const std::string &device) const {
    for (std::size_t i = 0; i < p_.tracks.size(); ++i)
      if (p_.tracks[i].name == device && p_.tracks[i].kind == TrackKind::Spans)
        return lane0_of_track(i);
    return {-1, -1};
  }
  void flow(std::uint64_t id, std::string_view name, std::pair<int, int> from,
            Picoseconds from_time, std::pair<int, int> to, Picoseconds to_time) {
    if (from.first < 0 || to.first < 0) return;
    ++stats.flows;
    for (const auto &[phase, where, ts] :
         {std::tuple{'s', from, from_time}, std::tuple{'f', to, to_time}}) {
      begin_event();
      out_ += fmt::format("{{\"ph\":\"{}\",\"id\":{},\"cat\":\"flow\",\"name\":", phase, id);
      append_json_string(out_, name);
      out_ += ",\"ts\":";
      append_us(out_, ts);
      out_ += fmt::format(",\"pid\":{},\"tid\":{}{}}}", where.first, where.second,
                          phase == 'f' ? ",\"bp\":\"e\"" : "");
    }
  }

  const Profile &p_;
  std::string out_;
  bool first_ = true;
  int next_pid_ = 1, next_tid_ = 1;
  std::map<std::string, int> pids_;
  std::map<std::size_t, std::vector<int>> track_tids_;
  std::map<std::size_t, int> track_pid_;
};

}  // namespace

std::string chrome_trace_json(const Profile &profile, const ChromeTraceOptions &options,
                              ChromeTraceStats *stats) {
  Writer w(profile);
  w.header();
  w.profile();
  if (options.capture) w.capture(*options.capture);
  if (stats) *stats = w.stats;
  return std::move(w).finish();
}

ChromeTraceStats write_chrome_trace(const Profile &profile, const std::filesystem::path &out,
                                    const ChromeTraceOptions &options) {
  ChromeTraceStats stats;
  const auto json = chrome_trace_json(profile, options, &stats);
  write_file_atomically(out, json);
  return stats;
}

void print_export_text(std::ostream &out, const std::filesystem::path &file,
                       const ChromeTraceStats &s) {
  out << fmt::format("{}: {} trace events ({} spans, {} instants, {} counter samples, {} flows, "
                     "{} waves); open it in Perfetto (ui.perfetto.dev) or chrome://tracing\n",
                     file.string(), s.events, s.spans, s.instants, s.counter_samples, s.flows,
                     s.waves);
}

void print_export_json(std::ostream &out, const std::filesystem::path &file,
                       const ChromeTraceStats &s) {
  out << fmt::format("{{\"output\":\"{}\",\"events\":{},\"spans\":{},\"instants\":{},"
                     "\"counter_samples\":{},\"flows\":{},\"waves\":{}}}\n",
                     file.string(), s.events, s.spans, s.instants, s.counter_samples, s.flows,
                     s.waves);
}

}  // namespace wavescope::trace::profile
