#pragma once
// Running the flash procedures against a SimBench the way the CLI does: one FlashSession per
// command, the board's run bookkeeping around it, and the error kind and message kept.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim_bench.hpp"
#include "temp_dir.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/flash/flash_session.hpp"
#include "wavescope/hw/flash/flash_writer.hpp"
#include "wavescope/hw/remedy/refusal.hpp"

namespace wavescope::testing {

struct RunOutcome {
  std::optional<ErrorKind> error;
  std::string message;
  std::optional<hw::Remedy> remedy;        // what would fix it, when the library refused
  std::vector<hw::sim::Finding> findings;  // the board's invariant findings for the run
  hw::flash::WriteSummary summary;
  std::vector<std::uint8_t> bytes;  // what a dump read
  std::uint64_t operations = 0;
  bool ok() const { return !error; }
  // Findings other than the listed checks.
  std::vector<hw::sim::Finding> findings_except(std::vector<std::string> allowed) const;
};

// A write request for the whole image with the CLI's defaults, backup and journal in `dir`.
hw::flash::WriteRequest write_request(const std::vector<std::uint8_t> &image, const TempDir &dir);

RunOutcome run_write(SimBench &bench, const hw::flash::WriteRequest &request,
                     hw::flash::FlashSessionOptions options = {},
                     const CancelToken *cancel = nullptr);
RunOutcome run_dump(SimBench &bench, hw::flash::FlashSessionOptions options = {});
RunOutcome run_verify(SimBench &bench, const std::vector<std::uint8_t> &image,
                      hw::flash::FlashSessionOptions options = {});
// Any procedure, with the run bookkeeping.
RunOutcome run(SimBench &bench, bool read_only, bool protection_change_allowed,
               const std::function<void(RunOutcome &)> &body);

}  // namespace wavescope::testing
