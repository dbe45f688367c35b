// VIZ's profile normalisation (spec viz.md a.6) in ProfileBuilder, case by case, with the
// acceptance data the spec gives.

#include <catch2/catch.hpp>

#include "wavescope/trace/profile/profile_builder.hpp"

using namespace wavescope::trace::profile;

namespace {

constexpr Picoseconds us(double v) { return static_cast<Picoseconds>(v * 1e6); }

Device device(const std::string &name, Picoseconds offset = 0) {
  Device d;
  d.name = name;
  d.clock_offset = offset;
  return d;
}

std::vector<std::string> track_names(const Profile &p) {
  std::vector<std::string> out;
  for (const auto &t : p.tracks) out.push_back(t.name);
  return out;
}

}  // namespace

TEST_CASE("profile builder: a range 1000..1010 with tdiff -1000 starts at 0 and lasts 10") {
  ProfileBuilder b("test", "test");
  b.add_device(device("GPU", us(-1000)));
  b.add_range("GPU", b.intern("k"), us(1000), us(1010));
  const auto p = b.build();
  REQUIRE(p.tracks.size() == 1);
  REQUIRE(p.tracks[0].spans.size() == 1);
  CHECK(p.tracks[0].spans[0].start == 0);
  CHECK(p.tracks[0].spans[0].duration() == us(10));
  CHECK(p.duration == us(10));
}

TEST_CASE("profile builder: the origin is the earliest event, down to a whole microsecond") {
  ProfileBuilder b("test", "test");
  b.add_range("CPU", b.intern("a"), us(5.75), us(7.5));
  b.add_range("CPU", b.intern("b"), us(9.25), us(10));
  const auto p = b.build();
  const auto &spans = p.tracks[0].spans;
  CHECK(spans[0].start == us(0.75));  // origin 5 us
  CHECK(spans[1].start == us(4.25));
  CHECK(p.duration == us(5));
}

TEST_CASE(
    "profile builder: zero-length and open ranges are dropped, point events are not shifted") {
  ProfileBuilder b("test", "test");
  b.add_device(device("GPU", us(100)));
  b.add_range("GPU", b.intern("empty"), us(10), us(10));
  b.add_range("GPU", b.intern("open"), us(10), std::nullopt);
  b.add_range("GPU", b.intern("kernel"), us(10), us(12));
  b.add_marker("m", "red", us(110));
  const auto p = b.build();
  REQUIRE(p.tracks.size() == 1);
  REQUIRE(p.tracks[0].spans.size() == 1);
  CHECK(p.str(p.tracks[0].spans[0].name) == "kernel");
  // The origin is the earliest timestamp of any event: the shifted ranges at 110.
  REQUIRE(p.markers.size() == 1);
  CHECK(p.markers[0].time == 0);
  CHECK(p.tracks[0].spans[0].start == 0);
}

TEST_CASE("profile builder: overlapping spans stack into first-fit levels") {
  ProfileBuilder b("test", "test");
  b.add_range("TINY", b.intern("outer"), us(0), us(100));
  b.add_range("TINY", b.intern("middle"), us(10), us(50));
  b.add_range("TINY", b.intern("inner"), us(20), us(30));
  b.add_range("TINY", b.intern("after"), us(60), us(70));
  const auto p = b.build();
  const auto &t = p.tracks[0];
  CHECK(t.levels == 3);
  CHECK(t.spans[0].depth == 0);
  CHECK(t.spans[1].depth == 1);
  CHECK(t.spans[2].depth == 2);
  CHECK(t.spans[3].depth == 1);  // level 1 is free again after "middle" ends at 50
}

TEST_CASE("profile builder: track order pins VIZ's test lists") {
  {
    ProfileBuilder b("test", "test");
    for (const char *d : {"NV:1", "NV:SDMA:0", "NV", "NV Graph"})
      b.add_range(d, b.intern("x"), us(0), us(1));
    CHECK(track_names(b.build()) ==
          std::vector<std::string>{"NV", "NV Graph", "NV:SDMA:0", "NV:1"});
  }
  {
    ProfileBuilder b("test", "test");
    for (const char *d : {"AMD:1:SDMA:1", "AMD:SDMA:1", "AMD:1", "TINY", "AMD", "AMD Graph",
                          "AMD:1:SDMA:0", "AMD:SDMA:0", "USER", "GC", "DISK:0"})
      b.add_range(d, b.intern("x"), us(0), us(1));
    b.add_alloc("AMD", 1, "float", 4, 10, us(0));
    b.add_alloc("AMD:1", 2, "float", 4, 10, us(0));
    CHECK(track_names(b.build()) ==
          std::vector<std::string>{"GC", "USER", "TINY", "AMD", "AMD Graph", "AMD:SDMA:0",
                                   "AMD:SDMA:1", "AMD:1", "AMD:1:SDMA:0", "AMD:1:SDMA:1", "DISK:0",
                                   "AMD Memory", "AMD:1 Memory"});
  }
}

