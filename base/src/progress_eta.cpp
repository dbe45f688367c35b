#include "wavescope/base/progress_eta.hpp"

#include <utility>

namespace wavescope {

OperationProgressSink to_operation_sink(ProgressSink sink) {
  if (!sink) return {};
  return [sink = std::move(sink)](const OperationProgress &p) {
    sink(ProgressUpdate{p.stage, p.done, p.total, p.unit});
  };
}

EtaEstimator::EtaEstimator(Now now, OperationCount operations)
    : now_(std::move(now)), count_(std::move(operations)), start_time_(now_()),
      start_ops_(count_()), last_ops_(start_ops_) {}

void EtaEstimator::mark(const std::string &kind) {
  const std::uint64_t now_ops = count_();
  auto &avg = costs_[kind];
  avg.total += static_cast<double>(now_ops - last_ops_);
  avg.count += 1;
  last_ops_ = now_ops;
}

void EtaEstimator::assume(const std::string &kind, double operations) {
  auto &avg = costs_[kind];
  if (avg.count == 0) {
    avg.total = operations;
    avg.count = 1;
  }
}

std::optional<double> EtaEstimator::cost(const std::string &kind) const {
  auto it = costs_.find(kind);
  if (it == costs_.end() || it->second.count == 0) return std::nullopt;
  return it->second.total / it->second.count;
}

std::uint64_t EtaEstimator::operations() const { return count_() - start_ops_; }

std::optional<double> EtaEstimator::seconds_per_operation() const {
  const std::uint64_t ops = operations();
  if (ops == 0) return std::nullopt;
  return std::chrono::duration<double>(now_() - start_time_).count() / static_cast<double>(ops);
}

std::optional<double> EtaEstimator::eta(const std::map<std::string, double> &remaining) const {
  const auto per_op = seconds_per_operation();
  if (!per_op) return std::nullopt;
  double ops = 0;
  for (const auto &[kind, count] : remaining) {
    if (count <= 0) continue;
    const auto c = cost(kind);
    if (!c) return std::nullopt;
    ops += *c * count;
  }
  return ops * *per_op;
}

OperationProgress EtaEstimator::progress(std::string_view stage, std::uint64_t done,
                                         std::uint64_t total, std::string_view unit,
                                         std::optional<double> eta_seconds) const {
  OperationProgress p;
  p.stage = stage;
  p.done = done;
  p.total = total;
  p.unit = unit;
  p.eta_seconds = eta_seconds;
  p.op_latency_us = seconds_per_operation().value_or(0) * 1e6;
  p.operations = operations();
  return p;
}

}  // namespace wavescope
