#include "wavescope/trace/profile/tinygrad_profile.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/base/mapped_file.hpp"
#include "wavescope/trace/profile/profile_builder.hpp"

namespace wavescope::trace::profile {
namespace {

using pickle::Kind;
using pickle::Value;

// A Python decimal.Decimal's text as sign, whole microseconds and picoseconds (digits past the
// sixth decimal are dropped, toward zero).
struct DecimalTime {
  bool negative = false;
  std::int64_t whole = 0;
  std::int64_t frac_ps = 0;
};

std::optional<DecimalTime> parse_decimal(std::string_view text) {
  DecimalTime t;
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) t.negative = text[i++] == '-';
  std::string digits;
  long point = -1;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits += c;
    } else if (c == '.' && point < 0) {
      point = static_cast<long>(digits.size());
    } else {
      break;
    }
  }
  if (digits.empty()) return std::nullopt;
  if (point < 0) point = static_cast<long>(digits.size());
  if (i < text.size() && (text[i] == 'E' || text[i] == 'e')) {
    ++i;
    bool negative_exponent = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative_exponent = text[i++] == '-';
    long exponent = 0;
    std::size_t exponent_digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++exponent_digits) {
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 100) return std::nullopt;
    }
    if (!exponent_digits) return std::nullopt;
    point += negative_exponent ? -exponent : exponent;
  }
  if (i != text.size()) return std::nullopt;
  // Whole part: digits[0, point); fraction: the six digits after it.
  for (long k = 0; k < point; ++k) {
    const int d =
        k < static_cast<long>(digits.size()) ? digits[static_cast<std::size_t>(k)] - '0' : 0;
    if (t.whole > (std::int64_t{1} << 62) / 10) return std::nullopt;
    t.whole = t.whole * 10 + d;
  }
  for (long k = point; k < point + 6; ++k) {
    const int d = k >= 0 && k < static_cast<long>(digits.size())
                      ? digits[static_cast<std::size_t>(k)] - '0'
                      : 0;
    t.frac_ps = t.frac_ps * 10 + d;
  }
  return t;
}

