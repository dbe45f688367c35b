#pragma once
// tinygrad's profile pickles (profile.pkl, written at exit under VIZ=1, -1, 2 or -2) mapped onto
// the profile model.
//
// A tinygrad profile is a pickled list of ProfileEvent dataclasses (spec viz.md a.5). They are
// read by class name and field name from the pickle's own opcodes (base's pickle reader), never
// by a class signature, so profiles of any tinygrad version read: ProfileDeviceEvent (device,
// clock offset, properties), ProfileRangeEvent (spans; a TracingKey name gives the display name,
// bytes moved, extra fields or the Python stack), ProfilePointEvent (alloc/free with dtype and
// size, exec with its buffers, markers, LINE:<name> series), ProfileProgramEvent (code objects),
// ProfileGraphEvent (batched graphs), ProfileSQTTEvent and ProfilePMCEvent (per-dispatch SQTT
// blobs and counter samples). Blobs and code objects stay views of the mapped file.
//
// Errors name the file and the byte offset of the offending value.

#include <filesystem>
#include <span>

#include "wavescope/base/pickle_reader.hpp"
#include "wavescope/trace/profile/profile.hpp"

namespace wavescope::trace::profile {

// True when `head` (a file's first bytes) starts like a pickle (a PROTO opcode, protocol 2-5).
bool looks_like_pickle(std::span<const std::uint8_t> head);
// True when `head` (a file's first few KiB) starts like a tinygrad profile pickle: a pickle whose
// first class is one of tinygrad's Profile*Event classes (a rewrites.pkl starts with
// RewriteTrace). Cheap enough to sniff files with; reading still checks everything.
bool looks_like_tinygrad_profile(std::span<const std::uint8_t> head);

// Reads profile.pkl; throws Error(BadInput) naming the file and offset.
Profile read_tinygrad_profile(const std::filesystem::path &path);
// Maps an already read pickle (the profile keeps its input alive).
Profile tinygrad_profile_from(const pickle::PickleDocument &document,
                              const std::filesystem::path &source);

}  // namespace wavescope::trace::profile
