// wavectl am discovery: parse an IP discovery binary (am-driver.md §3) from a file, the
// synthetic ROM of a fake chip profile, or a device's VRAM (--device; real GPUs untested).
// wavectl am vm map|walk: build GPU page tables (§7.4) in a simulated 512 MiB VRAM and print the
// tables or walk VAs through them; with --device, read the VMID-0 page tables of a GPU AM booted
// (the fake GPU, or untested on hardware a real one) instead: print them or walk VAs through them.

#include <iostream>

#include "commands/hw/am_boot_commands.hpp"
#include "commands/hw/hw_cli.hpp"
#include "commands/hw/hw_commands.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/base/read_file.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/discovery_report.hpp"
#include "wavescope/hw/am/memory_manager.hpp"
#include "wavescope/hw/am/page_table_report.hpp"
#include "wavescope/hw/am/simulated_vram.hpp"
#include "wavescope/hw/am/tlsf_allocator.hpp"

namespace wavectl {

namespace {
namespace am = wavescope::hw::am;

std::vector<std::string> split(const std::string &text, char sep) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  for (std::size_t next; (next = text.find(sep, at)) != std::string::npos; at = next + 1)
    parts.push_back(text.substr(at, next - at));
  parts.push_back(text.substr(at));
  return parts;
}

// A VA: absolute, or +OFFSET from the VM base 0x2000_0000_0000.
std::uint64_t parse_va(const std::string &text, const std::string &what) {
  if (!text.empty() && text[0] == '+')
    return am::PageTable::kVmBase + hw_cli::parse_number(text.substr(1), what);
  return hw_cli::parse_number(text, what);
}

struct VmOptions {
  std::string generation = "gfx11";
  std::vector<std::string> maps, unmaps;
  BootArgs driver;  // --device: a booted GPU's tables instead of the simulated fixture
};

void add_vm_options(CLI::App &cmd, VmOptions &o) {
  add_common(cmd, o.driver, false);
  cmd.get_option("--device")
      ->description(
          "Read the VMID-0 page tables of a GPU AM booted (sim-am:NAME; real GPUs untested on "
          "hardware) instead of building them in the simulated 512 MiB VRAM; no --map/--unmap");
  cmd.add_option("--generation", o.generation, "Page-table generation: gfx9, gfx11, gfx12")
      ->capture_default_str();
  cmd.add_option("--map", o.maps,
                 "VA,SIZE,ADDR[,sys|peer][,uc][,snoop]: map SIZE bytes at VA (absolute or +offset "
                 "from 0x200000000000) onto ADDR (a paddr unless sys/peer); repeatable, in order")
      ->allow_extra_args(false);
  cmd.add_option("--unmap", o.unmaps, "VA,SIZE: unmap after all --map; repeatable, in order")
      ->allow_extra_args(false);
}

// The §7.4 fixture: 512 MiB of simulated VRAM, the root at paddr 0, page tables from the 1 MiB
// region at 32 MiB; applies the maps, then the unmaps.
struct SimulatedVm {
  explicit SimulatedVm(const VmOptions &o)
      : vram(0x2000'0000), ptable(0x10'0000, 0x200'0000, "ptable"),
        pt(vram, ptable, am::PageTableConfig{generation_of(o.generation), 0}) {
    for (const auto &m : o.maps) {
      const auto f = split(m, ',');
      if (f.size() < 3)
        throw wavescope::Error(wavescope::ErrorKind::Usage,
                               "--map '" + m + "': expected VA,SIZE,ADDR[,sys|peer][,uc][,snoop]");
      auto space = am::AddrSpace::Phys;
      bool uncached = false, snooped = false;
      for (std::size_t i = 3; i < f.size(); ++i) {
        if (f[i] == "sys")
          space = am::AddrSpace::Sys;
        else if (f[i] == "peer")
          space = am::AddrSpace::Peer;
        else if (f[i] == "uc")
          uncached = true;
        else if (f[i] == "snoop")
          snooped = true;
        else
          throw wavescope::Error(wavescope::ErrorKind::Usage, "--map '" + m + "': unknown flag '" +
                                                                  f[i] +
                                                                  "' (sys, peer, uc, snoop)");
      }
      const auto size = hw_cli::parse_number(f[1], "--map size");
      const am::PhysChunk chunk{hw_cli::parse_number(f[2], "--map address"), size};
      pt.map_range(parse_va(f[0], "--map va"), size, std::span(&chunk, 1), space, uncached,
                   snooped);
    }
    for (const auto &u : o.unmaps) {
      const auto f = split(u, ',');
      if (f.size() != 2)
        throw wavescope::Error(wavescope::ErrorKind::Usage,
                               "--unmap '" + u + "': expected VA,SIZE");
      pt.unmap_range(parse_va(f[0], "--unmap va"), hw_cli::parse_number(f[1], "--unmap size"));
    }
  }
  static am::PtGeneration generation_of(const std::string &name) {
    if (name == "gfx9") return am::PtGeneration::Gfx9;
    if (name == "gfx11") return am::PtGeneration::Gfx11;
    if (name == "gfx12") return am::PtGeneration::Gfx12;
    throw wavescope::Error(wavescope::ErrorKind::Usage,
                           "unknown page-table generation '" + name + "' (gfx9, gfx11, gfx12)");
  }
  am::SimulatedVram vram;
  am::TlsfAllocator ptable;
  am::PageTable pt;
};

// Runs `body` on the page tables the options name: a booted GPU's (read only) or the fixture's.
void with_page_table(const CLI::App &cmd, const VmOptions &o, const CliContext &context,
                     const std::function<nlohmann::json(const am::PageTable &)> &body) {
  if (cmd.get_option("--device")->count() == 0) {
    SimulatedVm sim(o);
    body(sim.pt);
    return;
  }
  if (!o.maps.empty() || !o.unmaps.empty())
    throw wavescope::Error(wavescope::ErrorKind::Usage,
                           "--map/--unmap build tables in the simulated VRAM; on a --device the "
                           "tables are the driver's (nothing was written)");
  if (cmd.get_option("--generation")->count() > 0)
    throw wavescope::Error(wavescope::ErrorKind::Usage,
                           "--generation: a --device's page-table generation is its GC version's");
  with_driver(
      o.driver, context, "vm",
      [&](auto &, am::AmDevice &device, am::FirmwareSource &fw) {
        am::AmGpu gpu(device, attach_options(fw));
        return body(gpu.mm().page_table());
      },
      false);
}

void register_vm_commands(CLI::App &am_cmd, CliContext &context) {
  auto *vm = am_cmd.add_subcommand(
      "vm", "GPU page tables in a simulated 512 MiB VRAM (root at paddr 0, tables from 0x2000000), "
            "or those of a booted GPU (--device)");
  vm->require_subcommand(1);
  auto *map = vm->add_subcommand("map", "Apply --map/--unmap and print every reachable table");
  auto map_options = std::make_shared<VmOptions>();
  add_vm_options(*map, *map_options);
  add_json_flag(*map, context);
  map->callback([map, map_options, &context] {
    with_page_table(*map, *map_options, context, [&](const am::PageTable &pt) {
      return hw_cli::print_report(am::PageTableReport{pt.config().generation, pt.tables(), {}},
                                  context);
    });
  });
  auto *walk = vm->add_subcommand("walk", "Apply --map/--unmap, then walk each VA");
  auto walk_options = std::make_shared<VmOptions>();
  auto vas = std::make_shared<std::vector<std::string>>();
  add_vm_options(*walk, *walk_options);
  walk->add_option("VA", *vas, "VAs to translate (absolute or +offset)")->required();
  add_json_flag(*walk, context);
  walk->callback([walk, walk_options, vas, &context] {
    with_page_table(*walk, *walk_options, context, [&](const am::PageTable &pt) {
      am::PageTableReport report{pt.config().generation, {}, {}};
      for (const auto &va : *vas) report.walks.push_back(pt.walk(parse_va(va, "VA")));
      return hw_cli::print_report(report, context);
    });
  });
}
}  // namespace

void register_am_commands(CLI::App &app, CliContext &context) {
  auto *am = app.add_subcommand(
      "am", "AM userspace-driver tools: discovery, boot, fini, smi, page tables (real GPUs: "
            "untested on hardware)");
  am->require_subcommand(1);
  register_vm_commands(*am, context);
  register_am_boot_commands(*am, context);
  auto *cmd = am->add_subcommand(
      "discovery", "Parse an IP discovery table: --table FILE, --profile NAME (fake chip) or "
                   "--device D (read from VRAM top - 64 KiB; real GPUs untested on hardware)");
  auto table = std::make_shared<std::string>();
  auto profile = std::make_shared<std::string>();
  auto no_checksum = std::make_shared<bool>(false);
  auto device = std::make_shared<hw_cli::DeviceOptions>();
  cmd->add_option("--table", *table, "A discovery binary (e.g. dumped from VRAM top - 64 KiB)");
  cmd->add_option("--profile", *profile,
                  "A fake chip profile: tinygrad-mock, navi31, navi48, mi300x, mi300x-harvest");
  cmd->add_flag("--no-checksum", *no_checksum, "Do not verify the table checksums (AM does not)");
  hw_cli::add_device_options(*cmd, *device);
  add_json_flag(*cmd, context);
  cmd->callback([table, profile, no_checksum, device, &context] {
    const int sources = !table->empty() + !profile->empty() + !device->device.empty();
    if (sources != 1)
      throw wavescope::Error(
          wavescope::ErrorKind::Usage,
          "am discovery: give exactly one of --table FILE, --profile NAME or --device D");
    if (!device->device.empty()) {
      hw_cli::run_on_device(
          *device, context, "am discovery", {true, false},
          [&](wavescope::hw::device::OpenedDevice &dev) {
            am::AmDeviceOptions options;
            options.verify_discovery_checksums = !*no_checksum;
            am::AmDevice gpu(dev.function(), dev.clock(), options);
            return hw_cli::print_report(am::DiscoveryReport{dev.id(), gpu.discovery()}, context);
          });
      return;
    }
    std::vector<std::uint8_t> bytes;
    std::string source;
    if (!table->empty()) {
      bytes = wavescope::read_file_bytes(*table);
      source = *table;
    } else {
      bytes = am::build_discovery_rom(am::chip_profile(*profile));
      source = "profile:" + *profile;
    }
    const auto t = am::parse_ip_discovery(bytes, {!*no_checksum});
    hw_cli::print_report(am::DiscoveryReport{source, t}, context);
  });
}

}  // namespace wavectl
