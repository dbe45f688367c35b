// Chrome / Perfetto trace JSON in and out of the profile model: every phase read, both forms,
// exact times, round trips of the real profiles, and refusals of bad files.

#include <catch2/catch.hpp>

#include <fstream>

#include "temp_dir.hpp"
#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"
#include "wavescope/trace/profile/open_profile.hpp"
#include "wavescope/trace/profile/profile_capture.hpp"
#include "wavescope/trace/profile/tinygrad_profile.hpp"

using namespace wavescope;
using namespace wavescope::trace::profile;

namespace {

Profile parse(const std::string &json) {
  return parse_chrome_trace({reinterpret_cast<const std::uint8_t *>(json.data()), json.size()},
                            "test.json");
}

std::string error_of(const std::string &json) {
  try {
    parse(json);
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    return e.what();
  }
  FAIL("no error for " << json);
  return {};
}

constexpr Picoseconds us(double v) { return static_cast<Picoseconds>(v * 1e6); }

struct SpanKey {
  std::string track, name;
  Picoseconds start, end;
  auto operator<=>(const SpanKey &) const = default;
};
std::vector<SpanKey> spans_of(const Profile &p) {
  std::vector<SpanKey> out;
  for (const auto &t : p.tracks)
    for (const auto &s : t.spans)
      out.push_back({t.name, plain_text(p.str(s.name)), s.start, s.end});
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("chrome trace: complete, begin/end, instants, counters, metadata and flows") {
  const auto p = parse(R"({"displayTimeUnit":"ms","traceEvents":[
    {"ph":"M","name":"process_name","pid":7,"args":{"name":"GPU"}},
    {"ph":"M","name":"thread_name","pid":7,"tid":1,"args":{"name":"queue"}},
    {"ph":"M","name":"process_name","pid":3,"args":{"name":"host"}},
    {"ph":"M","name":"process_sort_index","pid":7,"args":{"sort_index":-1}},
    {"ph":"X","name":"kernel","cat":"gpu","ts":1000.5,"dur":20.25,"pid":7,"tid":1,"args":{"grid":[4,1,1]}},
    {"ph":"B","name":"outer","ts":1000,"pid":3,"tid":9},
    {"ph":"B","name":"inner","ts":1001,"pid":3,"tid":9},
    {"ph":"E","ts":1002,"pid":3,"tid":9},
    {"ph":"E","ts":1010,"pid":3,"tid":9},
    {"ph":"E","ts":1011,"pid":3,"tid":9},
    {"ph":"i","name":"tick","ts":1003,"pid":3,"tid":9,"s":"t"},
    {"ph":"I","name":"phase 2","ts":1004,"pid":3,"tid":9,"s":"g","args":{"color":"red"}},
    {"ph":"C","name":"memory","ts":1000,"pid":7,"args":{"bytes":100}},
    {"ph":"C","name":"memory","ts":1005,"pid":7,"args":{"bytes":300}},
    {"ph":"C","name":"clocks","ts":1000,"pid":7,"args":{"sclk":2000,"mclk":900}},
    {"ph":"s","id":5,"cat":"dep","name":"launch","ts":1001,"pid":3,"tid":9},
    {"ph":"t","id":5,"cat":"dep","ts":1001.5,"pid":3,"tid":9},
    {"ph":"f","id":5,"cat":"dep","bp":"e","ts":1000.5,"pid":7,"tid":1},
    {"ph":"b","name":"async","id":1,"ts":1000,"pid":3,"tid":9}
  ]})");
  CHECK(p.format == "Chrome trace JSON");
  CHECK(p.display_time_unit == "ms");
  // Process 7 sorts first (sort index -1): its thread, then its counters, then host.
  std::vector<std::string> names;
  for (const auto &t : p.tracks) names.push_back(t.name);
  CHECK(names == std::vector<std::string>{"queue", "clocks mclk", "clocks sclk", "memory", "host"});
  const auto *queue = p.track("queue");
  REQUIRE(queue->spans.size() == 1);
  CHECK(queue->device == "GPU");
  CHECK(queue->spans[0].start == us(0.5));  // origin: 1000 us
  CHECK(queue->spans[0].duration() == us(20.25));
  const auto *d = p.details(queue->spans[0]);
  REQUIRE(d);
  CHECK(d->category == "gpu");
  REQUIRE(d->fields.size() == 1);
  CHECK(d->fields[0] == std::pair<std::string, std::string>{"grid", "[4,1,1]"});
  const auto *host = p.track("host");
  REQUIRE(host->spans.size() == 2);
  CHECK(p.str(host->spans[0].name) == "outer");
  CHECK(host->spans[0].duration() == us(10));
  CHECK(host->spans[1].depth == 1);
  CHECK(host->levels == 2);
  REQUIRE(host->instants.size() == 1);
  CHECK(host->instants[0].time == us(3));
  REQUIRE(p.markers.size() == 1);
  CHECK(p.markers[0].name == "phase 2");
  CHECK(p.markers[0].color == "red");
  CHECK(p.track("memory")->samples.size() == 2);
  CHECK(p.track("memory")->peak == 300);
  CHECK(p.track("clocks sclk")->samples[0].value == 2000);
  // s -> t -> f: two hops.
  REQUIRE(p.flows.size() == 2);
  CHECK(p.flows[1].to_time == us(0.5));
  // An E without B and the async event are noted.
  std::string notes;
  for (const auto &n : p.notes) notes += n + ";";
  CHECK_THAT(notes, Catch::Contains("E events without a B") && Catch::Contains("\"b\" events"));
}

