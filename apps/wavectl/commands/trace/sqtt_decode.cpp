// wavectl sqtt decode BLOB: every packet of one SQTT blob, as a table or as JSON lines in the
// corpus' reference.jsonl form: {"i":N,"type":"NAME","time":T,"nib":OFFSET,"fields":{...}}.

#include <cstdio>
#include <set>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "progress_printer.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/sqtt/blob_file.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace::sqtt;

struct DecodeArgs {
  std::string blob;
  std::string arch = "auto";
  bool tail = false;
  std::vector<std::string> types;
  std::uint64_t limit = 0;
};

// Buffered stdout: millions of packets print at disk speed.
class Out {
public:
  ~Out() { flush(); }
  fmt::memory_buffer &buffer() { return buffer_; }
  void line_done() {
    buffer_.push_back('\n');
    if (buffer_.size() > (1 << 16)) flush();
  }
  void flush() {
    std::fwrite(buffer_.data(), 1, buffer_.size(), stdout);
    buffer_.clear();
  }

private:
  fmt::memory_buffer buffer_;
};

void json_line(Out &out, const Packet &p) {
  auto &b = out.buffer();
  const auto &spec = p.spec();
  fmt::format_to(std::back_inserter(b), R"({{"i":{},"type":"{}","time":{},"nib":{},"fields":{{)",
                 p.index, spec.name, p.time, p.nibble);
  bool first = true;
  for (const auto &f : spec.fields) {
    if (f.hidden) continue;
    fmt::format_to(std::back_inserter(b), R"({}"{}":{})", first ? "" : ",", f.name, p.field(f));
    first = false;
  }
  b.push_back('}');
  if (p.in_tail) fmt::format_to(std::back_inserter(b), R"(,"tail":true)");
  b.push_back('}');
  out.line_done();
}

void text_line(Out &out, const Packet &p) {
  auto &b = out.buffer();
  const auto &spec = p.spec();
  fmt::format_to(std::back_inserter(b), "{:>8} {:>12} {:>8}  {:<22}", p.index, p.time, p.nibble,
                 spec.name);
  for (const auto &f : spec.fields) {
    if (f.hidden) continue;
    const auto value = p.field(f);
    const auto name = f.enum_names ? f.enum_names->name(value) : std::string_view{};
    if (!name.empty())
      fmt::format_to(std::back_inserter(b), " {}={}", f.name, name);
    else if (f.width > 16)
      fmt::format_to(std::back_inserter(b), " {}={:#x}", f.name, value);
    else
      fmt::format_to(std::back_inserter(b), " {}={}", f.name, value);
  }
  if (p.is_marker()) fmt::format_to(std::back_inserter(b), " (realtime marker)");
  if (p.in_tail) fmt::format_to(std::back_inserter(b), " (tail)");
  out.line_done();
}

std::string notes_text(const DecodeSummary &s) {
  std::string text;
  const auto &n = s.notes;
  if (n.missing_layout_header)
    text += "\nnote: the first packet is not a LAYOUT_HEADER; decoded as RDNA3 (as tinygrad does)";
  if (n.layout_mismatch)
    text += fmt::format("\nnote: the LAYOUT_HEADER says layout {}, decoded as {} (--arch)",
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

void run_decode(const DecodeArgs &args, const CliContext &context) {
  DecodeOptions options;
  options.family = parse_family(args.arch);
  options.decode_tail = args.tail;
  std::set<std::string> types;
  for (const auto &t : args.types) {
    if (!packet_type_from_name(t))
      throw wavescope::Error(wavescope::ErrorKind::Usage,
                             fmt::format("--type {}: no such packet type (e.g. INST, WAVESTART, "
                                         "CDNA_MISC)",
                                         t));
    types.insert(t);
  }
  const BlobFile file(args.blob);
  Out out;
  std::uint64_t printed = 0;
  ProgressPrinter progress(!context.quiet && file.size() > (std::uint64_t{64} << 20));
  const auto sink = progress.sink();
  if (!context.json)
    fmt::format_to(std::back_inserter(out.buffer()), "{:>8} {:>12} {:>8}  {:<22} fields\n", "i",
                   "time", "nibble", "type");
  const auto summary = decode_file(
      file, options,
      [&](const Packet &p) {
        if (args.limit && printed >= args.limit) return;
        if (!types.empty() && !types.count(std::string(p.spec().name))) return;
        ++printed;
        if (context.json)
          json_line(out, p);
        else
          text_line(out, p);
      },
      &sink);
  progress.finish();
  out.flush();
  const std::string summary_text = fmt::format(
      "{}: {} packets ({}{}), {} bytes, {} nibbles decoded, {} undecoded at the end{}{}", args.blob,
      summary.packets, to_string(summary.family),
      summary.layout ? fmt::format(", layout {}", *summary.layout) : "", file.size(),
      summary.decoded_nibbles, summary.undecoded_tail_nibbles(),
      args.tail ? fmt::format(", {} tail packet(s) decoded", summary.tail_packets) : "",
      notes_text(summary));
  if (context.json) {
    if (!context.quiet) std::fprintf(stderr, "%s\n", summary_text.c_str());
  } else {
    std::fprintf(stdout, "\n%s\n", summary_text.c_str());
  }
}

}  // namespace

void register_sqtt_decode(CLI::App &sqtt, CliContext &context) {
  auto args = std::make_shared<DecodeArgs>();
  auto *cmd = sqtt.add_subcommand("decode", "Decode one SQTT blob into packets");
  cmd->add_option("BLOB", args->blob, "Raw SQTT blob (one shader engine, e.g. se1.bin)")
      ->required();
  cmd->add_option("--arch", args->arch,
                  "Packet family: auto (from the layout header), rdna3, rdna4, cdna, or a "
                  "processor (gfx1100, gfx1201, gfx950)")
      ->capture_default_str();
  cmd->add_flag("--tail", args->tail,
                "Also decode the complete packets in the last <16 nibbles, which tinygrad leaves "
                "undecoded (marked \"tail\":true / (tail))");
  cmd->add_option("--type", args->types, "Only packets of these types (repeatable), e.g. INST");
  cmd->add_option("--limit", args->limit, "Print at most this many packets");
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] { run_decode(*args, context); });
}

}  // namespace wavectl
