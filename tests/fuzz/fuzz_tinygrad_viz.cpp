// libFuzzer target: arbitrary bytes as the pickles tinygrad's VIZ writes, read the way wavescope
// opens them: as a profile (profile.pkl) and as a rewrite trace with its kernel ASTs
// (rewrites.pkl). fuzz_pickle covers the pickle machine; this covers what is built from the
// values: a tree of the wrong shape, wrong types, dangling references. A profile read is
// summarised and exported to Chrome trace JSON; a rewrite trace rebuilds the graphs of its first
// steps. wavescope::Error(BadInput) is the clean outcome; a crash or any other exception is a bug.

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "wavescope/base/error.hpp"
#include "wavescope/base/pickle_reader.hpp"
#include "wavescope/compiler/rewrite/tinygrad_rewrites.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"
#include "wavescope/trace/profile/profile_summary.hpp"
#include "wavescope/trace/profile/tinygrad_profile.hpp"

namespace {

template <typename Read> void expect_clean(Read read) {
  try {
    read();
  } catch (const wavescope::Error &e) {
    if (e.kind() != wavescope::ErrorKind::BadInput) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope;
  std::optional<pickle::PickleDocument> document;
  expect_clean([&] { document = pickle::PickleDocument::parse({data, size}); });
  if (!document) return 0;
  expect_clean([&] {
    const auto profile = trace::profile::tinygrad_profile_from(*document, "fuzz.pkl");
    std::ostringstream text;
    trace::profile::print_summary_text(text, trace::profile::summarize(profile));
    (void)trace::profile::chrome_trace_json(profile);
  });
  expect_clean([&] {
    const auto trace = compiler::rewrite::tinygrad_rewrites_from(*document, "fuzz.pkl");
    // Graphs can be large; the first steps of each context reach every rebuild path.
    for (const auto &group : trace.groups()) {
      std::size_t rebuilt = 0;
      for (const auto &rewrite : group.rewrites) {
        if (++rebuilt > 4) break;
        (void)trace.rebuild(rewrite.input);
        (void)trace.replay(rewrite);
      }
    }
  });
  return 0;
}
