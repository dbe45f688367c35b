// wavectl sqtt decode BLOB: every packet of one SQTT blob, as a table or as JSON lines in the
// corpus' reference.jsonl form: {"i":N,"type":"NAME","time":T,"nib":OFFSET,"fields":{...}}.

#include <cstdio>
#include <set>

#include <fmt/format.h>

#include "commands/trace/trace_commands.hpp"
#include "progress_printer.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/trace/sqtt/blob_file.hpp"
#include "wavescope/trace/sqtt/packet_report.hpp"

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
  std::string &buffer() { return buffer_; }
  void line_done() {
    if (buffer_.size() > (1 << 16)) flush();
  }
  void flush() {
    std::fwrite(buffer_.data(), 1, buffer_.size(), stdout);
    buffer_.clear();
  }

private:
  std::string buffer_;
};

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
  if (!context.json) append_packet_table_header(out.buffer());
  const auto summary = decode_file(
      file, options,
      [&](const Packet &p) {
        if (args.limit && printed >= args.limit) return;
        if (!types.empty() && !types.count(std::string(p.spec().name))) return;
        ++printed;
        if (context.json)
          append_packet_json(out.buffer(), p);
        else
          append_packet_text(out.buffer(), p);
        out.line_done();
      },
      &sink);
  progress.finish();
  out.flush();
  const std::string summary_text =
      to_text(DecodeReport{args.blob, summary, file.size(), args.tail});
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
