#pragma once
// An .rgp file as a Capture, so every capture analysis (wavectl sqtt, the app) runs on it as on a
// capture folder.
//
// Programs: one per code-object load event (CODE_OBJECT_LOADER_EVENTS), in file order, tagged
// 0, 1, ...; its code object is the CODE_OBJECT_DATABASE record with the event's hash (rgptool's
// MD5 hash), or the record in the same position. Its name is the ELF's kernel symbol, else the
// PSO_CORRELATION name, else "k<tag>" (tinygrad's own ELF packer writes no symbols).
//
// Blobs: one SQTT_DATA holds a shader engine's whole trace, which may span several dispatches
// (rgptool concatenates every dispatch's blob of one SE). A dispatch's blob starts with a
// LAYOUT_HEADER, and the hardware writes whole 32-byte lines, so each SQTT_DATA is cut where a
// 32-byte line starts with the trace's own first LAYOUT_HEADER (the same first four bytes).
// The k-th piece of every SE belongs to the k-th dispatch, which is the k-th program when there
// are as many pieces as programs; otherwise (one program run several times, or an SE with fewer
// pieces) piece k goes to program min(k, last). Blobs are ordered dispatch by dispatch, SEs in
// file order within one, and named as a capture folder names them (se<N>.bin, k<tag>_se<N>.bin,
// with _d<k> added where a name would repeat).
//
// Device: the processor from ASIC_INFO.device_id (a known PCI id), else the code objects'
// e_flags, else ASIC_INFO.gfxip_level; shader engines, CUs, SIMDs, waves and LDS from ASIC_INFO.

#include <cstdint>
#include <vector>

#include "wavescope/trace/capture.hpp"
#include "wavescope/trace/rgp/rgp_file.hpp"

namespace wavescope::trace::rgp {

// Where the dispatches in one SE's SQTT data start (byte offsets, the first is 0).
std::vector<std::uint64_t> dispatch_starts(const ByteSource &sqtt_data);

// Throws Error(BadInput) naming the file when it holds no SQTT data or no code object.
Capture capture_of(const RgpFile &file);

}  // namespace wavescope::trace::rgp
