// The PMC sample decoder on small buffers built in code: slot order, geometry, notes, and bad
// schedules or buffers refused with an error that names the entry.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "wavescope/base/error.hpp"
#include "wavescope/trace/pmc/pmc_decoder.hpp"

using namespace wavescope::trace;
using wavescope::Error;
using wavescope::ErrorKind;

namespace {

PmcSampleSpec spec(std::string name, std::string block, unsigned xcc, unsigned inst, unsigned se,
                   unsigned sa, unsigned wgp, std::uint64_t offset) {
  PmcSampleSpec s;
  s.name = std::move(name);
  s.block = std::move(block);
  s.xcc = xcc, s.inst = inst, s.se = se, s.sa = sa, s.wgp = wgp;
  s.offset = offset;
  s.size = 8ull * xcc * inst * se * sa * wgp;
  return s;
}

// A buffer of `slots` little-endian uint64 values value(i).
template <typename F> std::vector<std::uint8_t> buffer_of(std::size_t slots, F value) {
  std::vector<std::uint8_t> out(slots * 8);
  for (std::size_t i = 0; i < slots; ++i)
    for (unsigned b = 0; b < 8; ++b)
      out[i * 8 + b] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value(i)) >> (8 * b));
  return out;
}

pmc::DecodeOptions options(std::string processor, std::string name = {}, std::uint64_t used = 0) {
  pmc::DecodeOptions o;
  o.processor = std::move(processor);
  o.source_name = std::move(name);
  o.used_bytes = used;
  return o;
}