TEST_CASE("profile builder: a graph batch is a Graph span over its entries, each on its device") {
  ProfileBuilder b("test", "test");
  b.add_device(device("AMD", us(1000)));
  b.add_device(device("AMD:1", us(2000)));
  GraphBatch g;
  g.entries.push_back({"AMD", "k0", us(10), us(20)});
  g.entries.push_back({"AMD:1", "k1", us(5), us(8)});
  g.dependencies.push_back({1, 0});
  b.add_graph(g);
  const auto p = b.build();
  REQUIRE(p.track("AMD Graph"));
  const auto &batch = p.track("AMD Graph")->spans;
  REQUIRE(batch.size() == 1);
  CHECK(p.str(batch[0].name) == "batched 2");
  // Entries aligned: AMD k0 at 1010..1020, AMD:1 k1 at 2005..2008; origin 1010.
  CHECK(batch[0].start == 0);
  CHECK(batch[0].end == us(998));
  REQUIRE(p.track("AMD")->spans.size() == 1);
  CHECK(p.track("AMD")->spans[0].end == us(10));
  REQUIRE(p.track("AMD:1")->spans.size() == 1);
  CHECK(p.track("AMD:1")->spans[0].start == us(995));
  REQUIRE(p.graphs.size() == 1);
  CHECK(p.graphs[0].entries[1].start == us(995));
  CHECK(p.graphs[0].dependencies.size() == 1);
}

TEST_CASE("profile builder: memory tracks keep peaks and buffer users (write, read+write, read)") {
  ProfileBuilder b("test", "test");
  b.add_alloc("GPU", 7, "float", 4, 256, us(0));
  b.add_alloc("GPU", 8, "half", 2, 100, us(1));
  b.add_exec("GPU", 1, {"assign_write", {7}, {}, {0}}, us(2));
  b.add_exec("GPU", 2, {"assign_rw", {8, 7}, {1}, {1}}, us(3));
  b.add_exec("GPU", 3, {"assign_read", {7}, {0}, {}}, us(4));
  b.add_free("GPU", 7, us(5));
  b.add_range("GPU", b.intern("k"), us(6), us(9));
  const auto p = b.build();
  const auto *m = p.track("GPU Memory");
  REQUIRE(m);
  REQUIRE(m->buffers.size() == 2);
  CHECK(m->peak == 1024 + 200);
  CHECK(p.memory_peak == 1024 + 200);
  const auto &users = m->buffers[0].users;
  REQUIRE(users.size() == 3);
  CHECK(users[0].mode == AccessMode::Write);
  CHECK(users[1].mode == AccessMode::ReadWrite);
  CHECK(users[1].argument == 1);
  CHECK(users[2].mode == AccessMode::Read);
  CHECK(users[2].kernel == "assign_read");
  CHECK(m->buffers[0].freed_in_profile);
  // Buffer 8 lives to the end of the profile.
  CHECK_FALSE(m->buffers[1].freed_in_profile);
  CHECK(m->buffers[1].freed == p.duration);
  CHECK(m->buffers[1].users.size() == 1);
  // The device span after the last exec is bound to it.
  const auto *d = p.details(p.track("GPU")->spans[0]);
  REQUIRE(d);
  CHECK(d->exec == 3u);
  REQUIRE(p.executions.size() == 3);
  CHECK(p.executions[1].modes == std::vector<AccessMode>{AccessMode::Read, AccessMode::ReadWrite});
}

TEST_CASE("profile builder: element counts are capped at 1e12, unknown frees are noted") {
  ProfileBuilder b("test", "test");
  b.add_alloc("GPU", 1, "char", 1, std::uint64_t{1} << 50, us(0));
  b.add_free("GPU", 99, us(1));
  const auto p = b.build();
  CHECK(p.track("GPU Memory")->buffers[0].elements == 1'000'000'000'000u);
  REQUIRE(p.notes.size() == 1);
  CHECK_THAT(p.notes[0], Catch::Contains("buffer 99 freed but never allocated"));
}

TEST_CASE("profile builder: a LINE: device becomes a counter track with its peak") {
  ProfileBuilder b("test", "test");
  b.add_counter("LINE:Shader Clock", 2.0e9, us(0));
  b.add_counter("LINE:Shader Clock", 2.4e9, us(1));
  const auto p = b.build();
  REQUIRE(p.track("Shader Clock"));
  CHECK(p.track("Shader Clock")->kind == TrackKind::Counter);
  CHECK(p.track("Shader Clock")->samples.size() == 2);
  CHECK(p.track("Shader Clock")->peak == 2.4e9);
}

TEST_CASE("profile builder: kernel spans link to their programs by name or profile key") {
  ProfileBuilder b("test", "test");
  Program prog;
  prog.name = "E_4";
  prog.device = "AMD";
  b.add_program(prog);
  Program keyed;
  keyed.name = "r_8";
  keyed.device = "AMD";
  keyed.profile_key = "abcd";
  b.add_program(keyed);
  b.add_range("AMD", b.intern("E_4"), us(0), us(1));
  SpanDetails d;
  d.profile_key = "abcd";
  b.add_range("AMD", b.intern("renamed"), us(2), us(3), b.add_details(d));
  b.add_range("CPU", b.intern("E_4"), us(4), us(5));
  const auto p = b.build();
  CHECK(p.track("AMD")->spans[0].program == 0);
  CHECK(p.track("AMD")->spans[1].program == 1);
  CHECK(p.track("CPU")->spans[0].program == -1);
  CHECK(p.programs[0].runs.size() == 1);
}

TEST_CASE("profile builder: plain_text strips tinygrad's ANSI colors") {
  CHECK(plain_text("r\x1b[90m_\x1b[0m\x1b[34m32\x1b[0m") == "r_32");
  CHECK(plain_text("plain") == "plain");
}
