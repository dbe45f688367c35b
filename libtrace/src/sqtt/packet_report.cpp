#include "wavescope/trace/sqtt/packet_report.hpp"

#include <iterator>

#include <fmt/format.h>

namespace wavescope::trace::sqtt {

void append_packet_json(std::string &out, const Packet &p) {
  auto it = std::back_inserter(out);
  const auto &spec = p.spec();
  fmt::format_to(it, R"({{"i":{},"type":"{}","time":{},"nib":{},"fields":{{)", p.index, spec.name,
                 p.time, p.nibble);
  bool first = true;
  for (const auto &f : spec.fields) {
    if (f.hidden) continue;
    fmt::format_to(it, R"({}"{}":{})", first ? "" : ",", f.name, p.field(f));
    first = false;
  }
  out.push_back('}');
  if (p.in_tail) out += R"(,"tail":true)";
  out += "}\n";
}

void append_packet_table_header(std::string &out) {
  fmt::format_to(std::back_inserter(out), "{:>8} {:>12} {:>8}  {:<22} fields\n", "i", "time",
                 "nibble", "type");
}

void append_packet_text(std::string &out, const Packet &p) {
  auto it = std::back_inserter(out);
  const auto &spec = p.spec();
  fmt::format_to(it, "{:>8} {:>12} {:>8}  {:<22}", p.index, p.time, p.nibble, spec.name);
  for (const auto &f : spec.fields) {
    if (f.hidden) continue;
    const auto value = p.field(f);
    const auto name = f.enum_names ? f.enum_names->name(value) : std::string_view{};
    if (!name.empty())
      fmt::format_to(it, " {}={}", f.name, name);
    else if (f.width > 16)
      fmt::format_to(it, " {}={:#x}", f.name, value);
    else
      fmt::format_to(it, " {}={}", f.name, value);
  }
  if (p.is_marker()) out += " (realtime marker)";
  if (p.in_tail) out += " (tail)";
  out.push_back('\n');
}

namespace {

std::string notes_text(const DecodeSummary &s) {
  std::string text;
  const auto &n = s.notes;
  if (n.missing_layout_header)
    text += "\nnote: the first packet is not a LAYOUT_HEADER; decoded as RDNA3 (as tinygrad does)";
  if (n.layout_mismatch)
    text += fmt::format("\nnote: the LAYOUT_HEADER says layout {}, decoded as {} (as asked)",
                        s.layout.value_or(0), to_string(s.family));
  if (n.byte_aligned_ts_delta_s8_w3)
    text +=
        fmt::format("\nnote: {} byte-aligned TS_DELTA_S8_W3 packet(s): tinygrad's decoder loses "
                    "sync there, this decode does not",
                    n.byte_aligned_ts_delta_s8_w3);
  if (n.cdna_header_like_timestamps)
    text += fmt::format("\nnote: {} CDNA_TIMESTAMP(s) start with 0x11/0x91; tinygrad would take "
                        "them for LAYOUT_HEADERs",
                        n.cdna_header_like_timestamps);
  if (n.mid_stream_layout_headers)
    text += fmt::format("\nnote: {} LAYOUT_HEADER(s) after the first packet (concatenated traces?)",
                        n.mid_stream_layout_headers);
  if (n.unknown_ops)
    text +=
        fmt::format("\nnote: {} instruction op value(s) outside the known tables", n.unknown_ops);
  if (n.truncated_last_packet) text += "\nnote: the last packet is cut off by the end of the blob";
  return text;
}

}  // namespace

std::string to_text(const DecodeReport &r) {
  const DecodeSummary &s = r.summary;
  return fmt::format(
      "{}: {} packets ({}{}), {} bytes, {} nibbles decoded, {} undecoded at the "
      "end{}{}",
      r.blob, s.packets, to_string(s.family), s.layout ? fmt::format(", layout {}", *s.layout) : "",
      r.bytes, s.decoded_nibbles, s.undecoded_tail_nibbles(),
      r.tail ? fmt::format(", {} tail packet(s) decoded", s.tail_packets) : "", notes_text(s));
}

}  // namespace wavescope::trace::sqtt
