#include "flash_runs.hpp"

#include <algorithm>

#include "wavescope/hw/flash/flash_operations.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::testing {

using namespace hw;
using namespace hw::flash;

std::vector<sim::Finding> RunOutcome::findings_except(std::vector<std::string> allowed) const {
  std::vector<sim::Finding> out;
  for (const auto &f : findings)
    if (std::find(allowed.begin(), allowed.end(), f.check) == allowed.end()) out.push_back(f);
  return out;
}

WriteRequest write_request(const std::vector<std::uint8_t> &image, const TempDir &dir) {
  WriteRequest r;
  r.image = image;
  r.image_path = "image.bin";
  r.confirmed = true;
  r.work_dir = dir.path();
  return r;
}

RunOutcome run(SimBench &bench, bool read_only, bool protection_change_allowed,
               const std::function<void(RunOutcome &)> &body) {
  RunOutcome outcome;
  bench.board().begin_run({read_only, protection_change_allowed});
  const auto before = bench.operations();
  try {
    body(outcome);
  } catch (const hw::Refusal &e) {
    outcome.error = e.kind();
    outcome.message = e.what();
    outcome.remedy = e.advice().remedy;
  } catch (const Error &e) {
    outcome.error = e.kind();
    outcome.message = e.what();
  }
  outcome.operations = bench.operations() - before;
  outcome.findings = bench.board().end_run();
  return outcome;
}

RunOutcome run_write(SimBench &bench, const WriteRequest &request, FlashSessionOptions options,
                     const CancelToken *cancel) {
  return run(bench, false, request.clear_protection, [&](RunOutcome &outcome) {
    const auto plan = check_write_request(request);
    FlashSession session(bench.bar5(), bench.clock(), options, cancel);
    outcome.summary = write_flash(session, "sim:bench", request, plan);
  });
}

RunOutcome run_dump(SimBench &bench, FlashSessionOptions options) {
  return run(bench, true, false, [&](RunOutcome &outcome) {
    FlashSession session(bench.bar5(), bench.clock(), options);
    session.open();
    outcome.bytes = session.read(0, navi31::kFlashSize, ReadCheck::ReadTwice, "dump").bytes;
    session.close();
  });
}

RunOutcome run_verify(SimBench &bench, const std::vector<std::uint8_t> &image,
                      FlashSessionOptions options) {
  return run(bench, true, false, [&](RunOutcome &) {
    FlashSession session(bench.bar5(), bench.clock(), options);
    verify_flash(session, image);
  });
}

}  // namespace wavescope::testing
