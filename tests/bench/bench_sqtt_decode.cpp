// SQTT decode throughput and large-capture statistics.
//
// Every MB/s figure is bytes over this thread's CPU time (the machine is shared: wall time would
// measure the neighbours), and every "x_memcpy" the ratio to a memcpy of the same bytes measured
// in the same run, also in CPU time (best of 10).
//
//  * BM_Memcpy: copying the corpus blobs repeated to >= 64 MB.
//  * BM_Decode: decoding the same bytes blob by blob on one core into a histogram of packet
//    types; reports MB/s, x_memcpy and, when TINYGRAD names a tinygrad checkout, "x_tinygrad":
//    the ratio to tinygrad's Python decoder on the same corpus blobs, measured in this run by
//    tinygrad_sqtt_baseline.py (beside this file; CPU time too). Without TINYGRAD there is no
//    x_tinygrad counter. nop_runs: the sink takes NOP runs at once (1) or one call per packet
//    (0); simd: with the SIMD block pre-pass where the CPU has one (1), or the path of CPUs
//    without one (0).
//  * BM_DecodeArch: the same per architecture (0 gfx1100, 1 gfx1200, 2 gfx950), each repeated to
//    >= 64 MB: the packet mix differs (gfx950 is mostly 4-nibble CDNA_MISC). x_tinygrad is
//    against tinygrad's figure on that architecture's blobs.
//  * BM_DecodeAnalyze: decode plus the timeline layer on the RDNA blobs (full:0 waves, PC walk,
//    per-PC statistics; full:1 also the per-wave traces and the timeline model), with the
//    decoder alone on the same blobs in the same run: decode_MB/s and x_decode, the ratio.
//  * BM_LargeCapture: `sqtt stats`' wave statistics (collect_capture_stats: waves, PC-mapped
//    instructions, clock per blob) over a synthetic 1.6 GB capture (gfx1100 gemm blobs
//    repeated, written to a temp folder and deleted afterwards): wall and CPU seconds, peak RSS;
//    the decoder alone over the same files in the same run (decode_cpu_seconds, x_decode: the
//    analysis' speed over the decoder's); x_goal_cpu and x_goal_rss: CPU seconds over 3 s and
//    peak RSS over 200 MB (issue 11's goals; <= 1 meets them).

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cpu_time.hpp"
#include "peer_script.hpp"
#include "testdata.hpp"
#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/sqtt/blob_file.hpp"
#include "wavescope/trace/sqtt/decoder.hpp"
#include "wavescope/trace/timeline/blob_analyzer.hpp"
#include "wavescope/trace/timeline/capture_analysis.hpp"
#include "wavescope/trace/timeline/capture_stats.hpp"
#include "wavescope/trace/timeline/pc_stats.hpp"
#include "wavescope/trace/timeline/timeline_model.hpp"
#include "wavescope/trace/timeline/wave_trace.hpp"

using namespace wavescope::trace;

