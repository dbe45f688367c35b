// Importing a 10-million-event Chrome trace JSON into the profile model: MB/s (of thread CPU time)
// and peak memory as a multiple of the file's size, against two baselines measured in the same run
// on the same file: reading its bytes (read(2) into a buffer) and nlohmann-json's own SAX parse of
// it (no DOM, a handler that only counts). Goals (issue 10): >= 100 MB/s and <= 2x the file size.
//
//   build/default/bin/bench_chrome_trace_import            # 10,000,000 events (~0.9 GB, in TMPDIR)
//   WAVESCOPE_BENCH_TRACE_EVENTS=1000000 build/default/bin/bench_chrome_trace_import

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cpu_time.hpp"
#include "wavescope/base/mapped_file.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"

namespace {

std::size_t event_count() {
  if (const char *n = std::getenv("WAVESCOPE_BENCH_TRACE_EVENTS")) return std::stoull(n);
  return 10'000'000;
}

// A trace shaped like real ones: 2 processes x 4 threads of complete events with 200 distinct
// kernel names and microsecond timestamps with three decimals, every tenth event with args, plus
// begin/end pairs, instants and counters (about 1% each).
const std::filesystem::path &trace_file() {
  static const std::filesystem::path path = [] {
    const auto p = std::filesystem::temp_directory_path() /
                   fmt::format("wavescope-bench-trace-{}.json", ::getpid());
    std::FILE *f = std::fopen(p.c_str(), "wb");
    std::string buf;
    buf.reserve(1 << 22);
    buf += R"({"displayTimeUnit":"ns","traceEvents":[)";
    for (int pid = 1; pid <= 2; ++pid) {
      buf += fmt::format(
          R"({{"ph":"M","name":"process_name","pid":{},"args":{{"name":"GPU {}"}}}},)", pid, pid);
      for (int tid = 1; tid <= 4; ++tid)
        buf += fmt::format(
            R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"queue {}"}}}},)",
            pid, tid, tid);
    }
    const std::size_t n = event_count();
    std::uint64_t t = 1'700'000'000'000;  // ns
    for (std::size_t i = 0; i < n; ++i) {
      t += 1000 + (i * 7919) % 5000;
      const int pid = 1 + static_cast<int>(i % 2), tid = 1 + static_cast<int>((i / 2) % 4);
      const auto ts = fmt::format("{}.{:03}", t / 1000, t % 1000);
      if (i % 100 == 1) {
        buf += fmt::format(R"({{"ph":"B","name":"host work","ts":{},"pid":{},"tid":{}}},)", ts, pid,
                           tid + 10);
        buf += fmt::format(R"({{"ph":"E","ts":{}.500,"pid":{},"tid":{}}})", t / 1000 + 1, pid,
                           tid + 10);
      } else if (i % 100 == 2) {
        buf += fmt::format(R"({{"ph":"i","name":"tick","s":"t","ts":{},"pid":{},"tid":{}}})", ts,
                           pid, tid);
      } else if (i % 100 == 3) {
        buf += fmt::format(R"({{"ph":"C","name":"memory","ts":{},"pid":{},"args":{{"bytes":{}}}}})",
                           ts, pid, i * 64);
      } else if (i % 10 == 0) {
        buf += fmt::format(
            R"({{"ph":"X","name":"kernel_{}","cat":"gpu","ts":{},"dur":{}.{:03},"pid":{},"tid":{},"args":{{"run":{},"grid":[{},1,1]}}}})",
            i % 200, ts, (i % 900) + 1, i % 1000, pid, tid, i, i % 4096);
      } else {
        buf += fmt::format(
            R"({{"ph":"X","name":"kernel_{}","ts":{},"dur":{}.{:03},"pid":{},"tid":{}}})", i % 200,
            ts, (i % 900) + 1, i % 1000, pid, tid);
      }
      buf += i + 1 < n ? ",\n" : "\n";
      if (buf.size() > (1u << 22) - 512) {
        std::fwrite(buf.data(), 1, buf.size(), f);
        buf.clear();
      }
    }
    buf += "]}\n";
    std::fwrite(buf.data(), 1, buf.size(), f);
    std::fclose(f);
    std::atexit([] { std::filesystem::remove(trace_file()); });
    return p;
  }();
  return path;
}

