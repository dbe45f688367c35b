// wavectl's ifwi subcommands: inspect a Navi31 flash image, make the synthesized test image.

#include <iostream>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "wavescope/base/atomic_file.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/ifwi/image_report.hpp"

namespace wavectl {
namespace {

using namespace wavescope::hw::ifwi;

void run_inspect(const std::string &file, bool check_only, const CliContext &context) {
  const auto report = inspect_image(wavescope::read_file_bytes(file), file);
  hw_cli::print_report(report, context);
  if (check_only) report.check.require_accepted();
}

struct MakeTestImageArgs {
  std::string output;
  std::uint32_t seed = TestImageOptions{}.seed;
  std::uint32_t slot_size = TestImageOptions{}.slot_size;
  std::uint16_t device_id = TestImageOptions{}.device_id;
  std::string corruption = "none";
};

void run_make_test_image(const MakeTestImageArgs &args, const CliContext &context) {
  TestImageOptions options;
  options.seed = args.seed;
  options.slot_size = args.slot_size;
  options.device_id = args.device_id;
  options.corruption = parse_test_image_corruption(args.corruption);
  const auto image = make_test_ifwi_image(options);
  wavescope::write_file_atomically(args.output,
                                   std::span<const unsigned char>(image.data(), image.size()));
  const TestImageReport report{args.output, image.size(), wavescope::sha256_hex(image), options};
  hw_cli::print_report(report, context);
}

}  // namespace

void register_ifwi_commands(CLI::App &app, CliContext &context) {
  auto *ifwi = app.add_subcommand("ifwi", "Navi31 flash images (IFWI): inspect, make a test image");
  ifwi->require_subcommand(1);

  auto *inspect = ifwi->add_subcommand(
      "inspect", "Show an image's EFS header, $PSP directories, $SGN table, ISH A/B, partitions, "
                 "PSP recovery items, and whether `flash write` would accept it");
  auto file = std::make_shared<std::string>();
  auto check_only = std::make_shared<bool>(false);
  inspect->add_option("FILE", *file, "2 MiB flash image")->required();
  inspect->add_flag("--check", *check_only,
                    "Exit with code 3 when `flash write` would refuse the image");
  add_json_flag(*inspect, context);
  inspect->callback([=, &context] { run_inspect(*file, *check_only, context); });

  auto *make = ifwi->add_subcommand(
      "make-test-image",
      "Write the deterministic synthesized Navi31 image (navi31-flash.md §10.12), atomically");
  auto args = std::make_shared<MakeTestImageArgs>();
  make->add_option("OUT", args->output, "Output file")->required();
  make->add_option("--seed", args->seed, "PRNG seed (default 0x1F31)");
  make->add_option("--slot-size", args->slot_size,
                   "Partition slot size, a multiple of 0x1000 in [0x30000, 0xE0000] "
                   "(default 0xC0000; 0x40000 is the small profile)");
  make->add_option("--device-id", args->device_id, "PCI device id in the VBIOS (default 0x744C)");
  make->add_option("--corrupt", args->corruption,
                   "Make a broken image for testing refusals: bad-magic, missing-psp, "
                   "bad-psp-checksum, psp-entry-outside, sgn-pointer-out-of-range, bad-sgn-magic, "
                   "missing-sgn-type, ish-slot-outside, ish-slot-size-unaligned, mirrored-halves, "
                   "truncated, wrong-device-id");
  add_json_flag(*make, context);
  make->callback([=, &context] { run_make_test_image(*args, context); });
}

}  // namespace wavectl