std::string hex_of(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (auto b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

class TinygradReader {
public:
  TinygradReader(const pickle::PickleDocument &doc, const std::filesystem::path &source)
      : doc_(doc), source_(source), builder_(source, "tinygrad profile") {}

  Profile read() {
    const Value &root = doc_.root();
    if (!root.is(Kind::List) && !root.is(Kind::Tuple))
      fail(root, "a tinygrad profile is a list of profile events, this pickle holds a " +
                     root.describe());
    builder_.keep_alive(doc_.input_owner());
    for (const Value *event : root.items()) {
      read_event(*event);
      ++recorded_;
    }
    builder_.set_reference_us(reference_.value_or(0));
    for (const auto &[name, count] : skipped_)
      builder_.note(fmt::format("{} {} event{} not shown", count, name, count == 1 ? "" : "s"));
    Profile p = builder_.build();
    if (p.devices.empty() && p.tracks.empty() && root.size() > 0)
      fail(root, "the pickle holds no tinygrad profile events (no ProfileRangeEvent, "
                 "ProfilePointEvent, ProfileDeviceEvent, ...)");
    return p;
  }

private:
  [[noreturn]] void fail(const Value &v, const std::string &what) const {
    throw_bad_input(
        fmt::format("{}: byte {} (0x{:x}): {}", source_.string(), v.offset(), v.offset(), what));
  }
  static std::string_view class_name(const Value &v) {
    const Value *cls = v.object_class();
    return cls ? cls->name() : std::string_view();
  }
  const Value &field(const Value &obj, std::string_view name) const {
    const Value *v = obj.attr(name);
    if (!v) fail(obj, fmt::format("a {} without its '{}' field", class_name(obj), name));
    return *v;
  }
  // The field, or nullptr when absent or None.
  static const Value *optional(const Value &obj, std::string_view name) {
    const Value *v = obj.attr(name);
    return v && !v->is_none() ? v : nullptr;
  }
  std::string text(const Value &v, std::string_view what) const {
    if (!v.is(Kind::Str)) fail(v, fmt::format("{} is a {}, not a str", what, v.describe()));
    return std::string(v.as_str());
  }
  std::uint64_t unsigned_int(const Value &v, std::string_view what) const {
    if (!v.is(Kind::Int) && !v.is(Kind::Bool))
      fail(v, fmt::format("{} is a {}, not an int", what, v.describe()));
    return v.as_uint64();
  }
  // A value printed for property lists.
  static std::string display(const Value &v) {
    switch (v.kind()) {
    case Kind::None: return "None";
    case Kind::Bool: return v.as_bool() ? "True" : "False";
    case Kind::Int: return v.int_fits_int64() ? std::to_string(v.as_int64()) : "<big int>";
    case Kind::Float: return fmt::format("{}", v.as_double());
    case Kind::Str: return std::string(v.as_str());
    default: return v.describe();
    }
  }

  // ---- times --------------------------------------------------------------------------------
  DecimalTime decimal(const Value &v, std::string_view what) const {
    if (v.is_global("decimal", "Decimal")) {
      const Value *arg = v.arg(0);
      if (arg && arg->is(Kind::Str))
        if (auto t = parse_decimal(arg->as_str())) return *t;
      fail(v, fmt::format("{} is a Decimal that is not a finite number", what));
    }
    if (v.is(Kind::Int)) {
      const std::int64_t n = v.as_int64();
      return {n < 0, n < 0 ? -n : n, 0};
    }
    if (v.is(Kind::Float)) {
      const double d = v.as_double();
      if (!(std::abs(d) < 9e15)) fail(v, fmt::format("{} is not a usable timestamp", what));
      DecimalTime t;
      t.negative = d < 0;
      const double a = std::abs(d);
      t.whole = static_cast<std::int64_t>(a);
      t.frac_ps = static_cast<std::int64_t>((a - static_cast<double>(t.whole)) * 1e6);
      return t;
    }
    fail(v, fmt::format("{} is a {}, not a timestamp", what, v.describe()));
  }
  // A timestamp in picoseconds from the reader's reference (the first whole microsecond seen).
  Picoseconds time(const Value &v, std::string_view what) {
    const DecimalTime t = decimal(v, what);
    const std::int64_t whole = t.negative ? -t.whole : t.whole;
    if (!reference_) reference_ = whole;
    const std::int64_t rel = whole - *reference_;
    if (rel > 9'000'000'000'000 || rel < -9'000'000'000'000)
      fail(v, fmt::format("{} is more than 100 days from the profile's first timestamp", what));
    return rel * kPicosPerMicro + (t.negative ? -t.frac_ps : t.frac_ps);
  }
  // A clock offset in picoseconds.
  Picoseconds duration(const Value &v, std::string_view what) const {
    const DecimalTime t = decimal(v, what);
    if (t.whole > 9'000'000'000'000) fail(v, fmt::format("{} is out of range", what));
    const Picoseconds ps = t.whole * kPicosPerMicro + t.frac_ps;
    return t.negative ? -ps : ps;
  }

  // ---- events -------------------------------------------------------------------------------
  void read_event(const Value &e) {
    const auto cls = class_name(e);
    if (!e.is(Kind::Object) || cls.empty()) {
      ++skipped_[e.describe()];
      return;
    }
    if (cls == "ProfileDeviceEvent") return read_device(e);
    if (cls == "ProfileRangeEvent") return read_range(e);
    if (cls == "ProfilePointEvent") return read_point(e);
    if (cls == "ProfileProgramEvent") return read_program(e);
    if (cls == "ProfileGraphEvent") return read_graph(e);
    if (cls == "ProfileSQTTEvent") return read_sqtt(e);
    if (cls == "ProfilePMCEvent") return read_pmc(e);
    ++skipped_[std::string(cls)];
  }

  void read_device(const Value &e) {
    Device d;
    d.name = text(field(e, "device"), "ProfileDeviceEvent.device");
    if (const Value *tdiff = optional(e, "tdiff"))
      d.clock_offset = duration(*tdiff, "ProfileDeviceEvent.tdiff");
    if (const Value *props = optional(e, "props"); props && props->is(Kind::Dict)) {
      for (std::size_t i = 0; i < props->dict_size(); ++i) {
        const auto entry = props->dict_entry(i);
        const std::string key = display(*entry.key);
        d.properties.emplace_back(key, display(*entry.value));
        if (key == "gfx_target_version" && entry.value->is(Kind::Int))
          d.gfx_target_version = static_cast<unsigned>(entry.value->as_uint64());
      }
    }
    builder_.add_device(std::move(d));
  }

  void read_range(const Value &e) {
    const std::string device = text(field(e, "device"), "ProfileRangeEvent.device");
    const Value &name = field(e, "name");
    SpanDetails details;
    bool has_details = false;
    std::string display_name;
    if (name.is(Kind::Str)) {
      display_name = std::string(name.as_str());
    } else if (class_name(name) == "TracingKey") {
      display_name = text(field(name, "display_name"), "TracingKey.display_name");
      has_details = read_tracing_key(name, details);
    } else {
      fail(name, "ProfileRangeEvent.name is a " + name.describe() + ", not a str or TracingKey");
    }
    if (const Value *key = optional(e, "profile_key")) {
      details.profile_key = key->is(Kind::Bytes) ? hex_of(key->as_bytes()) : display(*key);
      has_details = true;
    }
    const Picoseconds st = time(field(e, "st"), "ProfileRangeEvent.st");
    std::optional<Picoseconds> en;
    if (const Value *end = optional(e, "en")) en = time(*end, "ProfileRangeEvent.en");
    builder_.add_range(device, builder_.intern(display_name), st, en,
                       has_details ? builder_.add_details(std::move(details)) : -1);
  }

  bool read_tracing_key(const Value &key, SpanDetails &details) {
    bool any = false;
    if (const Value *ret = optional(key, "ret")) {
      if (ret->is(Kind::Int)) {
        details.bytes = ret->as_uint64();
        any = true;
      } else if (ret->is(Kind::Str)) {
        const auto s = ret->as_str();
        if (s.starts_with("JSON")) {
          const auto parsed = nlohmann::json::parse(s.substr(4), nullptr, false);
          if (parsed.is_object())
            for (const auto &[k, v] : parsed.items()) details.fields.emplace_back(k, v.dump());
        } else {
          details.metadata = std::string(s);
        }
        any = true;
      }
    }
    if (const Value *tb = optional(key, "tb"); tb && (tb->is(Kind::Tuple) || tb->is(Kind::List))) {
      for (const Value *frame : tb->items()) {
        if (!(frame->is(Kind::Tuple) || frame->is(Kind::List)) || frame->size() < 4) continue;
        StackFrame f;
        f.file = display((*frame)[0]);
        f.line = (*frame)[1].is(Kind::Int) ? (*frame)[1].as_int64() : 0;
        f.function = display((*frame)[2]);
        f.code = display((*frame)[3]);
        details.stack.push_back(std::move(f));
      }
      any = any || !details.stack.empty();
    }
    return any;
  }

  void read_point(const Value &e) {
    const std::string device = text(field(e, "device"), "ProfilePointEvent.device");
    const std::string name = text(field(e, "name"), "ProfilePointEvent.name");
    const Value &key = field(e, "key");
    const Value *arg = optional(e, "arg");
    const Picoseconds ts = time(field(e, "ts"), "ProfilePointEvent.ts");
    if (device.starts_with("LINE:")) {
      if (!key.is(Kind::Int) && !key.is(Kind::Float))
        fail(key, "a LINE: point's key is a " + key.describe() + ", not a number");
      builder_.add_counter(device, key.as_double(), ts);
    } else if (name == "alloc") {
      if (!arg || !arg->is(Kind::Dict)) fail(e, "an alloc event without its arg dict");
      const Value *dtype = arg->find("dtype");
      const Value *size = arg->find("sz");
      if (!dtype || !size) fail(*arg, "an alloc event's arg lacks 'dtype' or 'sz'");
      const auto [dtype_name, item_size] = read_dtype(*dtype);
      builder_.add_alloc(device, unsigned_int(key, "alloc key"), dtype_name, item_size,
                         unsigned_int(*size, "alloc size"), ts);
    } else if (name == "free") {
      builder_.add_free(device, unsigned_int(key, "free key"), ts);
    } else if (name == "exec") {
      ExecBinding b;
      if (arg && arg->is(Kind::Dict)) {
        if (const Value *n = arg->find("name"); n && n->is(Kind::Str))
          b.name = std::string(n->as_str());
        if (const Value *bufs = arg->find("bufs"))
          for (const Value *x : bufs->items()) b.buffers.push_back(unsigned_int(*x, "exec buffer"));
        if (const Value *in = arg->find("inputs"))
          for (const Value *x : in->items())
            b.inputs.push_back(static_cast<unsigned>(unsigned_int(*x, "exec input")));
        if (const Value *out = arg->find("outputs"))
          for (const Value *x : out->items())
            b.outputs.push_back(static_cast<unsigned>(unsigned_int(*x, "exec output")));
      }
      builder_.add_exec(device, unsigned_int(key, "exec key"), std::move(b), ts);
    } else if (name == "marker") {
      std::string marker_name, color;
      if (arg && arg->is(Kind::Dict)) {
        if (const Value *n = arg->find("name")) marker_name = display(*n);
        if (const Value *c = arg->find("color")) color = display(*c);
      }
      builder_.add_marker(marker_name, color, ts);
    } else if (name == "JSON") {
      ++skipped_["JSON pass-through"];
    } else {
      builder_.add_instant(device, builder_.intern(name), ts);
    }
  }

  // A tinygrad DType's name and item size: by field name when the state names them, else from
  // the constructor arguments (priority, bitsize, name, fmt, ...), which every version kept.
  std::pair<std::string, unsigned> read_dtype(const Value &dtype) const {
    if (dtype.is(Kind::Str)) return {std::string(dtype.as_str()), 1};
    std::string name;
    std::int64_t bits = -1;
    if (const Value *n = dtype.attr("name"); n && n->is(Kind::Str)) name = std::string(n->as_str());
    if (const Value *b = dtype.attr("bitsize"); b && b->is(Kind::Int)) bits = b->as_int64();
    if (const Value *args = dtype.object() ? dtype.object()->args : nullptr) {
      const auto a = args->items();
      for (std::size_t i = 0; i < a.size() && name.empty(); ++i)
        if (a[i]->is(Kind::Str)) {
          name = std::string(a[i]->as_str());
          if (bits < 0 && i > 0 && a[i - 1]->is(Kind::Int)) bits = a[i - 1]->as_int64();
        }
    }
    if (name.empty() || bits < 0)
      fail(dtype, "a buffer dtype (" + dtype.describe() + ") without a name and a bit size");
    return {name, static_cast<unsigned>((bits + 7) / 8)};
  }

  ByteSource bytes_of(const Value &v, std::string_view what) const {
    if (!v.is(Kind::Bytes)) fail(v, fmt::format("{} is a {}, not bytes", what, v.describe()));
    const auto bytes = v.as_bytes();
    if (v.bytes_input_offset()) return ByteSource::memory(bytes, doc_.input_owner());
    return ByteSource::owned({bytes.begin(), bytes.end()});
  }

  void read_program(const Value &e) {
    Program p;
    p.device = text(field(e, "device"), "ProfileProgramEvent.device");
    p.name = text(field(e, "name"), "ProfileProgramEvent.name");
    p.code = bytes_of(field(e, "lib"), "ProfileProgramEvent.lib");
    if (const Value *base = optional(e, "base")) p.base = unsigned_int(*base, "program base");
    if (const Value *tag = optional(e, "tag"))
      p.tag = static_cast<std::uint32_t>(unsigned_int(*tag, "program tag"));
    else
      p.tag = std::numeric_limits<std::uint32_t>::max();
    if (const Value *key = optional(e, "profile_key"))
      p.profile_key = key->is(Kind::Bytes) ? hex_of(key->as_bytes()) : display(*key);
    builder_.add_program(std::move(p));
  }

  void read_graph(const Value &e) {
    const Value &ents = field(e, "ents");
    const Value &sigs = field(e, "sigs");
    GraphBatch g;
    std::vector<Picoseconds> times;
    for (const Value *s : sigs.items()) times.push_back(time(*s, "ProfileGraphEvent.sigs"));
    for (const Value *ent : ents.items()) {
      GraphBatch::Entry entry;
      entry.device = text(field(*ent, "device"), "ProfileGraphEntry.device");
      const Value &name = field(*ent, "name");
      entry.name = name.is(Kind::Str) ? std::string(name.as_str())
                   : class_name(name) == "TracingKey"
                       ? text(field(name, "display_name"), "TracingKey.display_name")
                       : display(name);
      const auto st = unsigned_int(field(*ent, "st_id"), "ProfileGraphEntry.st_id");
      const auto en = unsigned_int(field(*ent, "en_id"), "ProfileGraphEntry.en_id");
      if (st >= times.size() || en >= times.size())
        fail(*ent,
             fmt::format("a graph entry names signal {} of {}", std::max(st, en), times.size()));
      entry.start = times[st];
      entry.end = times[en];
      g.entries.push_back(std::move(entry));
    }
    if (const Value *deps = optional(e, "deps"))
      for (std::size_t i = 0; i < deps->size() && i < g.entries.size(); ++i)
        for (const Value *d : deps->items()[i]->items())
          if (d->is(Kind::Int)) g.dependencies.emplace_back(i, d->as_uint64());
    if (!g.entries.empty()) builder_.add_graph(std::move(g));
  }

  void read_sqtt(const Value &e) {
    SqttTrace t;
    t.device = text(field(e, "device"), "ProfileSQTTEvent.device");
    t.program_tag = static_cast<std::uint32_t>(unsigned_int(field(e, "kern"), "SQTT kern"));
    t.se = static_cast<unsigned>(unsigned_int(field(e, "se"), "SQTT se"));
    t.blob = bytes_of(field(e, "blob"), "ProfileSQTTEvent.blob");
    if (const Value *itrace = optional(e, "itrace")) t.itrace = itrace->as_bool();
    if (const Value *tag = optional(e, "exec_tag")) t.exec_tag = unsigned_int(*tag, "exec_tag");
    t.recorded = recorded_;
    builder_.add_sqtt(std::move(t));
  }

  void read_pmc(const Value &e) {
    PmcTrace t;
    t.device = text(field(e, "device"), "ProfilePMCEvent.device");
    t.program_tag = static_cast<std::uint32_t>(unsigned_int(field(e, "kern"), "PMC kern"));
    t.blob = bytes_of(field(e, "blob"), "ProfilePMCEvent.blob");
    if (const Value *tag = optional(e, "exec_tag")) t.exec_tag = unsigned_int(*tag, "exec_tag");
    for (const Value *s : field(e, "sched").items()) {
      PmcSampleSpec spec;
      spec.name = text(field(*s, "name"), "PMCSample.name");
      if (const Value *b = optional(*s, "block")) spec.block = display(*b);
      auto count = [&](const char *name) {
        const Value *v = optional(*s, name);
        return v ? static_cast<unsigned>(unsigned_int(*v, name)) : 1u;
      };
      spec.xcc = count("xcc");
      spec.inst = count("inst");
      spec.se = count("se");
      spec.sa = count("sa");
      spec.wgp = count("wgp");
      spec.offset = unsigned_int(field(*s, "off"), "PMCSample.off");
      spec.size = unsigned_int(field(*s, "size"), "PMCSample.size");
      if (const Value *r = optional(*s, "regsample")) spec.sample_register = display(*r);
      t.schedule.push_back(std::move(spec));
    }
    t.recorded = recorded_;
    builder_.add_pmc(std::move(t));
  }

  const pickle::PickleDocument &doc_;
  std::filesystem::path source_;
  ProfileBuilder builder_;
  std::optional<std::int64_t> reference_;
  std::map<std::string, std::size_t> skipped_;
  std::size_t recorded_ = 0;
};

}  // namespace

bool looks_like_pickle(std::span<const std::uint8_t> head) {
  return head.size() >= 2 && head[0] == 0x80 && head[1] >= 2 && head[1] <= 5;
}

bool looks_like_tinygrad_profile(std::span<const std::uint8_t> head) {
  if (!looks_like_pickle(head)) return false;
  const std::string_view text(reinterpret_cast<const char *>(head.data()), head.size());
  const auto profile = text.find("Event");
  const auto rewrites = text.find("RewriteTrace");
  return profile != std::string_view::npos &&
         text.rfind("Profile", profile) != std::string_view::npos &&
         (rewrites == std::string_view::npos || rewrites > profile);
}

Profile tinygrad_profile_from(const pickle::PickleDocument &document,
                              const std::filesystem::path &source) {
  return TinygradReader(document, source).read();
}

Profile read_tinygrad_profile(const std::filesystem::path &path) {
  pickle::ReadOptions options;
  options.source_name = path.string();
  const auto doc = pickle::PickleDocument::load(path, options);
  return tinygrad_profile_from(doc, path);
}

}  // namespace wavescope::trace::profile