namespace {

constexpr std::size_t kMinBytes = std::size_t{64} << 20;

struct Corpus {
  std::vector<std::uint8_t> arena;                   // every blob, repeated to >= 64 MB
  std::vector<std::span<const std::uint8_t>> blobs;  // views into the arena
};

// The blobs of the corpus captures whose architecture `arch` names (all when empty), repeated to
// at least 64 MB.
Corpus make_corpus(const std::string &arch) {
  std::vector<std::vector<std::uint8_t>> originals;
  for (const auto &dir : wavescope::testing::sqtt_capture_dirs()) {
    const auto capture = Capture::open(dir);
    if (!arch.empty() && capture.arch != arch) continue;
    for (const auto &b : capture.blobs) {
      originals.push_back(b.bytes.read_all());
    }
  }
  Corpus out;
  std::size_t one_pass = 0;
  for (const auto &o : originals) one_pass += o.size();
  if (one_pass == 0) return out;
  const std::size_t passes = (kMinBytes + one_pass - 1) / one_pass;
  out.arena.reserve(passes * one_pass);
  std::vector<std::size_t> offsets;
  for (std::size_t p = 0; p < passes; ++p)
    for (const auto &o : originals) {
      offsets.push_back(out.arena.size());
      out.arena.insert(out.arena.end(), o.begin(), o.end());
    }
  std::size_t i = 0;
  for (std::size_t p = 0; p < passes; ++p)
    for (const auto &o : originals)
      out.blobs.emplace_back(out.arena.data() + offsets[i++], o.size());
  return out;
}

const Corpus &corpus() {
  static const Corpus c = make_corpus("");
  return c;
}

// memcpy throughput of the arena in CPU time, measured once per run: the baseline of the ratios.
double memcpy_bytes_per_second() {
  static const double rate = [] {
    const auto &c = corpus();
    std::vector<std::uint8_t> target(c.arena.size(), 1);  // touched: no page faults in the copy
    double best = 1e30;
    for (int i = 0; i < 10; ++i) {
      const double t0 = wavescope::bench::thread_cpu_seconds();
      std::memcpy(target.data(), c.arena.data(), c.arena.size());
      benchmark::DoNotOptimize(target.data());
      benchmark::ClobberMemory();
      best = std::min(best, wavescope::bench::thread_cpu_seconds() - t0);
    }
    return double(c.arena.size()) / best;
  }();
  return rate;
}

// MB/s over `cpu` seconds, and the ratio to memcpy.
void report(benchmark::State &state, std::size_t bytes, double cpu) {
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  const double rate = double(bytes) / cpu;
  state.counters["MB/s"] = rate / 1e6;
  state.counters["memcpy_MB/s"] = memcpy_bytes_per_second() / 1e6;
  state.counters["x_memcpy"] = rate / memcpy_bytes_per_second();
}

// tinygrad's decoder on the corpus blobs (MB/s over its CPU time, all blobs and per
// architecture), measured once per run by tinygrad_sqtt_baseline.py when TINYGRAD is set; empty
// (said once on stderr) when it is not set or the script fails: then no ratio is reported.
struct PeerRates {
  double all = 0;
  std::map<std::string, double> by_arch;
};

using wavescope::bench::shell_quote;

std::optional<PeerRates> measure_tinygrad() {
  const char *checkout = std::getenv("TINYGRAD");
  if (!checkout || !*checkout) {
    fmt::print(stderr, "TINYGRAD is not set: no x_tinygrad (set TINYGRAD=<tinygrad checkout> to "
                       "measure tinygrad's decoder in this run)\n");
    return std::nullopt;
  }
  const auto script = wavescope::testing::source_root() / "tests/bench/tinygrad_sqtt_baseline.py";
  const auto command =
      fmt::format("python3 {} {}", shell_quote(script.string()),
                  shell_quote((wavescope::testing::testdata_root() / "sqtt").string()));
  fmt::print(stderr, "measuring tinygrad's decoder: TINYGRAD={} {}\n", checkout, command);
  const auto json = wavescope::bench::run_peer_script("tinygrad_sqtt_baseline.py", command);
  if (!json) return std::nullopt;
  try {
    PeerRates rates;
    rates.all = json->at("MB/s").get<double>();
    for (const auto &[arch, figures] : json->at("arch").items())
      rates.by_arch[arch] = figures.at("MB/s").get<double>();
    if (!(rates.all > 0)) throw std::runtime_error("no MB/s");
    fmt::print(stderr, "tinygrad: {:.3f} MB/s over {} bytes, {:.2f} s CPU (commit {})\n", rates.all,
               json->at("bytes").get<std::uint64_t>(), json->at("seconds").get<double>(),
               json->value("commit", nlohmann::json()).dump());
    return rates;
  } catch (const std::exception &e) {
    fmt::print(stderr, "tinygrad_sqtt_baseline.py printed no figures ({}): no x_tinygrad\n",
               e.what());
    return std::nullopt;
  }
}

const std::optional<PeerRates> &tinygrad_rates() {
  static const std::optional<PeerRates> rates = measure_tinygrad();
  return rates;
}

void BM_Memcpy(benchmark::State &state) {
  const auto &c = corpus();
  if (c.arena.empty()) return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  std::vector<std::uint8_t> target(c.arena.size(), 1);
  std::size_t bytes = 0;
  double seconds = 0;
  for (auto _ : state) {
    const double t0 = wavescope::bench::thread_cpu_seconds();
    std::memcpy(target.data(), c.arena.data(), c.arena.size());
    benchmark::DoNotOptimize(target.data());
    benchmark::ClobberMemory();
    seconds += wavescope::bench::thread_cpu_seconds() - t0;
    bytes += c.arena.size();
  }
  report(state, bytes, seconds);
}

// Counts packets per type; takes NOP runs at once (decoder.hpp, AcceptsNopRuns).
struct TypeHistogram {
  std::array<std::uint64_t, sqtt::kPacketTypeCount> by_type{};
  void operator()(const sqtt::Packet &p) { ++by_type[std::size_t(p.type)]; }
  void on_nops(const sqtt::Packet &, unsigned count) {
    by_type[std::size_t(sqtt::PacketType::Nop)] += count;
  }
};

// Decodes every blob of `c` with `options` into a histogram (NOP runs at once or not), for as
// long as `state` runs. `arch` names the architecture of `c`'s blobs (empty: all), for the
// tinygrad ratio.
void decode_corpus(benchmark::State &state, const Corpus &c, bool nop_runs,
                   const sqtt::DecodeOptions &options, const std::string &arch = {}) {
  std::size_t bytes = 0;
  std::uint64_t packets = 0;
  double seconds = 0;
  for (auto _ : state) {
    const double t0 = wavescope::bench::thread_cpu_seconds();
    TypeHistogram histogram;
    for (const auto &blob : c.blobs) {
      sqtt::PacketDecoder decoder(options);
      if (nop_runs)
        decoder.decode(blob, histogram);
      else
        decoder.decode(blob, [&](const sqtt::Packet &p) { histogram(p); });
      packets += decoder.summary().packets;
      bytes += blob.size();
    }
    benchmark::DoNotOptimize(histogram.by_type.data());
    seconds += wavescope::bench::thread_cpu_seconds() - t0;
  }
  report(state, bytes, seconds);
  if (const auto &peer = tinygrad_rates()) {
    const auto it = peer->by_arch.find(arch);
    const double peer_rate = arch.empty() ? peer->all : it != peer->by_arch.end() ? it->second : 0;
    if (peer_rate > 0) {
      state.counters["tinygrad_MB/s"] = peer_rate;
      state.counters["x_tinygrad"] = double(bytes) / seconds / 1e6 / peer_rate;
    }
  }
  state.counters["Mpackets/s"] = double(packets) / seconds / 1e6;
}

// range(0): the sink takes NOP runs at once (1) or one call per packet (0); range(1): SIMD
// pre-pass where available (1) or not (0).
void BM_Decode(benchmark::State &state) {
  const auto &c = corpus();
  if (c.arena.empty()) return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  sqtt::DecodeOptions options;
  options.simd = state.range(1) != 0;
  decode_corpus(state, c, state.range(0) != 0, options);
}

// range(0): 0 gfx1100, 1 gfx1200, 2 gfx950; the sink takes NOP runs, SIMD where available.
void BM_DecodeArch(benchmark::State &state) {
  static constexpr const char *kArchs[] = {"gfx1100", "gfx1200", "gfx950"};
  const std::string arch = kArchs[state.range(0)];
  // One architecture's arena at a time.
  static std::string cached_arch;
  static Corpus cached;
  if (cached_arch != arch) {
    cached = make_corpus(arch);
    cached_arch = arch;
  }
  if (cached.arena.empty()) return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  state.SetLabel(arch);
  decode_corpus(state, cached, true, {}, arch);
}

// Decode + the analysis on the RDNA blobs, against the decoder alone on the same blobs in the
// same run. range(0) 0: waves, PC walk and per-PC statistics (what `sqtt insts` runs); 1: the
// full analysis, adding the per-wave instruction traces (`sqtt waves --instructions`) and the
// VIZ timeline model (`sqtt timeline`). Each iteration decodes every blob once into a packet
// histogram and analyzes every blob once, timed apart (interleaved, so both see the same load);
// MB/s is the analysis', decode_MB/s the decoder's and x_decode their ratio. As in the tool, the
// sinks take NOP runs at once and one PcStatsAccumulator serves all blobs of a kernel.
void BM_DecodeAnalyze(benchmark::State &state) {
  struct Item {
    std::vector<std::uint8_t> bytes;
    std::uint32_t tag;
    unsigned se;
    std::size_t program;
  };
  static std::vector<std::unique_ptr<timeline::ProgramMap>> programs;
  static std::vector<Item> items;
  if (items.empty())
    for (const auto &dir : wavescope::testing::sqtt_capture_dirs()) {
      const auto capture = Capture::open(dir);
      if (capture.arch == "gfx950") continue;
      timeline::CaptureAnalyzer analyzer(capture);
      std::map<std::uint32_t, std::size_t> index;
      for (const auto &b : capture.blobs) {
        if (!index.count(b.kernel_tag)) {
          index[b.kernel_tag] = programs.size();
          programs.push_back(
              std::make_unique<timeline::ProgramMap>(analyzer.program(b.kernel_tag)));
        }
        items.push_back({b.bytes.read_all(), b.kernel_tag, b.se, index[b.kernel_tag]});
      }
    }
  if (items.empty()) return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  const bool full = state.range(0) != 0;
  std::size_t bytes = 0, decode_bytes = 0;
  double seconds = 0, decode_seconds = 0;
  std::uint64_t waves = 0;
  for (auto _ : state) {
    double t0 = wavescope::bench::thread_cpu_seconds();
    TypeHistogram histogram;
    for (const auto &item : items) {
      sqtt::PacketDecoder decoder;
      decoder.decode(item.bytes, histogram);
      decode_bytes += item.bytes.size();
    }
    benchmark::DoNotOptimize(histogram.by_type.data());
    decode_seconds += wavescope::bench::thread_cpu_seconds() - t0;

    t0 = wavescope::bench::thread_cpu_seconds();
    std::vector<std::unique_ptr<timeline::PcStatsAccumulator>> stats(programs.size());
    std::optional<timeline::BlobAnalyzer> analyzer;  // one for all blobs, as CaptureAnalyzer's
    for (const auto &item : items) {
      const auto &program = *programs[item.program];
      auto &acc = stats[item.program];
      if (!acc) acc = std::make_unique<timeline::PcStatsAccumulator>(program);
      std::optional<timeline::WaveTraceCollector> traces;
      std::optional<timeline::TimelineBuilder> model;
      timeline::AnalysisSinks sinks;
      sinks.pc_stats = acc.get();
      if (full) {
        sinks.waves = &traces.emplace(true);
        sinks.timeline = &model.emplace(item.se, std::string());
      }
      if (analyzer)
        analyzer->reset(&program, item.se, sinks);
      else
        analyzer.emplace(&program, item.se, sinks);
      analyzer->decode(item.bytes);  // as CaptureAnalyzer does
      analyzer->finish();
      if (full) {
        benchmark::DoNotOptimize(traces->take().size());
        benchmark::DoNotOptimize(model->finish().rows.size());
      }
      waves += analyzer->waves();
      bytes += item.bytes.size();
    }
    for (const auto &acc : stats)
      if (acc) benchmark::DoNotOptimize(acc->total_gap());
    seconds += wavescope::bench::thread_cpu_seconds() - t0;
  }
  report(state, bytes, seconds);
  const double decode_rate = double(decode_bytes) / decode_seconds;
  state.counters["decode_MB/s"] = decode_rate / 1e6;
  state.counters["x_decode"] = double(bytes) / seconds / decode_rate;
  state.counters["waves"] = double(waves) / double(state.iterations());
  state.SetLabel(full ? "waves+pc_stats+traces+timeline" : "waves+pc_stats");
}

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

// A copy of gfx1100/gemm whose blobs are the originals repeated (16 zero bytes between copies,
// so a packet cut off at a copy's end completes in zeros and the next copy starts in sync).
std::filesystem::path make_large_capture(std::uint64_t target_bytes) {
  const auto source = wavescope::testing::testdata_root() / "sqtt/gfx1100/gemm";
  const auto dir =
      std::filesystem::temp_directory_path() / fmt::format("wavescope-bench-sqtt-{}", ::getpid());
  std::filesystem::create_directories(dir);
  std::ifstream in(source / "meta.json");
  auto meta = nlohmann::json::parse(in);
  std::uint64_t one_pass = 0;
  for (const auto &b : meta["sqtt"]) one_pass += b["size"].get<std::uint64_t>() + 16;
  const std::uint64_t copies = target_bytes / one_pass + 1;
  for (auto &b : meta["sqtt"]) {
    const auto bytes = wavescope::testing::read_file(source / b["file"].get<std::string>());
    std::ofstream out(dir / b["file"].get<std::string>(), std::ios::binary);
    std::vector<char> block;
    for (int i = 0; i < 64; ++i) {
      block.insert(block.end(), bytes.begin(), bytes.end());
      block.insert(block.end(), 16, 0);
    }
    for (std::uint64_t c = 0; c < copies; c += 64)
      out.write(block.data(), std::streamsize(block.size()));
    b["size"] = std::uint64_t(out.tellp());
    b.erase("sha256");
  }
  for (const auto &p : meta["programs"])
    std::filesystem::copy_file(source / p["file"].get<std::string>(),
                               dir / p["file"].get<std::string>());
  for (const auto &p : meta["pmc"])
    std::filesystem::copy_file(source / p["file"].get<std::string>(),
                               dir / p["file"].get<std::string>());
  std::ofstream(dir / "meta.json") << meta.dump();
  return dir;
}

void BM_LargeCapture(benchmark::State &state) {
  if (!std::filesystem::exists(wavescope::testing::testdata_root() / "sqtt/gfx1100/gemm"))
    return state.SkipWithError("corpus not found (set WAVESCOPE_TESTDATA)");
  const auto dir = make_large_capture(std::uint64_t{1536} << 20);
  const long rss_before = peak_rss_kib();
  std::uint64_t bytes = 0, waves = 0, hits = 0;
  double seconds = 0;
  double cpu = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const double c0 = wavescope::bench::thread_cpu_seconds();
    const auto capture = Capture::open(dir);
    // What `wavectl sqtt stats` computes: libtrace's capture pipeline, a summary per blob.
    for (const auto &b : timeline::collect_capture_stats(capture).blobs) {
      bytes += b.blob->size;
      waves += b.waves;
      hits += b.mapped_instructions;
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    cpu += wavescope::bench::thread_cpu_seconds() - c0;
  }
  // The baseline, same run, same files: the decoder alone (packet histogram, file reads
  // included, as above).
  const double d0 = wavescope::bench::thread_cpu_seconds();
  {
    const auto capture = Capture::open(dir);
    TypeHistogram histogram;
    for (const auto &blob : capture.blobs) {
      const sqtt::BlobFile file(blob.bytes);
      sqtt::decode_file(file, {}, histogram);
    }
    benchmark::DoNotOptimize(histogram.by_type.data());
  }
  const double decode_cpu = wavescope::bench::thread_cpu_seconds() - d0;
  std::filesystem::remove_all(dir);
  state.counters["GB"] = double(bytes) / 1e9 / double(state.iterations());
  state.counters["seconds"] = seconds / double(state.iterations());
  state.counters["cpu_seconds"] = cpu / double(state.iterations());
  state.counters["decode_cpu_seconds"] = decode_cpu;
  state.counters["x_decode"] = decode_cpu / (cpu / double(state.iterations()));
  // The goals of issue 11 (< 3 s of CPU, < 200 MB peak) as ratios: <= 1 meets them.
  state.counters["x_goal_cpu"] = cpu / double(state.iterations()) / 3.0;
  state.counters["x_goal_rss"] = double(peak_rss_kib()) * 1024.0 / 200e6;
  state.counters["MB/s"] = double(bytes) / 1e6 / cpu;           // CPU time, as everywhere
  state.counters["wall_MB/s"] = double(bytes) / 1e6 / seconds;  // file reads included
  state.counters["waves"] = double(waves) / double(state.iterations());
  state.counters["mapped_issues"] = double(hits) / double(state.iterations());
  state.counters["peak_RSS_MiB"] = double(peak_rss_kib()) / 1024.0;
  state.counters["RSS_growth_MiB"] = double(peak_rss_kib() - rss_before) / 1024.0;
}

}  // namespace

// The large capture first, so its peak RSS is not the 64 MB arena's.
BENCHMARK(BM_LargeCapture)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();
BENCHMARK(BM_Memcpy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Decode)
    ->ArgNames({"nop_runs", "simd"})
    ->Args({1, 1})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({0, 0})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeArch)->ArgName("arch")->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeAnalyze)->ArgName("full")->DenseRange(0, 1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
