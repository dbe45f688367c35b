// Reading Chrome trace-event JSON into the profile model (see chrome_trace.hpp).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <unordered_map>

#include <sys/mman.h>

#include <fmt/format.h>

#include "json_cursor.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/mapped_file.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"
#include "wavescope/trace/profile/profile_builder.hpp"

namespace wavescope::trace::profile {
namespace {

using detail::JsonCursor;

// A JSON number as exact microseconds: sign, whole part, picoseconds. Falls back to a double for
// numbers too long for that (it is still a time to the nearest picosecond or so).
struct Micros {
  bool negative = false;
  std::int64_t whole = 0;
  std::int64_t ps = 0;
};

bool parse_micros(std::string_view text, Micros &out) {
  Micros m;
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) m.negative = text[i++] == '-';
  int int_digits = 0, frac_digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++int_digits) {
    if (int_digits >= 17) return false;
    m.whole = m.whole * 10 + (text[i] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++frac_digits)
      if (frac_digits < 6) m.ps = m.ps * 10 + (text[i] - '0');
  }
  if (int_digits + frac_digits == 0) return false;
  for (int k = frac_digits; k < 6; ++k) m.ps *= 10;
  if (i != text.size()) return false;  // an exponent: the slow way
  out = m;
  return true;
}

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
};

class ChromeReader {
public:
  ChromeReader(std::span<const std::uint8_t> bytes, const std::filesystem::path &source)
      : c_(reinterpret_cast<const char *>(bytes.data()),
           reinterpret_cast<const char *>(bytes.data()) + bytes.size(), source.string()) {
    profile_.source = source;
    profile_.format = "Chrome trace JSON";
  }

  // Called with how far the cursor got, so the caller may release pages behind it.
  std::function<void(const char *)> progress;

  Profile read() {
    const char first = c_.peek();
    if (first == '[') {
      read_events();
    } else if (first == '{') {
      read_object();
    } else {
      c_.fail("a trace is a JSON object or array");
    }
    if (!c_.at_end()) c_.fail("unexpected text after the trace");
    return finish();
  }

private:
  struct Thread {
    std::int64_t pid = 0, tid = 0;
    std::vector<Span> spans;
    std::vector<Instant> instants;
    struct Open {
      StringId name;
      Picoseconds start;
      std::int32_t details;
    };
    std::vector<Open> open;
  };
  struct Process {
    std::string name;
    std::int64_t sort = 0;
    bool has_sort = false;
  };
  struct ThreadMeta {
    std::string name;
    std::int64_t sort = 0;
    bool has_sort = false;
  };
  struct FlowPoint {
    std::size_t thread;
    Picoseconds time;
  };

  void read_object() {
    c_.expect('{');
    bool saw_events = false;
    if (c_.consume('}')) c_.fail("the trace object has no \"traceEvents\"");
    do {
      const std::string key(c_.string(scratch_key_));
      c_.expect(':');
      if (key == "traceEvents") {
        read_events();
        saw_events = true;
      } else if (key == "displayTimeUnit") {
        if (c_.peek() == '"')
          profile_.display_time_unit = std::string(c_.string(scratch_));
        else
          c_.skip_value();
      } else {
        c_.skip_value();
      }
    } while (c_.consume(','));
    c_.expect('}');
    if (!saw_events) c_.fail("the trace object has no \"traceEvents\"");
  }

  void read_events() {
    c_.expect('[');
    if (c_.consume(']')) return;
    for (;;) {
      if (c_.at_end()) {
        profile_.notes.push_back("the event array is not closed (allowed by the format)");
        return;
      }
      read_event();
      if ((++events_ & 0xFFFF) == 0 && progress) progress(c_.position());
      if (c_.consume(',')) {
        if (c_.at_end()) {
          profile_.notes.push_back("the event array is not closed (allowed by the format)");
          return;
        }
        if (c_.peek() == ']') break;  // a trailing comma
        continue;
      }
      break;
    }
    if (c_.at_end()) {
      profile_.notes.push_back("the event array is not closed (allowed by the format)");
      return;
    }
    c_.expect(']');
  }