TEST_CASE("chrome trace: the bare array form, with or without its closing bracket") {
  const std::string events =
      R"([{"ph":"X","name":"a","ts":5,"dur":1,"pid":1,"tid":1},{"ph":"X","name":"b","ts":6,"dur":2,"pid":1,"tid":1})";
  for (const auto &json : {events + "]", events + ",", events, events + ",\n]"}) {
    INFO(json);
    const auto p = parse(json);
    REQUIRE(p.tracks.size() == 1);
    CHECK(p.tracks[0].spans.size() == 2);
    CHECK(p.duration == us(3));
  }
  CHECK(parse("[]").tracks.empty());
  CHECK(parse(R"({"traceEvents":[]})").tracks.empty());
}

TEST_CASE("chrome trace: times convert from their decimal text exactly") {
  const auto p = parse(
      R"([{"ph":"X","name":"a","ts":1700000000123456.789012,"dur":0.000001,"pid":1,"tid":1},
          {"ph":"X","name":"b","ts":1700000000123457,"dur":1e3,"pid":1,"tid":1}])");
  const auto &spans = p.tracks.at(0).spans;
  REQUIRE(spans.size() == 2);
  // Origin: 1700000000123456 us; a starts 0.789012 us later and lasts one picosecond.
  CHECK(spans[0].start == 789'012);
  CHECK(spans[0].duration() == 1);
  CHECK(spans[1].start == us(1));
  CHECK(spans[1].duration() == us(1000));
}

TEST_CASE("chrome trace: malformed, truncated and wrong-kind JSON is refused with the offset") {
  CHECK_THAT(error_of(R"([{"ph":"X","ts":"bad","pid":1,"tid":1}])"),
             Catch::Contains("test.json: byte ") && Catch::Contains("a number expected"));
  CHECK_THAT(error_of(R"({"traceEvents":[{"ph":"X","ts":1)"), Catch::Contains("ends"));
  CHECK_THAT(error_of(R"({"traceEvents":[{"ph":"X" "ts":1}]})"),
             Catch::Contains("byte 26 (0x1a)") && Catch::Contains("'}' expected"));
  CHECK_THAT(error_of(R"({"otherData":{}})"), Catch::Contains("no \"traceEvents\""));
  CHECK_THAT(error_of(R"("just a string")"), Catch::Contains("a JSON object or array"));
  CHECK_THAT(error_of(R"([{"ph":"X","name":"unterminated)"),
             Catch::Contains("unterminated string"));
  CHECK_THAT(error_of(std::string(R"([{"ph":"X","args":)") + std::string(100000, '[')),
             Catch::Contains("nest deeper"));
  CHECK_THAT(error_of(R"([1,2]x)"), Catch::Contains("'{' expected"));
  CHECK_THAT(error_of(R"({"traceEvents":[]} trailing)"), Catch::Contains("after the trace"));
}

