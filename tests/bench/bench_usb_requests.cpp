// USB requests per BAR5 operation through the ASM24 transport and the simulated bridge, for
// read32, write32 and 256-byte block accesses. The baseline, measured in the same run, is the same
// access made directly on the endpoint model (what the sim-pci path costs); every benchmark reports
// its host time as a ratio to it ("x_direct"), the USB requests it needed per operation, and the
// simulated bus time per operation at the default 62.5 µs per USB transfer.

#include <benchmark/benchmark.h>

#include <chrono>

#include "../hw/support_transport/bridge_fixture.hpp"

using wavescope::testing::BridgeFixture;

namespace {

constexpr std::uint64_t kRegister = 0x5A3A4;

// Host nanoseconds of one direct endpoint read32: the baseline.
double direct_ns_per_read() {
  static const double ns = [] {
    wavescope::testing::TestEndpoint gpu;
    constexpr int kCount = 2'000'000;
    const auto start = std::chrono::steady_clock::now();
    std::uint32_t sink = 0;
    for (int i = 0; i < kCount; ++i) sink += gpu.bar_read32(5, kRegister);
    benchmark::DoNotOptimize(sink);
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
               .count() /
           kCount;
  }();
  return ns;
}

template <typename Operation> void run(benchmark::State &state, Operation &&operation) {
  BridgeFixture f;
  f.open();
  auto &bar5 = f.bar5();
  const auto requests_before = f.transport->stats().usb_requests;
  const auto sim_before = f.clock.now();
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) operation(bar5);
  const double host_ns =
      std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  const auto ops = static_cast<double>(state.iterations());
  state.counters["usb_requests/op"] =
      static_cast<double>(f.transport->stats().usb_requests - requests_before) / ops;
  state.counters["sim_us/op"] =
      std::chrono::duration<double, std::micro>(f.clock.now() - sim_before).count() / ops;
  state.counters["x_direct"] = host_ns / ops / direct_ns_per_read();
}

void BM_Baseline_DirectEndpointRead32(benchmark::State &state) {
  wavescope::testing::TestEndpoint gpu;
  for (auto _ : state) benchmark::DoNotOptimize(gpu.bar_read32(5, kRegister));
  state.counters["usb_requests/op"] = 0;
  state.counters["x_direct"] = 1;
}
BENCHMARK(BM_Baseline_DirectEndpointRead32);

void BM_Asm24_Read32(benchmark::State &state) {
  run(state, [](wavescope::hw::Mmio &bar5) { benchmark::DoNotOptimize(bar5.read32(kRegister)); });
}
BENCHMARK(BM_Asm24_Read32);

void BM_Asm24_Write32(benchmark::State &state) {
  run(state, [](wavescope::hw::Mmio &bar5) { bar5.write32(kRegister, 0x1234); });
}
BENCHMARK(BM_Asm24_Write32);

void BM_Asm24_ReadBlock256(benchmark::State &state) {
  run(state,
      [](wavescope::hw::Mmio &bar5) { benchmark::DoNotOptimize(bar5.read_block(0x5A400, 64)); });
  state.SetBytesProcessed(state.iterations() * 256);
}
BENCHMARK(BM_Asm24_ReadBlock256);

void BM_Asm24_WriteBlock256(benchmark::State &state) {
  const std::vector<std::uint32_t> block(64, 0xA5A5A5A5);
  run(state, [&](wavescope::hw::Mmio &bar5) { bar5.write_block(0x5A400, block); });
  state.SetBytesProcessed(state.iterations() * 256);
}
BENCHMARK(BM_Asm24_WriteBlock256);

// 64 single reads of the same window, what a tool without block reads pays.
void BM_Asm24_Read32x64(benchmark::State &state) {
  run(state, [](wavescope::hw::Mmio &bar5) {
    for (std::uint64_t i = 0; i < 64; ++i) benchmark::DoNotOptimize(bar5.read32(0x5A400 + 4 * i));
  });
  state.SetBytesProcessed(state.iterations() * 256);
}
BENCHMARK(BM_Asm24_Read32x64);

}  // namespace

BENCHMARK_MAIN();
