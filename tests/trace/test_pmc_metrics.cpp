// Derived metrics on synthetic counter sets (the corpus samples only tinygrad's default eight
// counters, so the other formulas have no real data to compare with).

#include <catch2/catch.hpp>

#include <cmath>

#include "wavescope/trace/pmc/derived_metrics.hpp"

using namespace wavescope::trace::pmc;

namespace {

// A counter whose slots are `values`.
CounterSample counter(std::string name, std::vector<std::uint64_t> values) {
  CounterSample c;
  c.name = std::move(name);
  c.values = values;
  c.count = values.size();
  for (auto v : values) {
    c.sum += v;
    c.max = std::max(c.max, v);
  }
  return c;
}

const MetricValue *find(const std::vector<MetricValue> &metrics, std::string_view name) {
  for (const auto &m : metrics)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace

TEST_CASE("pmc: VALU utilization follows tinygrad: per-slot mean over 4x the GRBM maximum") {
  // 48 SQ slots with 480 instructions in total, GRBM 8 XCC slots with max 250.
  std::vector<std::uint64_t> sq(48, 0);
  sq[0] = 480;
  const auto metrics =
      derive_metrics({counter("SQ_INSTS_VALU", sq), counter("GRBM_GUI_ACTIVE", {100, 250, 3})});
  const auto *m = find(metrics, "VALU utilization");
  REQUIRE(m != nullptr);
  CHECK(m->value.value() == Approx(100.0 * (480.0 / 48) / (250 * 4)));
  CHECK(m->text == "1.0%");
  CHECK(m->unit == "%");
  CHECK(find(metrics, "SALU utilization") == nullptr);  // SQ_INSTS_SALU was not sampled
}

TEST_CASE("pmc: a zero denominator gives n/a instead of a division by zero") {
  const auto metrics =
      derive_metrics({counter("SQ_INSTS_SALU", {5}), counter("GRBM_GUI_ACTIVE", {0}),
                      counter("GL2C_HIT", {0}), counter("GL2C_MISS", {0})});
  const auto *salu = find(metrics, "SALU utilization");
  REQUIRE(salu != nullptr);
  CHECK_FALSE(salu->value.has_value());
  CHECK(salu->text == "n/a");
  CHECK(find(metrics, "L2 hit rate")->text == "n/a");
}

TEST_CASE("pmc: L2 hit rate uses GL2C on RDNA and TCC on CDNA") {
  const auto rdna = derive_metrics({counter("GL2C_HIT", {30, 60}), counter("GL2C_MISS", {10, 0})});
  CHECK(find(rdna, "L2 hit rate")->text == "90.0%");
  CHECK_THAT(find(rdna, "L2 hit rate")->formula, Catch::Contains("GL2C_HIT"));
  const auto cdna = derive_metrics({counter("TCC_HIT", {1}), counter("TCC_MISS", {3})});
  CHECK(find(cdna, "L2 hit rate")->text == "25.0%");
  CHECK_THAT(find(cdna, "L2 hit rate")->formula, Catch::Contains("TCC_MISS"));
}

TEST_CASE("pmc: LDS bank conflict share uses the SQC names on RDNA and SQ names on CDNA") {
  const auto rdna =
      derive_metrics({counter("SQC_LDS_BANK_CONFLICT", {5}), counter("SQC_LDS_IDX_ACTIVE", {20})});
  CHECK(find(rdna, "LDS bank conflict")->value.value() == Approx(25.0));
  const auto cdna =
      derive_metrics({counter("SQ_LDS_BANK_CONFLICT", {1}), counter("SQ_LDS_IDX_ACTIVE", {8})});
  CHECK(find(cdna, "LDS bank conflict")->text == "12.5%");
}

TEST_CASE("pmc: the rocprofiler ratios appear when their counters are sampled") {
  const auto metrics = derive_metrics({
      counter("GRBM_GUI_ACTIVE", {800}),
      counter("GRBM_COUNT", {1000}),
      counter("SQ_WAVE_CYCLES", {400, 400}),
      counter("SQ_WAIT_INST_ANY", {100}),
      counter("SQ_WAIT_ANY", {200}),
      counter("SQ_BUSY_CYCLES", {200}),
      counter("SQ_WAVES", {4}),
      counter("SQ_INSTS_VALU", {40}),
      counter("TA_TA_BUSY", {100, 200}),
  });
  CHECK(find(metrics, "GPU busy")->text == "80.0%");
  CHECK(find(metrics, "Wave issue wait")->text == "12.5%");
  CHECK(find(metrics, "Wave dependency wait")->text == "25.0%");
  CHECK(find(metrics, "Mean waves per busy cycle")->text == "4.00");
  CHECK(find(metrics, "VALU instructions per wave")->text == "10.00");
  CHECK(find(metrics, "Texture addresser busy")->text == "25.0%");
  CHECK(find(metrics, "SALU instructions per wave") == nullptr);
}

TEST_CASE("pmc: every metric definition is documented and the list starts with tinygrad's") {
  const auto defs = metric_definitions();
  REQUIRE(defs.size() >= 10);
  CHECK(defs[0].name == "VALU utilization");
  CHECK(defs[1].name == "SALU utilization");
  for (const auto &d : defs) {
    INFO(d.name);
    CHECK(!d.formula.empty());
    CHECK(!d.description.empty());
    CHECK((d.source == "tinygrad" || d.source == "rocprofiler" || d.source == "wavescope"));
  }
}

TEST_CASE("pmc: one-decimal formatting rounds like Python's %.1f") {
  // 0.05 is stored slightly above 0.05 and prints 0.1; 0.25 is exact and rounds half to even.
  std::vector<std::uint64_t> sq(1, 0);
  const auto at = [&](std::uint64_t insts, std::uint64_t active) {
    return find(derive_metrics(
                    {counter("SQ_INSTS_VALU", {insts}), counter("GRBM_GUI_ACTIVE", {active})}),
                "VALU utilization")
        ->text;
  };
  CHECK(at(1, 500) == "0.1%");  // 100 * 1 / 2000 = 0.05
  CHECK(at(1, 100) == "0.2%");  // 0.25
  CHECK(at(3, 200) == "0.4%");  // 0.375
}
