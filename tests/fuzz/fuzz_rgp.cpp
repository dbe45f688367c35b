// libFuzzer target: the .rgp reader and its capture mapping on arbitrary bytes. They must read
// the input or throw wavescope::Error(BadInput); the chunk list is printed both ways.
// Seed it with the real files: fuzz_rgp ../shared/data/rgp -max_total_time=600

#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "wavescope/base/error.hpp"
#include "wavescope/trace/rgp/rgp_capture.hpp"
#include "wavescope/trace/rgp/rgp_file.hpp"
#include "wavescope/trace/rgp/rgp_printer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope;
  try {
    const auto file = trace::rgp::read_rgp(ByteSource::memory({data, size}, nullptr), "input");
    std::ostringstream out;
    trace::rgp::print_rgp_info_text(out, file);
    trace::rgp::print_rgp_info_json(out, file);
    const auto capture = trace::rgp::capture_of(file);
    for (const auto &b : capture.blobs) (void)b.bytes.read_all();
  } catch (const Error &e) {
    if (e.kind() != ErrorKind::BadInput) std::abort();
  }
  return 0;
}
