#include "progress_printer.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <unistd.h>

namespace wavectl {

ProgressPrinter::ProgressPrinter(bool enabled) : enabled_(enabled), tty_(::isatty(2) != 0) {}

ProgressPrinter::~ProgressPrinter() { finish(); }

wavescope::ProgressSink ProgressPrinter::sink() {
  return [this](const wavescope::ProgressUpdate &u) { update(u); };
}

void ProgressPrinter::update(const wavescope::ProgressUpdate &u) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (u.stage != stage_) {
    finish();
    stage_ = std::string(u.stage);
    stage_start_ = now;
    last_draw_ = {};
  }
  const bool done = u.total != 0 && u.done >= u.total;
  // Short work shows no progress at all; long work redraws at most 10 times a second on a
  // terminal and every 5 seconds into a log.
  const auto quiet_start = tty_ ? std::chrono::milliseconds(300) : std::chrono::milliseconds(2000);
  if (!drawn_ && now - stage_start_ < quiet_start) return;
  const auto interval = tty_ ? std::chrono::milliseconds(100) : std::chrono::milliseconds(5000);
  if (!done && now - last_draw_ < interval) return;
  last_draw_ = now;

  const double elapsed = std::chrono::duration<double>(now - stage_start_).count();
  std::string line = fmt::format("{}: {}", u.stage, u.done);
  if (u.total) {
    line += fmt::format("/{} {} ({:.1f}%)", u.total, u.unit, 100.0 * u.done / u.total);
    if (u.done > 0 && !done) {
      const double eta = elapsed * (u.total - u.done) / u.done;
      line += fmt::format(", ETA {}:{:02}", static_cast<int>(eta) / 60, static_cast<int>(eta) % 60);
    }
  } else {
    line += fmt::format(" {}", u.unit);
  }
  line += fmt::format(", {:.1f}s", elapsed);
  if (tty_)
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
  else
    std::fprintf(stderr, "%s\n", line.c_str());
  drawn_ = true;
  std::fflush(stderr);
}

void ProgressPrinter::finish() {
  if (drawn_ && tty_) std::fputc('\n', stderr);
  drawn_ = false;
}

}  // namespace wavectl
