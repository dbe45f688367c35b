#include "wavescope/hw/am/boot_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/firmware_set.hpp"

namespace wavescope::hw::am {

namespace {
std::string hex(std::uint64_t v) { return fmt::format("0x{:X}", v); }
}  // namespace

BootReport boot_report(AmGpu &gpu, const std::string &device, const std::string &command) {
  BootReport r;
  r.device = device;
  r.command = command;
  r.record = gpu.record();
  r.allocations = gpu.mm().allocations();
  r.psp_ring_paddr = gpu.psp().ring_paddr();
  r.psp_ring_size = AmPsp::kRingSize;
  r.bootloader_loads = gpu.psp().bootloader_loads();
  r.psp_commands = gpu.psp().commands();
  r.smu_ids = gpu.smu().ids();
  r.smu_messages = gpu.smu().messages();
  r.scratch_reg7 = gpu.device().rreg("gc.SCRATCH_REG7");
  r.scratch_reg6 = gpu.device().rreg("gc.SCRATCH_REG6");
  r.firmware = gpu.fw().source();
  return r;
}

std::string to_json(const BootReport &r) {
  nlohmann::ordered_json j;
  j["device"] = r.device;
  j["command"] = r.command;
  if (r.command == "boot") {
    j["mode"] = r.record.mode == BootMode::Partial ? "partial" : "full";
    j["reason"] = r.record.reason;
    j["mode1_reset"] = r.record.mode1_reset;
  }
  j["steps"] = r.record.steps;
  nlohmann::ordered_json allocs = nlohmann::ordered_json::array();
  for (const auto &a : r.allocations)
    allocs.push_back(
        {{"owner", a.owner}, {"paddr", hex(a.paddr)}, {"size", hex(a.size)}, {"boot", a.boot}});
  j["allocations"] = allocs;
  j["firmware"] = r.firmware;
  nlohmann::ordered_json loads = nlohmann::ordered_json::array();
  for (const auto &l : r.bootloader_loads)
    loads.push_back({{"command", psp_bootloader_command_name(l.command)},
                     {"c2pmsg_35", hex(l.command)},
                     {"component", psp_fw_type_name(l.component)},
                     {"c2pmsg_36", hex(l.msg1_reg)},
                     {"size", hex(l.size)}});
  j["psp_bootloader"] = loads;
  j["psp_ring"] = {{"paddr", hex(r.psp_ring_paddr)}, {"size", hex(r.psp_ring_size)}};
  nlohmann::ordered_json cmds = nlohmann::ordered_json::array();
  for (const auto &c : r.psp_commands) {
    nlohmann::ordered_json o;
    o["command"] = psp_command_name(c.cmd_id);
    o["wptr"] = hex(c.wptr);
    if (c.cmd_id == psp_cmd::kLoadIpFw) o["fw_type"] = gfx_fw_type_name(c.fw_type);
    if (c.cmd_id == psp_cmd::kLoadIpFw || c.cmd_id == psp_cmd::kLoadToc ||
        c.cmd_id == psp_cmd::kSetupTmr)
      o["size"] = hex(c.size);
    if (c.cmd_id == psp_cmd::kSetupTmr) o["address"] = hex(c.address);
    if (c.cmd_id == psp_cmd::kLoadToc) o["tmr_size"] = hex(c.tmr_size);
    cmds.push_back(o);
  }
  j["psp_commands"] = cmds;
  nlohmann::ordered_json msgs = nlohmann::ordered_json::array();
  for (const auto &m : r.smu_messages) {
    nlohmann::ordered_json o;
    o["message"] =
        m.debug ? fmt::format("debug 0x{:X}", m.msg) : smu_message_name(r.smu_ids, m.msg);
    o["id"] = hex(m.msg);
    o["arg"] = hex(m.arg);
    o["response"] = hex(m.response);
    if (m.result) o["result"] = hex(*m.result);
    if (m.timed_out) o["timed_out"] = true;
    msgs.push_back(o);
  }
  j["smu_messages"] = msgs;
  j["scratch_reg7"] = hex(r.scratch_reg7);
  j["scratch_reg6"] = hex(r.scratch_reg6);
  return json_line(j) + '\n';
}

std::string to_text(const BootReport &r) {
  std::string out;
  if (r.command == "boot")
    out += fmt::format("{}: {} boot ({}){}\n", r.device,
                       r.record.mode == BootMode::Partial ? "partial" : "full", r.record.reason,
                       r.record.mode1_reset ? ", after a mode-1 reset" : "");
  else
    out += fmt::format("{}: {}\n", r.device, r.command);
  out += "steps:\n";
  for (const auto &s : r.record.steps) out += "  " + s + "\n";
  if (!r.allocations.empty()) {
    out += "boot allocations:\n";
    for (const auto &a : r.allocations)
      out += fmt::format("  0x{:08X} 0x{:08X} {}\n", a.paddr, a.size, a.owner);
  }
  if (!r.bootloader_loads.empty() || !r.psp_commands.empty())
    out += fmt::format("PSP (firmware: {}): KM ring at 0x{:X}, 0x{:X} bytes\n", r.firmware,
                       r.psp_ring_paddr, r.psp_ring_size);
  for (const auto &l : r.bootloader_loads)
    out += fmt::format("  bootloader {:<18} C2PMSG_35 0x{:08X} C2PMSG_36 0x{:X}  {} 0x{:X} bytes\n",
                       psp_bootloader_command_name(l.command), l.command, l.msg1_reg,
                       psp_fw_type_name(l.component), l.size);
  for (const auto &c : r.psp_commands) {
    std::string what;
    if (c.cmd_id == psp_cmd::kLoadIpFw)
      what = fmt::format(" {} 0x{:X} bytes", gfx_fw_type_name(c.fw_type), c.size);
    if (c.cmd_id == psp_cmd::kLoadToc)
      what = fmt::format(" 0x{:X} bytes, TMR size 0x{:X}", c.size, c.tmr_size);
    if (c.cmd_id == psp_cmd::kSetupTmr)
      what = fmt::format(" at 0x{:X}, 0x{:X} bytes", c.address, c.size);
    out += fmt::format("  wptr 0x{:02X} {}{}\n", c.wptr, psp_command_name(c.cmd_id), what);
  }
  if (!r.smu_messages.empty()) {
    out += fmt::format("SMU: {} messages\n", r.smu_messages.size());
    for (const auto &m : r.smu_messages)
      out += fmt::format("  {:<22} 0x{:02X}({:#x}) -> 0x{:X}{}{}\n",
                         m.debug ? "debug" : smu_message_name(r.smu_ids, m.msg), m.msg, m.arg,
                         m.response, m.result ? fmt::format(" = {:#x}", *m.result) : "",
                         m.timed_out ? " (timeout, ignored)" : "");
  }
  out +=
      fmt::format("SCRATCH_REG7 0x{:08X}, SCRATCH_REG6 0x{:X}\n", r.scratch_reg7, r.scratch_reg6);
  return out;
}

}  // namespace wavescope::hw::am
