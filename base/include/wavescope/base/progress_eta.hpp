#pragma once
// Progress of a long operation bound by device operations, with an ETA derived from measured
// per-operation latency (navi31-flash.md §6.7: the tools are bound by transport operations, whose
// latency is unknown until measured). The estimator keeps running averages of how many operations
// each kind of work (a sector read, an erase, a page program, ...) took in this run and how long
// one operation takes on the operation's clock; the ETA is the remaining work priced with both.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "wavescope/base/progress.hpp"

namespace wavescope {

struct OperationProgress {
  std::string_view stage;  // "backup", "dump", "write", "verify", "stream", ...
  std::uint64_t done = 0;
  std::uint64_t total = 0;
  std::string_view unit;  // "sectors", "bytes", "dwords"
  std::optional<double> eta_seconds;
  double op_latency_us = 0;      // measured mean time of one device operation
  std::uint64_t operations = 0;  // device operations so far in this command
};
using OperationProgressSink = std::function<void(const OperationProgress &)>;

// The plain ProgressSink view of an OperationProgressSink (for callers that only draw bars).
OperationProgressSink to_operation_sink(ProgressSink sink);

class EtaEstimator {
public:
  using Now = std::function<std::chrono::nanoseconds()>;  // the operation's clock
  using OperationCount = std::function<std::uint64_t()>;  // device operations made so far
  EtaEstimator(Now now, OperationCount operations);

  // One piece of work of `kind` finished, costing the operations since the last mark().
  void mark(const std::string &kind);
  // Records the cost of a kind directly (e.g. derived from a measured transaction cost).
  void assume(const std::string &kind, double operations);
  // Average operations per piece of `kind` (nullopt before any was measured or assumed).
  std::optional<double> cost(const std::string &kind) const;
  // Mean time of one operation on the clock (nullopt before any was made).
  std::optional<double> seconds_per_operation() const;
  // ETA for `remaining` pieces of each kind.
  std::optional<double> eta(const std::map<std::string, double> &remaining) const;
  std::uint64_t operations() const;
  // Fills a progress record's measured fields.
  OperationProgress progress(std::string_view stage, std::uint64_t done, std::uint64_t total,
                             std::string_view unit, std::optional<double> eta_seconds) const;

private:
  Now now_;
  OperationCount count_;
  std::chrono::nanoseconds start_time_{};
  std::uint64_t start_ops_ = 0;
  std::uint64_t last_ops_ = 0;
  struct Average {
    double total = 0;
    double count = 0;
  };
  std::map<std::string, Average> costs_;
};

}  // namespace wavescope