double file_mb() { return static_cast<double>(std::filesystem::file_size(trace_file())) / 1e6; }

long status_kb(const char *field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::stol(line.substr(key.size()));
  return 0;
}
// Resets the peak resident set size (VmHWM) to the current one (Linux >= 4.0).
void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }

double g_read_mbps = 0, g_sax_mbps = 0;

using wavescope::bench::thread_cpu_seconds;
template <class F> double seconds_of(F &&f) {
  const double t0 = thread_cpu_seconds();
  f();
  return thread_cpu_seconds() - t0;
}

void BM_Baseline_ReadBytes(benchmark::State &state) {
  const auto &path = trace_file();
  std::vector<char> buffer(std::size_t{4} << 20);
  for (auto _ : state) {
    const double s = seconds_of([&] {
      const int fd = ::open(path.c_str(), O_RDONLY);
      while (::read(fd, buffer.data(), buffer.size()) > 0) benchmark::DoNotOptimize(buffer.data());
      ::close(fd);
    });
    state.SetIterationTime(s);
    g_read_mbps = file_mb() / s;
  }
  state.counters["MB/s"] = g_read_mbps;
  state.counters["file_MB"] = file_mb();
}
BENCHMARK(BM_Baseline_ReadBytes)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

struct CountingSax : nlohmann::json_sax<nlohmann::json> {
  std::size_t objects = 0;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t &) override { return true; }
  bool string(string_t &) override { return true; }
  bool binary(binary_t &) override { return true; }
  bool start_object(std::size_t) override { return ++objects, true; }
  bool key(string_t &) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override {
    return false;
  }
};

void BM_Baseline_NlohmannSax(benchmark::State &state) {
  const auto file = wavescope::MappedFile::open(trace_file());
  const auto bytes = file->bytes();
  CountingSax sax;
  for (auto _ : state) {
    const double s =
        seconds_of([&] { nlohmann::json::sax_parse(bytes.begin(), bytes.end(), &sax); });
    state.SetIterationTime(s);
    g_sax_mbps = file_mb() / s;
  }
  state.counters["MB/s"] = g_sax_mbps;
  state.counters["objects"] = static_cast<double>(sax.objects);
}
BENCHMARK(BM_Baseline_NlohmannSax)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_ImportChromeTrace(benchmark::State &state) {
  const auto &path = trace_file();
  std::size_t spans = 0;
  double mbps = 0, peak_ratio = 0;
  for (auto _ : state) {
    // Drop the page cache's share of our RSS first: the file is not resident in this process.
    const long before_kb = status_kb("VmRSS");
    reset_peak();
    wavescope::trace::profile::Profile p;
    const double s = seconds_of([&] { p = wavescope::trace::profile::read_chrome_trace(path); });
    const long peak_kb = status_kb("VmHWM");
    state.SetIterationTime(s);
    spans = p.span_count();
    mbps = file_mb() / s;
    peak_ratio = static_cast<double>(peak_kb - before_kb) * 1024.0 / (file_mb() * 1e6);
  }
  state.counters["MB/s"] = mbps;
  state.counters["peak_x_file"] = peak_ratio;
  state.counters["spans"] = static_cast<double>(spans);
  state.counters["x_read"] = g_read_mbps > 0 ? mbps / g_read_mbps : 0;
  state.counters["x_nlohmann_sax"] = g_sax_mbps > 0 ? mbps / g_sax_mbps : 0;
}
BENCHMARK(BM_ImportChromeTrace)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