  // ---- one event ----------------------------------------------------------------------------
  std::int64_t id_value(const char *what) {
    const char k = c_.peek();
    if (k == '"') {
      const std::string s(c_.string(scratch_));
      auto [it, fresh] =
          string_ids_.try_emplace(s, -1 - static_cast<std::int64_t>(string_ids_.size()));
      return it->second;
    }
    const auto text = c_.number();
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || p != text.data() + text.size()) {
      double d = 0;
      std::from_chars(text.data(), text.data() + text.size(), d);
      if (!(d == d)) c_.fail(fmt::format("\"{}\" is not a number", what));
      v = static_cast<std::int64_t>(d);
    }
    return v;
  }

  // A timestamp in picoseconds from the reader's reference microsecond.
  Picoseconds time_value(std::uint64_t at, bool is_duration) {
    const auto text = c_.number();
    Micros m;
    if (!parse_micros(text, m)) {
      double d = 0;
      const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
      if (ec != std::errc() || !(std::abs(d) < 9e15))
        c_.fail_at(at, fmt::format("\"{}\" is not a usable time", text));
      m.negative = d < 0;
      const double a = std::abs(d);
      m.whole = static_cast<std::int64_t>(a);
      m.ps = static_cast<std::int64_t>((a - static_cast<double>(m.whole)) * 1e6 + 0.5);
    }
    const std::int64_t whole = m.negative ? -m.whole : m.whole;
    const std::int64_t ps = m.negative ? -m.ps : m.ps;
    if (is_duration) {
      if (m.whole > 9'000'000'000'000) c_.fail_at(at, "a duration over 100 days");
      return whole * kPicosPerMicro + ps;
    }
    if (!have_reference_) {
      reference_ = whole;
      have_reference_ = true;
    }
    const std::int64_t rel = whole - reference_;
    if (rel > 9'000'000'000'000 || rel < -9'000'000'000'000)
      c_.fail_at(at, "a timestamp more than 100 days from the trace's first one");
    return rel * kPicosPerMicro + ps;
  }

  StringId intern(std::string_view s) {
    if (auto it = interned_.find(s); it != interned_.end()) return it->second;
    const auto id = static_cast<StringId>(profile_.strings.size());
    profile_.strings.emplace_back(s);
    interned_.emplace(std::string(s), id);
    return id;
  }

  std::size_t thread_index(std::int64_t pid, std::int64_t tid) {
    const auto key = std::pair{pid, tid};
    if (last_thread_ < threads_.size() && threads_[last_thread_].pid == pid &&
        threads_[last_thread_].tid == tid)
      return last_thread_;
    auto [it, fresh] = thread_of_.try_emplace(key, threads_.size());
    if (fresh) {
      threads_.emplace_back();
      threads_.back().pid = pid;
      threads_.back().tid = tid;
    }
    last_thread_ = it->second;
    return it->second;
  }

  // The fields of an "args" object: key and the value's JSON text.
  std::vector<std::pair<std::string, std::string>> args_fields(std::string_view args) {
    std::vector<std::pair<std::string, std::string>> out;
    JsonCursor a(args.data(), args.data() + args.size(), "args");
    a.expect('{');
    if (a.consume('}')) return out;
    std::string scratch;
    do {
      std::string key(a.string(scratch));
      a.expect(':');
      out.emplace_back(std::move(key), std::string(a.skip_value()));
    } while (a.consume(','));
    return out;
  }
  static std::string unquote(const std::string &json_text) {
    std::string scratch;
    JsonCursor v(json_text.data(), json_text.data() + json_text.size(), "value");
    if (v.peek() == '"') return std::string(v.string(scratch));
    return json_text;
  }

  void read_event() {
    const std::uint64_t at = c_.offset();
    c_.expect('{');
    std::string_view name, ph, cat, scope, args, id_text;
    bool has_ts = false, has_dur = false, has_pid = false, has_tid = false;
    Picoseconds ts = 0, dur = 0;
    std::int64_t pid = 0, tid = 0;
    if (!c_.consume('}')) {
      do {
        const auto key = c_.string(scratch_key_);
        c_.expect(':');
        // Keys by length then text: the hot path is a few compares.
        if (key == "name") {
          name = c_.peek() == '"' ? c_.string(scratch_name_) : c_.skip_value();
        } else if (key == "ph") {
          ph = c_.string(scratch_ph_);
        } else if (key == "ts") {
          ts = time_value(at, false);
          has_ts = true;
        } else if (key == "dur") {
          dur = time_value(at, true);
          has_dur = true;
        } else if (key == "pid") {
          pid = id_value("pid");
          has_pid = true;
        } else if (key == "tid") {
          tid = id_value("tid");
          has_tid = true;
        } else if (key == "cat") {
          cat = c_.peek() == '"' ? c_.string(scratch_cat_) : c_.skip_value();
        } else if (key == "args") {
          args = c_.skip_value();
        } else if (key == "s") {
          scope = c_.peek() == '"' ? c_.string(scratch_scope_) : c_.skip_value();
        } else if (key == "id" || key == "id2") {
          id_text = c_.peek() == '"' ? c_.string(scratch_id_) : c_.skip_value();
          id_copy_ = std::string(id_text);
          id_text = id_copy_;
        } else {
          c_.skip_value();
        }
      } while (c_.consume(','));
      c_.expect('}');
    }
    (void)has_pid;
    (void)has_tid;
    if (ph.empty()) {
      ++skipped_["events without \"ph\""];
      return;
    }
    const char phase = ph[0];
    if (phase == 'M') return metadata(name, pid, tid, args);
    if (!has_ts) {
      ++skipped_[fmt::format("\"{}\" events without \"ts\"", ph)];
      return;
    }
    note_time(ts);
    switch (phase) {
    case 'X': {
      if (!has_dur) dur = 0;
      if (dur < 0) {
        ++skipped_["X events with a negative duration"];
        return;
      }
      auto &t = threads_[thread_index(pid, tid)];
      t.spans.push_back({ts, ts + dur, intern(name), 0, -1, details_of(cat, args)});
      note_time(ts + dur);
      return;
    }
    case 'B': {
      auto &t = threads_[thread_index(pid, tid)];
      t.open.push_back({intern(name), ts, details_of(cat, args)});
      return;
    }
    case 'E': {
      auto &t = threads_[thread_index(pid, tid)];
      if (t.open.empty()) {
        ++skipped_["E events without a B"];
        return;
      }
      const auto o = t.open.back();
      t.open.pop_back();
      t.spans.push_back({o.start, ts, o.name, 0, -1, o.details});
      return;
    }
    case 'i':
    case 'I': {
      if (scope == "g" || scope == "p") {
        Marker m;
        m.time = ts;
        m.name = std::string(name);
        if (!args.empty())
          for (const auto &[k, v] : args_fields(args))
            if (k == "color") m.color = unquote(v);
        markers_.push_back(std::move(m));
        return;
      }
      threads_[thread_index(pid, tid)].instants.push_back(
          {ts, intern(name), details_of(cat, args)});
      return;
    }
    case 'C': {
      if (args.empty()) return;
      const auto fields = args_fields(args);
      for (const auto &[k, v] : fields) {
        double value = 0;
        const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
        if (ec != std::errc() || p != v.data() + v.size()) continue;
        const std::string series =
            fields.size() == 1 ? std::string(name) : fmt::format("{} {}", name, k);
        counters_[{pid, series}].push_back({ts, value});
      }
      return;
    }
    case 's':
    case 't':
    case 'f': {
      const std::string key = fmt::format("{}\x1f{}", cat, id_text);
      const std::size_t thread = thread_index(pid, tid);
      auto it = open_flows_.find(key);
      if (phase != 's' && it != open_flows_.end()) {
        flows_.push_back(
            {it->second, {thread, ts}, std::string(name.empty() ? cat : name), flow_ids_[key]});
      }
      if (phase == 'f') {
        if (it != open_flows_.end()) open_flows_.erase(it);
      } else {
        open_flows_[key] = {thread, ts};
        if (phase == 's') flow_ids_[key] = next_flow_id_++;
      }
      return;
    }
    default: ++skipped_[fmt::format("\"{}\" events", ph)];
    }
  }

  std::int32_t details_of(std::string_view cat, std::string_view args) {
    const bool has_args = args.size() > 2;
    if (cat.empty() && !has_args) return -1;
    SpanDetails d;
    d.category = std::string(cat);
    if (has_args) d.fields = args_fields(args);
    profile_.span_details.push_back(std::move(d));
    return static_cast<std::int32_t>(profile_.span_details.size() - 1);
  }

  void metadata(std::string_view name, std::int64_t pid, std::int64_t tid, std::string_view args) {
    if (args.empty()) return;
    const auto fields = args_fields(args);
    auto field = [&](const char *key) -> const std::string * {
      for (const auto &[k, v] : fields)
        if (k == key) return &v;
      return nullptr;
    };
    auto number = [](const std::string &text, std::int64_t &out) {
      const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
      return ec == std::errc() && p == text.data() + text.size();
    };
    if (name == "process_name") {
      if (const auto *v = field("name")) processes_[pid].name = unquote(*v);
    } else if (name == "thread_name") {
      if (const auto *v = field("name")) thread_meta_[{pid, tid}].name = unquote(*v);
    } else if (name == "process_sort_index") {
      if (const auto *v = field("sort_index"))
        processes_[pid].has_sort = number(*v, processes_[pid].sort);
    } else if (name == "thread_sort_index") {
      auto &m = thread_meta_[{pid, tid}];
      if (const auto *v = field("sort_index")) m.has_sort = number(*v, m.sort);
    }
  }

  void note_time(Picoseconds t) {
    if (!any_time_) {
      earliest_ = latest_ = t;
      any_time_ = true;
    }
    earliest_ = std::min(earliest_, t);
    latest_ = std::max(latest_, t);
  }

  // ---- assembling the profile ---------------------------------------------------------------
  Profile finish() {
    Profile &p = profile_;
    std::size_t unclosed = 0;
    for (auto &t : threads_) {
      for (const auto &o : t.open) t.spans.push_back({o.start, latest_, o.name, 0, -1, o.details});
      unclosed += t.open.size();
      t.open.clear();
    }
    if (unclosed)
      p.notes.push_back(fmt::format("{} B event{} never ended; closed at the trace's end", unclosed,
                                    unclosed == 1 ? "" : "s"));
    for (const auto &[what, count] : skipped_)
      p.notes.push_back(fmt::format("{} {} skipped", count, what));

    // The origin: the earliest time, down to a whole microsecond.
    Picoseconds origin = 0;
    if (any_time_) {
      Picoseconds q = earliest_ / kPicosPerMicro;
      if (earliest_ % kPicosPerMicro != 0 && earliest_ < 0) --q;
      origin = q * kPicosPerMicro;
    }
    p.duration = any_time_ ? latest_ - origin : 0;

    // Tracks: threads grouped by (process name, thread name), processes in sort order.
    auto process_name = [&](std::int64_t pid) {
      auto it = processes_.find(pid);
      return it != processes_.end() && !it->second.name.empty() ? it->second.name
                                                                : fmt::format("process {}", pid);
    };
    std::map<std::int64_t, std::size_t> threads_per_process;
    for (const auto &t : threads_) ++threads_per_process[t.pid];
    struct Group {
      std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t> order;
      std::string device, name;
      std::vector<std::size_t> threads;
    };
    std::vector<Group> groups;
    std::map<std::pair<std::string, std::string>, std::size_t> group_of;
    for (std::size_t i = 0; i < threads_.size(); ++i) {
      const auto &t = threads_[i];
      if (t.spans.empty() && t.instants.empty()) continue;
      const auto meta = thread_meta_.find({t.pid, t.tid});
      const std::string device = process_name(t.pid);
      std::string name;
      if (meta != thread_meta_.end() && !meta->second.name.empty())
        name = meta->second.name;
      else if (threads_per_process[t.pid] == 1)
        name = device;
      else
        name = fmt::format("{} {}", device, t.tid);
      const auto key = std::pair{device, name};
      auto [it, fresh] = group_of.try_emplace(key, groups.size());
      if (fresh) {
        const auto proc = processes_.find(t.pid);
        const std::int64_t psort =
            proc != processes_.end() && proc->second.has_sort ? proc->second.sort : t.pid;
        const std::int64_t tsort =
            meta != thread_meta_.end() && meta->second.has_sort ? meta->second.sort : t.tid;
        groups.push_back({{psort, t.pid, tsort, t.tid}, device, name, {}});
      }
      groups[it->second].threads.push_back(i);
    }
    // Counters sort after their process's threads.
    for (auto &[key, samples] : counters_) {
      const auto proc = processes_.find(key.first);
      const std::int64_t psort =
          proc != processes_.end() && proc->second.has_sort ? proc->second.sort : key.first;
      Group g{{psort, key.first, std::numeric_limits<std::int64_t>::max(), 0},
              process_name(key.first),
              key.second,
              {}};
      groups.push_back(std::move(g));
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const Group &a, const Group &b) { return a.order < b.order; });
    // Names must be unique across tracks.
    std::map<std::string, std::size_t> uses;
    for (const auto &g : groups) ++uses[g.name];

    for (const auto &g : groups) {
      Track t;
      t.device = g.device;
      t.name =
          uses[g.name] > 1 && g.name != g.device ? fmt::format("{}/{}", g.device, g.name) : g.name;
      if (g.threads.empty()) {
        t.kind = TrackKind::Counter;
        auto &samples = counters_.at({std::get<1>(g.order), g.name});
        std::stable_sort(
            samples.begin(), samples.end(),
            [](const CounterSample &a, const CounterSample &b) { return a.time < b.time; });
        for (auto &s : samples) s.time -= origin;
        for (const auto &s : samples) t.peak = std::max(t.peak, s.value);
        t.samples = std::move(samples);
      } else {
        for (const auto i : g.threads) {
          auto &th = threads_[i];
          for (auto &s : th.spans) s.start -= origin, s.end -= origin;
          for (auto &s : th.instants) s.time -= origin;
          if (t.spans.empty())
            t.spans = std::move(th.spans);
          else
            t.spans.insert(t.spans.end(), th.spans.begin(), th.spans.end());
          t.instants.insert(t.instants.end(), th.instants.begin(), th.instants.end());
          th.spans = {};
          thread_track_[i] = p.tracks.size();
        }
        sort_and_stack(t);
        std::stable_sort(t.instants.begin(), t.instants.end(),
                         [](const Instant &a, const Instant &b) { return a.time < b.time; });
      }
      p.tracks.push_back(std::move(t));
    }
    for (auto &m : markers_) m.time -= origin;
    std::stable_sort(markers_.begin(), markers_.end(),
                     [](const Marker &a, const Marker &b) { return a.time < b.time; });
    p.markers = std::move(markers_);
    for (const auto &f : flows_) {
      const auto from = thread_track_.find(f.from.thread), to = thread_track_.find(f.to.thread);
      if (from == thread_track_.end() || to == thread_track_.end()) continue;
      p.flows.push_back(
          {f.id, f.name, from->second, to->second, f.from.time - origin, f.to.time - origin});
    }
    // Devices: one per process, in track order.
    for (const auto &t : p.tracks)
      if (!p.device(t.device)) {
        Device d;
        d.name = t.device;
        p.devices.push_back(std::move(d));
      }
    return std::move(p);
  }

  struct PendingFlow {
    FlowPoint from, to;
    std::string name;
    std::uint64_t id;
  };

  JsonCursor c_;
  Profile profile_;
  std::string scratch_, scratch_key_, scratch_name_, scratch_ph_, scratch_cat_, scratch_scope_,
      scratch_id_, id_copy_;
  std::unordered_map<std::string, StringId, StringHash, std::equal_to<>> interned_;
  std::map<std::string, std::int64_t> string_ids_;
  std::vector<Thread> threads_;
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> thread_of_;
  std::size_t last_thread_ = static_cast<std::size_t>(-1);
  std::map<std::int64_t, Process> processes_;
  std::map<std::pair<std::int64_t, std::int64_t>, ThreadMeta> thread_meta_;
  std::map<std::pair<std::int64_t, std::string>, std::vector<CounterSample>> counters_;
  std::vector<Marker> markers_;
  std::map<std::string, FlowPoint> open_flows_;
  std::map<std::string, std::uint64_t> flow_ids_;
  std::uint64_t next_flow_id_ = 1;
  std::vector<PendingFlow> flows_;
  std::map<std::size_t, std::size_t> thread_track_;
  std::map<std::string, std::size_t> skipped_;
  bool have_reference_ = false, any_time_ = false;
  std::int64_t reference_ = 0;
  Picoseconds earliest_ = 0, latest_ = 0;
  std::uint64_t events_ = 0;
};

}  // namespace

