// libFuzzer target: the Chrome/Perfetto trace JSON reader on arbitrary bytes. It must read the
// input into a profile or throw wavescope::Error(BadInput); a profile read is exported again.

#include <cstdint>
#include <cstdlib>

#include "wavescope/base/error.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope;
  try {
    const auto profile = trace::profile::parse_chrome_trace({data, size}, "fuzz.json");
    (void)trace::profile::chrome_trace_json(profile);
  } catch (const Error &e) {
    if (e.kind() != ErrorKind::BadInput) std::abort();
  }
  return 0;
}
