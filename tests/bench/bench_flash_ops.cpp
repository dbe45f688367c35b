// Transport operations of the flash procedures against the simulated board (navi31-flash.md §6.7):
// a 2 MiB dump, a full write of random data over random old contents, a write of the synthesized
// image onto an empty chip, and ifwi-all. Every variant is counted in this run against the
// conservative procedure (the §9.1 baseline our tools default to) measured in the same run, and
// against the reference procedure (also measured here; §6.7 gives 409 652 and 2 375 782).
// Timing profile: 125 µs per operation, as §6.7's figures were measured.
//
// Counters: ops (transport operations), vs_conservative and vs_reference (ratios), usb_requests
// (through the USB transport and the simulated bridge). Wall time is reported but not the point.

#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <string>

#include <stdlib.h>

#include "sim/navi31_board.hpp"
#include "sim/sim_pci_function.hpp"
#include "sim/sim_random.hpp"
#include "usb/simulated_asm24_bridge.hpp"
#include "wavescope/hw/flash/flash_session.hpp"
#include "wavescope/hw/flash/flash_writer.hpp"
#include "wavescope/hw/ifwi/test_image.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"
#include "wavescope/hw/psp/psp_procedures.hpp"
#include "wavescope/hw/usb/asm24_transport.hpp"

using namespace wavescope::hw;
using namespace wavescope::hw::flash;

namespace {

enum class Variant {
  Reference,
  Conservative,
  Session,
  NoCheckReads,
  Pipeline,
  BlockRead,
  BlockWrite,
  SkipErase,
  All
};
constexpr const char *kVariantNames[] = {"reference",      "conservative", "session",
                                         "no-check-reads", "pipeline",     "block-read",
                                         "block-write",    "skip-erase",   "all"};

FlashSessionOptions options_of(Variant v) {
  FlashSessionOptions o;
  switch (v) {
  case Variant::Reference: o.reference_procedure = true; break;
  case Variant::Conservative: break;
  case Variant::All: o.optimize = FlashOptimizations::all(); break;
  default: o.optimize = FlashOptimizations::parse(kVariantNames[static_cast<int>(v)]); break;
  }
  return o;
}

std::vector<std::uint8_t> random_bytes(std::uint64_t seed) {
  sim::SimRandom random(seed);
  std::vector<std::uint8_t> bytes(navi31::kFlashSize);
  for (std::size_t i = 0; i < bytes.size(); i += 8) {
    const auto v = random.next();
    for (int k = 0; k < 8; ++k) bytes[i + k] = static_cast<std::uint8_t>(v >> (8 * k));
  }
  return bytes;
}

const std::vector<std::uint8_t> &test_image() {
  static const auto image = ifwi::make_test_ifwi_image();
  return image;
}

// One simulated board behind sim-pci or the USB transport.
struct Board {
  VirtualClock clock;
  std::unique_ptr<sim::Navi31Board> board;
  std::unique_ptr<PciFunction> function;
  Board(std::vector<std::uint8_t> flash, bool usb) {
    sim::SimConfig config;
    config.op_cost_native = config.op_cost;  // §6.7's timing on the direct path too
    board = std::make_unique<sim::Navi31Board>(config, clock, std::move(flash));
    board->force_state(sim::BoardState::Bricked);
    if (usb) {
      SimulatedAsm24BridgeOptions bridge;
      bridge.transfer_latency = config.op_cost / 2;
      function = std::make_unique<Asm24Transport>(
          std::make_unique<SimulatedAsm24Bridge>(*board, clock, bridge), clock);
    } else {
      function = std::make_unique<sim::SimPciFunction>("bench", *board, clock, config.op_cost);
    }
  }
  Mmio &bar5() { return function->map_bar(5); }
};

struct Count {
  std::uint64_t ops = 0, usb = 0;
};

Count dump_ops(Variant v, bool read_twice, bool usb) {
  Board b(random_bytes(1), usb);
  FlashSession session(b.bar5(), b.clock, options_of(v));
  session.open();
  session.read(0, navi31::kFlashSize, read_twice ? ReadCheck::ReadTwice : ReadCheck::Single);
  session.close();
  return {b.bar5().stats().operations(), b.bar5().stats().usb_requests};
}

Count write_ops(Variant v, const std::vector<std::uint8_t> &old,
                const std::vector<std::uint8_t> &image, bool backup, bool usb) {
  char dir[] = "/tmp/wavescope-bench-XXXXXX";
  if (!::mkdtemp(dir)) throw std::runtime_error("mkdtemp");
  Board b(old, usb);
  WriteRequest request;
  request.image = image;
  request.confirmed = true;
  request.force_image = true;
  request.no_backup = !backup;
  request.work_dir = dir;
  if (v == Variant::Reference) {  // the reference writes every sector in ascending order, once
    request.skip_unchanged = false;
    request.header_last = false;
    request.final_verify = false;
  }
  FlashSession session(b.bar5(), b.clock, options_of(v));
  const auto plan = check_write_request(request);
  write_flash(session, "sim:bench", request, plan);
  std::filesystem::remove_all(dir);
  return {b.bar5().stats().operations(), b.bar5().stats().usb_requests};
}

// The baselines, measured once per run.
std::uint64_t baseline(const std::string &key, const std::function<std::uint64_t()> &measure) {
  static std::map<std::string, std::uint64_t> cache;
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, measure()).first;
  return it->second;
}

