#pragma once
// Writing a Capture as an .rgp file that Radeon GPU Profiler opens: the chunks Mesa's RADV writes
// for a compute trace, with the device facts taken from the capture.
//
// Chunks, in order: CPU_INFO, ASIC_INFO, API_INFO, one SQTT_DESC + SQTT_DATA per shader engine
// (the SE's dispatch blobs concatenated in capture order, as rgptool does; the reader cuts them
// again at their LAYOUT_HEADERs), CODE_OBJECT_DATABASE (each distinct ELF once, padded to 4
// bytes), CODE_OBJECT_LOADER_EVENTS and PSO_CORRELATION (one per program, with rgptool's MD5 hash
// and the kernel's name), and, when the capture timed its dispatches, QUEUE_EVENT_TIMINGS (one
// compute queue, a command-buffer submit per dispatch: api_id = program tag, GPU timestamps of
// its start and end) with a CLOCK_CALIBRATION. docs/rgp.md lists every field's source.
//
// The file is written to a temporary file and renamed, so an error leaves no partial file.

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <vector>

#include "wavescope/trace/capture.hpp"

namespace wavescope::trace::rgp {

struct RgpExportStats {
  std::uint64_t bytes = 0;
  std::size_t chunks = 0, shader_engines = 0, dispatches = 0, code_objects = 0, queue_events = 0;
};

// The file's bytes. Throws Error(BadInput) for a capture RGP cannot show (CDNA, no SQTT, a
// processor RGP has no gfxip level for).
std::vector<std::uint8_t> rgp_bytes(const Capture &capture, RgpExportStats *stats = nullptr);
RgpExportStats write_rgp(const Capture &capture, const std::filesystem::path &out);

void print_rgp_export_text(std::ostream &out, const std::filesystem::path &file,
                           const RgpExportStats &stats);
void print_rgp_export_json(std::ostream &out, const std::filesystem::path &file,
                           const RgpExportStats &stats);

}  // namespace wavescope::trace::rgp