bool looks_like_json(std::span<const std::uint8_t> head) {
  for (const auto b : head) {
    if (b == ' ' || b == '\n' || b == '\r' || b == '\t') continue;
    return b == '{' || b == '[';
  }
  return false;
}

Profile parse_chrome_trace(std::span<const std::uint8_t> json,
                           const std::filesystem::path &source) {
  return ChromeReader(json, source).read();
}

Profile read_chrome_trace(const std::filesystem::path &path) {
  const auto file = MappedFile::open(path);
  const auto bytes = file->bytes();
  ChromeReader reader(bytes, path);
  // Release the pages already read: the model keeps copies of what it needs, so the file need
  // not stay resident (peak memory is the model, not the model plus the file).
  const char *base = reinterpret_cast<const char *>(bytes.data());
  std::size_t released = 0;
  const std::size_t page = 1 << 12, step = std::size_t{64} << 20;
  reader.progress = [&](const char *at) {
    const std::size_t done = static_cast<std::size_t>(at - base) / page * page;
    if (done >= released + step) {
      ::madvise(const_cast<char *>(base) + released, done - released, MADV_DONTNEED);
      released = done;
    }
  };
  if (!bytes.empty())
    ::madvise(const_cast<std::uint8_t *>(bytes.data()), bytes.size(), MADV_SEQUENTIAL);
  return reader.read();
}

}  // namespace wavescope::trace::profile
