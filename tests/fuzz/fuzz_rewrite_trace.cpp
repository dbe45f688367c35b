// libFuzzer target: arbitrary bytes as wavescope's rewrite trace JSON (what `--trace` writes and
// the app opens). Reading may refuse them with wavescope::Error(BadInput); whatever reads must
// write back to JSON that reads again to the same JSON, and rebuild and replay the graphs of its
// first steps. A crash, another exception or a round trip that changes the trace is a bug: abort.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope;
  using compiler::rewrite::RewriteTrace;
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  try {
    const auto trace = RewriteTrace::read_json(text, "fuzz.json");
    const std::string written = trace.to_json();
    if (RewriteTrace::read_json(written, "round trip").to_json() != written) {
      std::fprintf(stderr, "fuzz_rewrite_trace: the JSON round trip changed the trace\n");
      std::abort();
    }
    for (const auto &group : trace.groups()) {
      std::size_t replayed = 0;
      for (const auto &rewrite : group.rewrites) {
        if (++replayed > 4) break;  // graphs can be large; the first steps reach every path
        (void)trace.rebuild(rewrite.input);
        (void)trace.replay(rewrite);
      }
    }
  } catch (const Error &e) {
    if (e.kind() != ErrorKind::BadInput) std::abort();
  }
  return 0;
}
