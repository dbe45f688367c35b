// Fuzz target: the kernel AST reader (kernel_ast.hpp). Any bytes: reading may refuse them
// (wavescope::Error), but whatever reads must be a valid kernel whose JSON reads back as the same
// graph, whose text form prints, and whose parameters list. A crash, any other exception or a
// round trip that changes the graph is a bug: the target aborts.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace wavescope::compiler;
  const std::string_view text(reinterpret_cast<const char *>(data), size);
  UOp sink;
  try {
    sink = kernel::kernel_from_json(text, "fuzz input");
  } catch (const wavescope::Error &) {
    return 0;  // refusing malformed input is the reader's job
  }
  try {
    const UOp back = kernel::kernel_from_json(kernel::kernel_to_json(sink, -1), "round trip");
    if (!(back == sink)) {
      std::fprintf(stderr, "fuzz_kernel_ast: the JSON round trip changed the graph\n");
      std::abort();
    }
    (void)kernel::kernel_to_text(sink);
  } catch (const wavescope::Error &e) {
    std::fprintf(stderr, "fuzz_kernel_ast: a kernel that read failed afterwards: %s\n", e.what());
    std::abort();
  }
  return 0;
}
