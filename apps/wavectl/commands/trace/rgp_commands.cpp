// wavectl rgp: Radeon GPU Profiler files through libtrace's .rgp reader and writer: `info` lists
// the chunks, `export` writes a capture as an .rgp. Every capture verb (sqtt waves|insts|stats|
// timeline) also opens .rgp files.

#include <iostream>
#include <memory>

#include "commands/trace/trace_commands.hpp"
#include "wavescope/trace/rgp/rgp_file.hpp"
#include "wavescope/trace/rgp/rgp_printer.hpp"
#include "wavescope/trace/rgp/rgp_writer.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace::rgp;

struct RgpArgs {
  std::string file;
  std::string output;
};

void register_info(CLI::App &rgp, CliContext &context) {
  auto args = std::make_shared<RgpArgs>();
  auto *cmd = rgp.add_subcommand(
      "info", "List an .rgp file's chunks: type, index, version major.minor, offset, size");
  cmd->add_option("FILE", args->file, "A Radeon GPU Profiler file (.rgp)")->required();
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    const auto file = read_rgp(args->file);
    if (context.json)
      print_rgp_info_json(std::cout, file);
    else
      print_rgp_info_text(std::cout, file);
  });
}

void register_export(CLI::App &rgp, CliContext &context) {
  auto args = std::make_shared<RgpArgs>();
  auto *cmd = rgp.add_subcommand("export",
                                 "Write a capture as an .rgp file that Radeon GPU Profiler opens");
  cmd->add_option("SOURCE", args->file,
                  "A capture folder, a tinygrad profile.pkl with SQTT, or an .rgp file")
      ->required();
  cmd->add_option("-o,--output", args->output, "The file to write (OUT.rgp)")->required();
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    const auto stats = write_rgp(wavescope::trace::Capture::open(args->file), args->output);
    if (context.json)
      print_rgp_export_json(std::cout, args->output, stats);
    else
      print_rgp_export_text(std::cout, args->output, stats);
  });
}

}  // namespace

void register_rgp_commands(CLI::App &app, CliContext &context) {
  auto *rgp = app.add_subcommand(
      "rgp", "Radeon GPU Profiler files (.rgp): list chunks, export captures; the sqtt verbs open "
             ".rgp files too");
  rgp->require_subcommand(1);
  register_info(*rgp, context);
  register_export(*rgp, context);
}

}  // namespace wavectl