std::string error_of(std::span<const std::uint8_t> buffer,
                     const std::vector<PmcSampleSpec> &sched) {
  try {
    pmc::decode_samples(buffer, sched, options("gfx1100", "pmc_0.bin"));
  } catch (const Error &e) {
    CHECK(e.kind() == ErrorKind::BadInput);
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("pmc: slots are read xcc, inst, se, sa outermost and wgp fastest into rows") {
  // 2 SE x 2 SA x 3 WGP: slot i holds i + 1.
  const auto buffer = buffer_of(12, [](std::size_t i) { return i + 1; });
  const std::vector<PmcSampleSpec> sched = {spec("SQ_WAVES", "SQ", 1, 1, 2, 2, 3, 0)};
  const auto d = pmc::decode_samples(buffer, sched, options("gfx1100", "pmc_0.bin", 96));
  REQUIRE(d.counters.size() == 1);
  const auto &c = d.counters[0];
  CHECK(c.count == 12);
  CHECK(c.sum == 78);
  CHECK(c.max == 12);
  CHECK(c.columns() ==
        std::vector<std::string>{"XCC", "INST", "SE", "SA", "WGP:0", "WGP:1", "WGP:2"});
  REQUIRE(c.rows.size() == 4);
  CHECK(c.rows[1].se == 0);
  CHECK(c.rows[1].sa == 1);
  CHECK(c.rows[1].values == std::vector<std::uint64_t>{4, 5, 6});
  CHECK(c.rows[2].se == 1);
  CHECK(c.rows[2].sa == 0);
  CHECK(c.rows[3].values == std::vector<std::uint64_t>{10, 11, 12});
  CHECK(c.info != nullptr);
  CHECK(c.info->select == 4);
  CHECK(d.notes.empty());
}

TEST_CASE("pmc: all 64 bits of a slot count, little-endian") {
  const auto buffer =
      buffer_of(2, [](std::size_t i) { return i ? 0x0123456789ABCDEFull : 1ull << 40; });
  const auto d =
      pmc::decode_samples(buffer, std::vector{spec("GL2C_HIT", "GL2C", 1, 2, 1, 1, 1, 0)});
  CHECK(d.counters[0].values == std::vector<std::uint64_t>{1ull << 40, 0x0123456789ABCDEFull});
  CHECK(d.counters[0].rows[1].inst == 1);
}

TEST_CASE("pmc: a schedule entry with a zero instance count is refused with the field named") {
  const auto buffer = buffer_of(8, [](std::size_t) { return 0; });
  auto s = spec("SQ_WAVES", "SQ", 1, 1, 2, 2, 2, 0);
  s.sa = 0;
  const auto message = error_of(buffer, {s});
  CHECK_THAT(message, Catch::Contains("pmc_0.bin: sched[0] (SQ_WAVES)"));
  CHECK_THAT(message, Catch::Contains("the sa count is 0"));
}

TEST_CASE("pmc: a size that disagrees with the geometry is refused") {
  const auto buffer = buffer_of(8, [](std::size_t) { return 0; });
  auto s = spec("SQ_WAVES", "SQ", 1, 1, 2, 2, 2, 0);
  s.size = 56;
  CHECK_THAT(error_of(buffer, {s}), Catch::Contains("size is 56 bytes") &&
                                        Catch::Contains("2x2x2") && Catch::Contains("= 64"));
}

TEST_CASE("pmc: a geometry far larger than the buffer is refused without overflowing") {
  const auto buffer = buffer_of(8, [](std::size_t) { return 0; });
  auto s = spec("SQ_WAVES", "SQ", 1, 1, 1, 1, 1, 0);
  s.xcc = s.inst = s.se = s.sa = s.wgp = 0xFFFFFFFFu;
  s.size = 8;
  CHECK_THAT(error_of(buffer, {s}), Catch::Contains("more than the 64-byte buffer holds"));
}

TEST_CASE("pmc: slots past the end of a short buffer are refused with their byte range") {
  const auto buffer = buffer_of(3, [](std::size_t) { return 7; });
  const std::vector<PmcSampleSpec> sched = {spec("GRBM_GUI_ACTIVE", "GRBM", 1, 1, 1, 1, 1, 0),
                                            spec("GL2C_HIT", "GL2C", 1, 4, 1, 1, 1, 8)};
  const auto message = error_of(buffer, sched);
  CHECK_THAT(message, Catch::Contains("sched[1] (GL2C_HIT)"));
  CHECK_THAT(message, Catch::Contains("0x8..0x28") && Catch::Contains("24-byte buffer"));
  CHECK_THAT(error_of({}, sched), Catch::Contains("sched[0] (GRBM_GUI_ACTIVE)"));
}

TEST_CASE("pmc: an offset far outside the buffer is refused without overflowing") {
  const auto buffer = buffer_of(4, [](std::size_t) { return 0; });
  auto s = spec("GRBM_GUI_ACTIVE", "GRBM", 1, 1, 1, 1, 1, 0xFFFFFFFFFFFFFFF8ull);
  CHECK_THAT(error_of(buffer, {s}), Catch::Contains("past the end of the 32-byte buffer"));
}

TEST_CASE("pmc: an offset that is not a multiple of 8 is refused") {
  const auto buffer = buffer_of(4, [](std::size_t) { return 0; });
  CHECK_THAT(error_of(buffer, {spec("GRBM_GUI_ACTIVE", "GRBM", 1, 1, 1, 1, 1, 4)}),
             Catch::Contains("offset 4 (0x4) is not a multiple of 8"));
}

TEST_CASE("pmc: gaps, unused tails, unknown counters and select mismatches become notes") {
  auto buffer = buffer_of(8, [](std::size_t i) { return i == 7 ? 5 : 1; });
  auto unknown = spec("MADE_UP_COUNTER", "SQ", 1, 1, 1, 1, 1, 16);
  auto wrong_select = spec("SQ_INSTS_VALU", "SQ", 1, 1, 1, 1, 1, 24);
  wrong_select.perf_sel = 50;  // the gfx12 value on a gfx11 device
  const std::vector<PmcSampleSpec> sched = {spec("GRBM_GUI_ACTIVE", "GRBM", 1, 1, 1, 1, 1, 0),
                                            unknown, wrong_select};
  const auto d = pmc::decode_samples(buffer, sched, options("gfx1100", "pmc_3.bin", 32));
  REQUIRE(d.counters.size() == 3);
  CHECK(d.counters[1].info == nullptr);
  CHECK(d.counters[1].sum == 1);
  const auto joined = [&] {
    std::string all;
    for (const auto &n : d.notes) all += n + "\n";
    return all;
  }();
  CHECK_THAT(joined, Catch::Contains("sched[1] (MADE_UP_COUNTER): starts at byte 16, not at 8"));
  CHECK_THAT(joined, Catch::Contains("not in the gfx11 counter catalogue"));
  CHECK_THAT(joined, Catch::Contains("programmed with select 50, the gfx11 catalogue says 62"));
  CHECK_THAT(joined, Catch::Contains("byte 32 (0x20) past the sampled slots is non-zero"));
}

TEST_CASE("pmc: a device without a catalogue still decodes, without descriptions") {
  const auto buffer = buffer_of(1, [](std::size_t) { return 9; });
  const auto d = pmc::decode_samples(buffer, std::vector{spec("SQ_WAVES", "SQ", 1, 1, 1, 1, 1, 0)},
                                     options("gfx942"));
  CHECK_FALSE(d.family.has_value());
  CHECK(d.counters[0].info == nullptr);
  CHECK(d.counters[0].sum == 9);
  CHECK(d.notes.empty());
}

TEST_CASE("pmc: an empty schedule decodes to no counters and no metrics") {
  const auto buffer = buffer_of(4, [](std::size_t) { return 0; });
  const auto d = pmc::decode_samples(buffer, std::vector<PmcSampleSpec>{}, options("gfx1100"));
  CHECK(d.counters.empty());
  CHECK(d.metrics.empty());
}

TEST_CASE("pmc: a sum beyond 64 bits saturates and says so") {
  const auto buffer = buffer_of(2, [](std::size_t) { return ~0ull; });
  const auto d =
      pmc::decode_samples(buffer, std::vector{spec("GL2C_HIT", "GL2C", 1, 2, 1, 1, 1, 0)});
  CHECK(d.counters[0].sum_saturated);
  CHECK(d.counters[0].sum == ~0ull);
  REQUIRE(d.notes.size() == 1);
  CHECK_THAT(d.notes[0], Catch::Contains("saturated"));
}
