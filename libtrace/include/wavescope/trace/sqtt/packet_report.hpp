#pragma once
// What `wavectl sqtt decode` prints, and its printers: one decoded packet per line, as JSON in the
// corpus' reference.jsonl form ({"i":N,"type":"NAME","time":T,"nib":OFFSET,"fields":{...}}) or as
// a table row, and the summary of a decode (packets, family, layout, what was left undecoded and
// the decoder's notes). The appenders add to a caller's buffer, so millions of packets print
// without a string each.

#include <cstdint>
#include <string>
#include <string_view>

#include "wavescope/trace/sqtt/decoder.hpp"
#include "wavescope/trace/sqtt/packet.hpp"

namespace wavescope::trace::sqtt {

// One packet as a JSON line (with its '\n').
void append_packet_json(std::string &out, const Packet &packet);
// The table's header line and one packet as a row of it (each with its '\n').
void append_packet_table_header(std::string &out);
void append_packet_text(std::string &out, const Packet &packet);

// A decode's summary: `blob` as the user named it, its size in bytes, whether the tail was
// decoded too.
struct DecodeReport {
  std::string_view blob;
  const DecodeSummary &summary;
  std::uint64_t bytes = 0;
  bool tail = false;
};
// One line, then a "note: ..." line for each of the decoder's notes (no final '\n').
std::string to_text(const DecodeReport &report);

}  // namespace wavescope::trace::sqtt
