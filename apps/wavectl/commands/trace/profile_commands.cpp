// wavectl profile: profiles (tinygrad's profile.pkl, Chrome/Perfetto trace JSON) through
// libtrace's profile model: `events` lists them as tinygrad VIZ's CLI does, `info` summarises,
// `export` writes Chrome trace JSON.

#include <iostream>
#include <memory>

#include "commands/trace/trace_commands.hpp"
#include "wavescope/trace/profile/chrome_trace.hpp"
#include "wavescope/trace/profile/open_profile.hpp"
#include "wavescope/trace/profile/profile_summary.hpp"
#include "wavescope/trace/profile/viz_cli_events.hpp"

namespace wavectl {
namespace {

using namespace wavescope::trace::profile;

struct ProfileArgs {
  std::string file;
  bool exact = false;
  std::string output;
};

void register_events(CLI::App &profile, CliContext &context) {
  auto args = std::make_shared<ProfileArgs>();
  auto *cmd = profile.add_subcommand(
      "events", "The profile's events in tinygrad VIZ's CLI order (sources, then spans by start)");
  cmd->add_option("FILE", args->file, "A tinygrad profile.pkl or a Chrome/Perfetto trace JSON")
      ->required();
  cmd->add_flag("--exact", args->exact,
                "Exact times (picoseconds) instead of VIZ's packed ones (whole-microsecond "
                "starts, 32-bit float durations)");
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    const auto events =
        viz_cli_events(open_profile(args->file), args->exact ? VizTimes::Exact : VizTimes::Packed);
    if (context.json)
      print_viz_cli_json(std::cout, events);
    else
      print_viz_cli_text(std::cout, events);
  });
}

void register_info(CLI::App &profile, CliContext &context) {
  auto args = std::make_shared<ProfileArgs>();
  auto *cmd = profile.add_subcommand(
      "info", "Summarise a profile: devices, tracks, kernels, buffers and the memory peak");
  cmd->add_option("FILE", args->file, "A tinygrad profile.pkl or a Chrome/Perfetto trace JSON")
      ->required();
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    const auto summary = summarize(open_profile(args->file));
    if (context.json)
      print_summary_json(std::cout, summary);
    else
      print_summary_text(std::cout, summary);
  });
}

void register_export(CLI::App &profile, CliContext &context) {
  auto args = std::make_shared<ProfileArgs>();
  auto *cmd = profile.add_subcommand(
      "export", "Write Chrome trace-event JSON that Perfetto and chrome://tracing open");
  cmd->add_option("SOURCE", args->file,
                  "A tinygrad profile.pkl, a Chrome/Perfetto trace JSON or a capture folder")
      ->required();
  cmd->add_option("-o,--output", args->output, "The trace to write (OUT.json)")->required();
  add_json_flag(*cmd, context);
  cmd->callback([args, &context] {
    const auto source = open_profile_source(args->file);
    ChromeTraceOptions options;
    if (source.capture) options.capture = &*source.capture;
    const auto stats = write_chrome_trace(source.profile, args->output, options);
    if (context.json)
      print_export_json(std::cout, args->output, stats);
    else
      print_export_text(std::cout, args->output, stats);
  });
}

}  // namespace

void register_profile_commands(CLI::App &app, CliContext &context) {
  auto *profile = app.add_subcommand(
      "profile", "Read profiles: tinygrad's profile.pkl (VIZ=-2), Chrome/Perfetto trace JSON");
  profile->require_subcommand(1);
  register_events(*profile, context);
  register_info(*profile, context);
  register_export(*profile, context);
}

}  // namespace wavectl
