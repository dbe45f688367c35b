#pragma once
// What `wavectl rgp info` prints: an .rgp file's chunks (type, index, version, offset, size) and
// what the reader noted, as text or as one JSON object.

#include <ostream>

#include "wavescope/trace/rgp/rgp_file.hpp"

namespace wavescope::trace::rgp {

void print_rgp_info_text(std::ostream &out, const RgpFile &file);
// One line: {"file","version","chunks":[{"type","index","version","offset","size"}],...}.
void print_rgp_info_json(std::ostream &out, const RgpFile &file);

}  // namespace wavescope::trace::rgp
