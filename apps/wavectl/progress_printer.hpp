#pragma once
// Progress with ETA on stderr for long commands, fed by the libraries' ProgressSink.

#include <chrono>
#include <string>

#include "wavescope/base/progress.hpp"

namespace wavectl {

class ProgressPrinter {
public:
  explicit ProgressPrinter(bool enabled);
  ~ProgressPrinter();
  // The sink to hand to a library call.
  wavescope::ProgressSink sink();
  // Ends the current line (if any was drawn).
  void finish();

private:
  void update(const wavescope::ProgressUpdate &update);
  bool enabled_;
  bool tty_;
  bool drawn_ = false;
  std::string stage_;
  std::chrono::steady_clock::time_point stage_start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace wavectl