TEST_CASE("chrome trace: every tinygrad profile round-trips through export and import") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::vector<std::filesystem::path> files;
  for (const char *w : {"matmul_relu_sum", "elementwise", "softmax"})
    files.push_back(root / w / "profile.pkl");
  for (const auto &e : std::filesystem::directory_iterator(root / "amd-sqtt"))
    files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() == 15);
  std::size_t spans = 0;
  for (const auto &file : files) {
    INFO(file.string());
    const auto original = read_tinygrad_profile(file);
    const auto json = chrome_trace_json(original);
    const auto back = parse(json);
    // The same spans on the same tracks, to the picosecond.
    const auto a = spans_of(original), b = spans_of(back);
    CHECK(a == b);
    spans += a.size();
    // Memory totals come back as counter series with the same samples.
    for (const auto &t : original.tracks) {
      if (t.kind != TrackKind::Memory) continue;
      const auto *c = back.track(t.name);
      REQUIRE(c);
      CHECK(c->kind == TrackKind::Counter);
      REQUIRE(c->samples.size() == t.usage.size());
      for (std::size_t i = 0; i < t.usage.size(); ++i) {
        CHECK(c->samples[i].time == t.usage[i].time);
        CHECK(c->samples[i].value == t.usage[i].value);
      }
    }
    // Exporting what was imported gives the same events again.
    CHECK(spans_of(parse(chrome_trace_json(back))) == b);
  }
  // Every ProfileRangeEvent of the 15 pickles (as Python's unpickler counts them; none is empty).
  CHECK(spans == 1964);
}

TEST_CASE("chrome trace: overlapping spans of one track go to threads of the same name") {
  const auto p = parse(R"([
    {"ph":"X","name":"a","ts":0,"dur":10,"pid":1,"tid":1},
    {"ph":"X","name":"b","ts":5,"dur":10,"pid":1,"tid":2},
    {"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"q"}},
    {"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"q"}}])");
  REQUIRE(p.tracks.size() == 1);  // one track: the two threads share a name
  CHECK(p.tracks[0].levels == 2);
  const auto json = chrome_trace_json(p);
  // Written again, "b" (overlapping "a" without nesting in it) goes to a second thread named q.
  CHECK(std::count(json.begin(), json.end(), '\n') > 0);
  const auto again = parse(json);
  REQUIRE(again.tracks.size() == 1);
  CHECK(spans_of(again) == spans_of(p));
  CHECK(json.find(R"("args":{"name":"q"})") != json.rfind(R"("args":{"name":"q"})"));
}

TEST_CASE("chrome trace: a capture exports its kernels and every wave per shader engine") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "sqtt/gfx1100/gemm");
  const auto source = open_profile_source(dir);
  REQUIRE(source.capture);
  ChromeTraceOptions options;
  options.capture = &*source.capture;
  ChromeTraceStats stats;
  const auto json = chrome_trace_json(source.profile, options, &stats);
  CHECK(stats.waves == 1024);  // the README's wave count for gemm
  const auto back = parse(json);
  std::size_t waves = 0, kernels = 0;
  for (const auto &t : back.tracks) {
    if (t.name.find(" waves (") != std::string::npos) waves += t.spans.size();
    if (t.name == "kernels") kernels += t.spans.size();
  }
  CHECK(waves == 1024);
  CHECK(kernels == 1);
}

TEST_CASE("chrome trace: writing is atomic and open_profile tells formats by content") {
  WAVESCOPE_REQUIRE_TESTDATA(file, "tinygrad-viz/elementwise/profile.pkl");
  const testing::TempDir temp;
  const auto out = temp.path / "trace.json";
  const auto stats = write_chrome_trace(read_tinygrad_profile(file), out);
  CHECK(stats.spans == 232);
  const auto renamed = temp.path / "trace.pkl";  // a misleading name: content decides
  std::filesystem::rename(out, renamed);
  CHECK(open_profile(renamed).format == "Chrome trace JSON");
  // A folder that cannot be written to leaves nothing behind.
  CHECK_THROWS(write_chrome_trace(read_tinygrad_profile(file), temp.path / "missing" / "t.json"));
  CHECK_FALSE(std::filesystem::exists(temp.path / "missing"));
}
