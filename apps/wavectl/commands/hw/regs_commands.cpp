// wavectl regs find|decode|encode: the register database (am-driver.md §4) offline — search
// registers of a chip (or of every table) and decode a value into every field.
// wavectl regs read|write --device D: a register (or one field) of a device, named from its own
// discovery table; writes to real hardware only with --yes (untested on hardware).

#include <iostream>
#include <memory>

#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/register_io_report.hpp"
#include "wavescope/hw/regs/register_codec.hpp"
#include "wavescope/hw/regs/register_report.hpp"

namespace wavectl {
namespace {

namespace regs = wavescope::hw::regs;

regs::RegisterMap map_for(const std::string &asic) {
  return asic.empty() ? regs::RegisterMap::all_tables() : regs::RegisterMap::for_asic(asic);
}

const char *kAsicHelp = "The chip whose IP versions choose the tables: navi31, navi48, mi300x or "
                        "tinygrad-mock (default: every table, IP = the table's name, e.g. "
                        "gc_11_0_0)";

struct IoArgs {
  hw_cli::DeviceOptions device;
  std::string name, value;
  unsigned instance = 0;
  bool yes = false;
};

void add_io_options(CLI::App &cmd, IoArgs &a) {
  cmd.add_option("NAME", a.name,
                 "IP.REG or IP.REG.FIELD (or REG[.FIELD] when unique), e.g. "
                 "gc.SCRATCH_REG7, mp1.MP1_SMN_C2PMSG_90")
      ->required();
  cmd.add_option("--instance", a.instance, "IP instance (XCC of GC, AID of MMHUB; default 0)");
  hw_cli::add_device_options(cmd, a.device);
}

void read_register(const IoArgs &a, const CliContext &ctx) {
  hw_cli::run_on_device(
      a.device, ctx, "regs read", {true, false}, [&](wavescope::hw::device::OpenedDevice &dev) {
        namespace am = wavescope::hw::am;
        am::AmDevice gpu(dev.function(), dev.clock());
        const auto &ref = gpu.reg(a.name);
        am::RegisterIoReport r{dev.id(), ref, a.instance, gpu.address(a.name, a.instance), 0, {}};
        r.value = gpu.read_dword(r.address);
        return hw_cli::print_report(r, ctx);
      });
}

void write_register(const IoArgs &a, const CliContext &ctx) {
  const auto value = hw_cli::parse_number(a.value, "VALUE");
  if (!a.yes && !(a.device.device.starts_with("sim")))
    throw wavescope::Error(wavescope::ErrorKind::Usage,
                           "regs write changes a register of a real GPU (untested on hardware): "
                           "add --yes to confirm (nothing was written)");
  hw_cli::run_on_device(
      a.device, ctx, "regs write", {false, false}, [&](wavescope::hw::device::OpenedDevice &dev) {
        namespace am = wavescope::hw::am;
        am::AmDevice gpu(dev.function(), dev.clock());
        const auto &ref = gpu.reg(a.name);
        am::RegisterIoReport r{dev.id(), ref, a.instance, gpu.address(a.name, a.instance), 0, {}};
        std::uint32_t stored = 0;
        if (ref.field) {
          const std::pair<std::string_view, std::uint64_t> f{ref.field->name, value};
          stored = regs::read_modify_write(
              [&](std::uint64_t at) { return gpu.read_dword(at); },
              [&](std::uint64_t at, std::uint32_t v) { gpu.write_dword(at, v); }, r.address,
              *ref.reg, std::span(&f, 1));
        } else {
          if (value > 0xFFFF'FFFFull)
            throw wavescope::Error(wavescope::ErrorKind::Usage,
                                   "VALUE " + a.value + " is wider than a 32-bit register");
          stored = static_cast<std::uint32_t>(value);
          gpu.write_dword(r.address, stored);
        }
        r.written = stored;
        r.value = gpu.read_dword(r.address);
        return hw_cli::print_report(r, ctx);
      });
}

}  // namespace

void register_regs_commands(CLI::App &app, CliContext &context) {
  auto *group = app.add_subcommand(
      "regs", "The register database (every register and field of the kernel's asic_reg "
              "headers for GC 9.4.3/11/12, MMHUB, NBIO/NBIF, MP, HDP, OSSSYS, SDMA)");
  group->require_subcommand(1);

  auto *find = group->add_subcommand(
      "find", "Registers matching [IP.]REG: '*' and '?' are wildcards, else a substring; "
              "case-insensitive; names with or without reg/mm");
  auto pattern = std::make_shared<std::string>();
  auto find_asic = std::make_shared<std::string>();
  find->add_option("PATTERN", *pattern, "e.g. GRBM_STATUS, gc.CP_HQD_*, mp1.*C2PMSG_6?")
      ->required();
  find->add_option("--asic", *find_asic, kAsicHelp);
  add_json_flag(*find, context);
  find->callback([pattern, find_asic, &context] {
    const auto map = map_for(*find_asic);
    const regs::RegisterFindReport report{*pattern, map.description(),
                                          regs::find_registers(map, *pattern)};
    std::cout << (context.json ? to_json(report) : to_text(report));
  });

  auto *decode = group->add_subcommand(
      "decode", "Decode VALUE into every field of register NAME (IP.REG, REG, or REG.FIELD / "
                "IP.REG.FIELD for one field)");
  auto name = std::make_shared<std::string>();
  auto value = std::make_shared<std::string>();
  auto decode_asic = std::make_shared<std::string>();
  decode->add_option("NAME", *name, "e.g. gc.GRBM_STATUS (with --asic), gc_11_0_0.CP_RB0_CNTL")
      ->required();
  decode->add_option("VALUE", *value, "decimal or 0x-prefixed hex")->required();
  decode->add_option("--asic", *decode_asic, kAsicHelp);
  add_json_flag(*decode, context);
  decode->callback([name, value, decode_asic, &context] {
    const auto map = map_for(*decode_asic);
    const regs::RegisterDecodeReport report{regs::resolve_register(map, *name),
                                            hw_cli::parse_number(*value, "VALUE")};
    std::cout << (context.json ? to_json(report) : to_text(report));
  });

  auto *encode = group->add_subcommand(
      "encode", "Encode FIELD=VALUE assignments into register NAME's value (the others from "
                "--base, default 0) and print it decoded");
  auto enc_name = std::make_shared<std::string>();
  auto assignments = std::make_shared<std::vector<std::string>>();
  auto base = std::make_shared<std::string>("0");
  auto encode_asic = std::make_shared<std::string>();
  encode->add_option("NAME", *enc_name, "e.g. gc.CP_RB0_CNTL (with --asic)")->required();
  encode->add_option("FIELD=VALUE", *assignments, "field values, decimal or 0x-prefixed hex")
      ->required();
  encode->add_option("--base", *base, "the value of the fields not assigned (default 0)");
  encode->add_option("--asic", *encode_asic, kAsicHelp);
  add_json_flag(*encode, context);
  encode->callback([enc_name, assignments, base, encode_asic, &context] {
    const auto map = map_for(*encode_asic);
    auto ref = regs::resolve_register(map, *enc_name);
    std::vector<std::pair<std::string_view, std::uint64_t>> fields;
    for (const auto &a : *assignments) {
      const auto eq = a.find('=');
      if (eq == std::string::npos || eq == 0)
        throw wavescope::Error(wavescope::ErrorKind::Usage,
                               "regs encode: '" + a + "' is not FIELD=VALUE");
      fields.emplace_back(std::string_view(a).substr(0, eq),
                          hw_cli::parse_number(a.substr(eq + 1), a.substr(0, eq)));
    }
    const auto encoded =
        regs::update_register_value(*ref.reg, hw_cli::parse_number(*base, "--base"), fields);
    ref.field = nullptr;
    const regs::RegisterDecodeReport report{ref, encoded};
    std::cout << (context.json ? to_json(report) : to_text(report));
  });

  auto *read = group->add_subcommand(
      "read", "Read register NAME (or NAME.FIELD) of a device, named from its discovery table "
              "(real GPUs: untested on hardware)");
  auto read_args = std::make_shared<IoArgs>();
  add_io_options(*read, *read_args);
  add_json_flag(*read, context);
  read->callback([read_args, &context] { read_register(*read_args, context); });

  auto *write = group->add_subcommand(
      "write", "Write VALUE to register NAME of a device (NAME.FIELD: read-modify-write of that "
               "field), then read it back; a real GPU needs --yes (untested on hardware)");
  auto write_args = std::make_shared<IoArgs>();
  add_io_options(*write, *write_args);
  write->add_option("VALUE", write_args->value, "decimal or 0x-prefixed hex")->required();
  write->add_flag("--yes", write_args->yes,
                  "Confirm a write to a real GPU (simulators need no confirmation)");
  add_json_flag(*write, context);
  write->callback([write_args, &context] { write_register(*write_args, context); });
}

}  // namespace wavectl