void report(benchmark::State &state, Count c, std::uint64_t conservative, std::uint64_t reference) {
  state.counters["ops"] = static_cast<double>(c.ops);
  state.counters["vs_conservative"] =
      static_cast<double>(c.ops) / static_cast<double>(conservative);
  state.counters["vs_reference"] = static_cast<double>(c.ops) / static_cast<double>(reference);
  if (c.usb) state.counters["usb_requests"] = static_cast<double>(c.usb);
}

// args: variant, read twice (0/1), usb (0/1)
void BM_Dump(benchmark::State &state) {
  const auto v = static_cast<Variant>(state.range(0));
  const bool twice = state.range(1) != 0, usb = state.range(2) != 0;
  const auto conservative =
      baseline("dump", [] { return dump_ops(Variant::Conservative, false, false).ops; });
  const auto reference =
      baseline("dump-ref", [] { return dump_ops(Variant::Reference, false, false).ops; });
  Count c;
  for (auto _ : state) c = dump_ops(v, twice, usb);
  state.SetLabel(std::string(kVariantNames[static_cast<int>(v)]) +
                 (twice ? ", read twice" : ", one read") + (usb ? ", usb" : ", sim-pci"));
  report(state, c, conservative, reference);
}

// args: variant, backup (0/1), usb (0/1)
void BM_WriteRandom(benchmark::State &state) {
  const auto v = static_cast<Variant>(state.range(0));
  const bool backup = state.range(1) != 0, usb = state.range(2) != 0;
  static const auto old = random_bytes(2), image = random_bytes(3);
  const auto conservative = baseline(
      "random", [] { return write_ops(Variant::Conservative, old, image, false, false).ops; });
  const auto reference = baseline(
      "random-ref", [] { return write_ops(Variant::Reference, old, image, false, false).ops; });
  Count c;
  for (auto _ : state) c = write_ops(v, old, image, backup, usb);
  state.SetLabel(std::string(kVariantNames[static_cast<int>(v)]) +
                 (backup ? ", with backup" : ", no backup") + (usb ? ", usb" : ", sim-pci"));
  report(state, c, conservative, reference);
}

// The synthesized image (1 083 non-blank pages) onto an empty chip. args: variant
void BM_WriteTestImage(benchmark::State &state) {
  const auto v = static_cast<Variant>(state.range(0));
  static const auto blank = std::vector<std::uint8_t>(navi31::kFlashSize, 0xFF);
  const auto conservative = baseline("image", [] {
    return write_ops(Variant::Conservative, blank, test_image(), false, false).ops;
  });
  const auto reference = baseline("image-ref", [] {
    return write_ops(Variant::Reference, blank, test_image(), false, false).ops;
  });
  Count c;
  for (auto _ : state) c = write_ops(v, blank, test_image(), false, false);
  state.SetLabel(std::string(kVariantNames[static_cast<int>(v)]) + ", no backup, sim-pci");
  report(state, c, conservative, reference);
}

// ifwi-all of the synthesized image on a booted board. args: fast mailbox (0/1)
void BM_IfwiAll(benchmark::State &state) {
  auto run = [](bool fast) {
    VirtualClock clock;
    sim::SimConfig config;
    config.op_cost_native = config.op_cost;
    sim::Navi31Board board(config, clock, test_image());
    sim::SimPciFunction f("bench", board, clock, config.op_cost);
    psp::IfwiAllOptions options;
    options.mailbox.fast = fast;
    psp::psp_ifwi_all(f.map_bar(5), clock, test_image(), options);
    return f.map_bar(5).stats().operations();
  };
  const auto slow = baseline("ifwi", [&] { return run(false); });
  std::uint64_t ops = 0;
  for (auto _ : state) ops = run(state.range(0) != 0);
  state.SetLabel(state.range(0) ? "fast mailbox" : "reference mailbox (6 ops per dword)");
  state.counters["ops"] = static_cast<double>(ops);
  state.counters["vs_conservative"] = static_cast<double>(ops) / static_cast<double>(slow);
}

void dump_args(benchmark::internal::Benchmark *b) {
  b->Args({static_cast<int>(Variant::Reference), 0, 0});
  b->Args({static_cast<int>(Variant::Conservative), 0, 0});
  b->Args({static_cast<int>(Variant::Conservative), 1, 0});
  for (int v = static_cast<int>(Variant::Session); v <= static_cast<int>(Variant::BlockWrite); ++v)
    b->Args({v, 0, 0});
  b->Args({static_cast<int>(Variant::All), 0, 0});
  b->Args({static_cast<int>(Variant::All), 1, 0});
  b->Args({static_cast<int>(Variant::All), 1, 1});
  b->Iterations(1)->Unit(benchmark::kMillisecond);
}

void write_args(benchmark::internal::Benchmark *b) {
  b->Args({static_cast<int>(Variant::Reference), 0, 0});
  b->Args({static_cast<int>(Variant::Conservative), 0, 0});
  b->Args({static_cast<int>(Variant::Conservative), 1, 0});
  for (int v = static_cast<int>(Variant::Session); v <= static_cast<int>(Variant::SkipErase); ++v)
    b->Args({v, 0, 0});
  b->Args({static_cast<int>(Variant::All), 0, 0});
  b->Args({static_cast<int>(Variant::All), 1, 0});
  b->Args({static_cast<int>(Variant::All), 1, 1});
  b->Iterations(1)->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(BM_Dump)->Apply(dump_args);
BENCHMARK(BM_WriteRandom)->Apply(write_args);
BENCHMARK(BM_WriteTestImage)
    ->Arg(static_cast<int>(Variant::Reference))
    ->Arg(static_cast<int>(Variant::Conservative))
    ->Arg(static_cast<int>(Variant::All))
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IfwiAll)->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
