#include "wavescope/hw/am/psp.hpp"

#include <array>
#include <chrono>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/am_device.hpp"
#include "wavescope/hw/am/am_gpu.hpp"
#include "wavescope/hw/am/firmware_set.hpp"
#include "wavescope/hw/am/memory_manager.hpp"

namespace wavescope::hw::am {

namespace {

using namespace std::chrono_literals;
constexpr auto kTimeout = std::chrono::seconds(10);
constexpr std::size_t kCmdSize = 1024, kFrameSize = 64, kRespStatus = 864, kRespTmrSize = 880;

void put32(std::vector<std::uint8_t> &b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace

std::string psp_command_name(std::uint32_t id) {
  switch (id) {
  case psp_cmd::kSetupTmr: return "SETUP_TMR";
  case psp_cmd::kLoadIpFw: return "LOAD_IP_FW";
  case psp_cmd::kLoadToc: return "LOAD_TOC";
  case psp_cmd::kAutoloadRlc: return "AUTOLOAD_RLC";
  case psp_cmd::kSriovSpatialPart: return "SRIOV_SPATIAL_PART";
  default: return fmt::format("CMD_0x{:X}", id);
  }
}

std::string psp_bootloader_command_name(std::uint32_t c) {
  switch (c) {
  case psp_bl::kLoadKeyDatabase: return "LOAD_KEY_DATABASE";
  case psp_bl::kLoadTosSplTable: return "LOAD_TOS_SPL_TABLE";
  case psp_bl::kLoadSysDrv: return "LOAD_SYSDRV";
  case psp_bl::kLoadSocDrv: return "LOAD_SOCDRV";
  case psp_bl::kLoadIntfDrv: return "LOAD_INTFDRV";
  case psp_bl::kLoadDbgDrv: return "LOAD_DBGDRV";
  case psp_bl::kLoadRasDrv: return "LOAD_RASDRV";
  case psp_bl::kLoadSosDrv: return "LOAD_SOSDRV";
  default: return fmt::format("BL_0x{:X}", c);
  }
}

AmPsp::AmPsp(AmGpu &gpu) : gpu_(gpu) {
  const auto mp0 = gpu_.device().ip_version("MP0");
  prefix_ = mp0.major >= 14 ? "mp0.MPASP_SMN_C2PMSG_" : "mp0.MP0_SMN_C2PMSG_";
  const auto is = [&](unsigned a, unsigned b, unsigned c) {
    return mp0 == regs::IpVersion{a, b, c};
  };
  boot_time_tmr_ = is(13, 0, 6) || is(13, 0, 14) || is(14, 0, 2) || is(14, 0, 3);
  autoload_tmr_ = !(is(13, 0, 6) || is(13, 0, 14));
}

std::string AmPsp::reg(unsigned n) const { return prefix_ + std::to_string(n); }

void AmPsp::init_sw() {
  auto &mm = gpu_.mm();
  const bool zero = false;  // AM leaves them as they are (the fence buffer is zeroed)
  msg1_paddr_ = mm.palloc(kMsg1Size, kMsg1Size, zero, true, "PSP message buffer (msg1)");
  msg1_addr_ = gpu_.gmc().paddr2mc(msg1_paddr_);
  cmd_paddr_ = mm.palloc(0x1000, 0x1000, zero, true, "PSP command buffer");
  fence_paddr_ = mm.palloc(0x1000, 0x1000, !gpu_.attached(), true, "PSP fence buffer");
  ring_paddr_ = mm.palloc(kRingSize, 0x1000, zero, true, "PSP KM ring");
  if (!boot_time_tmr_) tmr_paddr_ = mm.palloc(kMaxTmrSize, 1 << 20, zero, true, "PSP TMR");
}

bool AmPsp::is_sos_alive() { return gpu_.device().rreg(reg(81)) != 0; }

void AmPsp::wait_bootloader() {
  gpu_.device().wait_reg(reg(35), 0x8000'0000, 0x8000'0000, kTimeout, "BL not ready");
}

void AmPsp::prep_msg1(const std::uint8_t *data, std::size_t size) {
  if (size > kMsg1Size)
    throw Error(ErrorKind::BadInput, fmt::format("PSP: a 0x{:X}-byte image does not fit the "
                                                 "1 MiB message buffer",
                                                 size));
  // The payload, 4 zero bytes, padded to 16 (§9.3), then an HDP flush.
  std::vector<std::uint8_t> padded(data, data + size);
  padded.resize((size + 4 + 15) / 16 * 16, 0);
  gpu_.device().write_vram(msg1_paddr_, padded);
  gpu_.gmc().flush_hdp();
}

void AmPsp::load_component(std::uint32_t component, std::uint32_t command) {
  if (!gpu_.fw().has_sos(component)) return;
  auto &dev = gpu_.device();
  wait_bootloader();
  const auto bytes = gpu_.fw().sos(component);
  prep_msg1(bytes.data(), bytes.size());
  const auto msg36 = static_cast<std::uint32_t>(msg1_addr_ >> 20);
  dev.wreg(reg(36), msg36);
  dev.wreg(reg(35), command);
  loads_.push_back({component, command, msg36, bytes.size()});
  gpu_.log(fmt::format("PSP bootloader {} ({}, 0x{:X} bytes)", psp_bootloader_command_name(command),
                       psp_fw_type_name(component), bytes.size()));
  if (command != psp_bl::kLoadSosDrv) wait_bootloader();
}

void AmPsp::ring_create() {
  auto &dev = gpu_.device();
  if (dev.rreg(reg(71)) != 0) {
    dev.wreg(reg(64), 0x3'0000);  // GFX_CTRL_CMD_ID_DESTROY_RINGS
    dev.clock().sleep(20ms);
  }
  dev.wait_reg(reg(64), 0x8000'0000, 0x8000'0000, kTimeout, "sOS not ready");
  const auto mc = gpu_.gmc().paddr2mc(ring_paddr_);
  dev.wreg(reg(69), static_cast<std::uint32_t>(mc));
  dev.wreg(reg(70), static_cast<std::uint32_t>(mc >> 32));
  dev.wreg(reg(71), static_cast<std::uint32_t>(kRingSize));
  dev.wreg(reg(64), 2u << 16);  // PSP_RING_TYPE__KM
  dev.clock().sleep(20ms);
  dev.wait_reg(reg(64), 0x8000'FFFF, 0x8000'0000, kTimeout, "sOS ring not created");
  gpu_.log(
      fmt::format("PSP KM ring at 0x{:X} (MC 0x{:X}), 0x{:X} bytes", ring_paddr_, mc, kRingSize));
}

PspCommand AmPsp::submit(std::uint32_t cmd_id, const std::vector<std::uint8_t> &payload,
                         PspCommand record) {
  auto &dev = gpu_.device();
  const auto prev = dev.rreg(reg(67));
  const std::uint32_t fence = prev + 1;
  std::vector<std::uint8_t> cmd(kCmdSize, 0);
  put32(cmd, 8, cmd_id);
  std::copy(payload.begin(), payload.end(), cmd.begin() + 28);
  const auto cmd_mc = gpu_.gmc().paddr2mc(cmd_paddr_);
  const auto fence_mc = gpu_.gmc().paddr2mc(fence_paddr_);
  std::vector<std::uint8_t> frame(kFrameSize, 0);
  put32(frame, 0, static_cast<std::uint32_t>(cmd_mc));
  put32(frame, 4, static_cast<std::uint32_t>(cmd_mc >> 32));
  put32(frame, 12, static_cast<std::uint32_t>(fence_mc));
  put32(frame, 16, static_cast<std::uint32_t>(fence_mc >> 32));
  put32(frame, 20, fence);
  dev.write_vram(cmd_paddr_, cmd);
  dev.write_vram(ring_paddr_ + std::uint64_t{prev} * 4, frame);
  const std::uint32_t wptr = prev + kFrameSize / 4;
  dev.wreg(reg(67), wptr);
  std::uint32_t seen = 0;
  dev.wait_until(
      [&] {
        seen = dev.read_vram32(fence_paddr_);
        return seen == fence;
      },
      kTimeout,
      fmt::format("sOS ring not responding ({} fence 0x{:X})", psp_command_name(cmd_id), fence),
      [&] { return fmt::format("the fence at VRAM 0x{:X} holds 0x{:X}", fence_paddr_, seen); });
  std::array<std::uint8_t, 24> resp{};
  dev.read_vram(cmd_paddr_ + kRespStatus, resp);
  const auto u32 = [&](std::size_t at) {
    return resp[at] | resp[at + 1] << 8 | resp[at + 2] << 16 | std::uint32_t{resp[at + 3]} << 24;
  };
  const auto status = u32(0);
  record.cmd_id = cmd_id;
  record.wptr = wptr;
  if (cmd_id == psp_cmd::kLoadToc) record.tmr_size = u32(kRespTmrSize - kRespStatus);
  commands_.push_back(record);
  gpu_.log(fmt::format(
      "PSP {}{} wptr 0x{:X}", psp_command_name(cmd_id),
      cmd_id == psp_cmd::kLoadIpFw
          ? fmt::format(" {} 0x{:X} bytes", gfx_fw_type_name(record.fw_type), record.size)
          : std::string(),
      wptr));
  if (status != 0)
    throw Error(ErrorKind::Firmware,
                fmt::format("PSP command failed {} (0x{:X}) status 0x{:X}{}",
                            psp_command_name(cmd_id), cmd_id, status,
                            cmd_id == psp_cmd::kLoadIpFw
                                ? fmt::format(" loading {}", gfx_fw_type_name(record.fw_type))
                                : std::string()));
  return record;
}

void AmPsp::load_ip_fw(const std::vector<std::uint32_t> &types, const std::uint8_t *data,
                       std::size_t size) {
  prep_msg1(data, size);
  for (const auto type : types) {
    std::vector<std::uint8_t> p(16, 0);
    put32(p, 0, static_cast<std::uint32_t>(msg1_addr_));
    put32(p, 4, static_cast<std::uint32_t>(msg1_addr_ >> 32));
    put32(p, 8, static_cast<std::uint32_t>(size));
    put32(p, 12, type);
    PspCommand r;
    r.fw_type = type;
    r.size = size;
    r.address = msg1_addr_;
    submit(psp_cmd::kLoadIpFw, p, r);
  }
}

void AmPsp::init_hw() {
  const bool mp0_14 = gpu_.device().ip_version("MP0").major >= 14;
  const std::pair<std::uint32_t, std::uint32_t> components[] = {
      {psp_fw::kKdb, psp_bl::kLoadKeyDatabase},
      {mp0_14 ? psp_fw::kSpl : psp_fw::kKdb, psp_bl::kLoadTosSplTable},
      {psp_fw::kSysDrv, psp_bl::kLoadSysDrv},
      {psp_fw::kSocDrv, psp_bl::kLoadSocDrv},
      {psp_fw::kIntfDrv, psp_bl::kLoadIntfDrv},
      {psp_fw::kDbgDrv, psp_bl::kLoadDbgDrv},
      {psp_fw::kRasDrv, psp_bl::kLoadRasDrv},
      {psp_fw::kSos, psp_bl::kLoadSosDrv}};
  if (!is_sos_alive()) {
    for (const auto &[component, command] : components) load_component(component, command);
    gpu_.device().wait_until([&] { return is_sos_alive(); }, kTimeout, "sOS failed to start",
                             [&] { return fmt::format("{} reads 0", reg(81)); });
  }
  ring_create();
  auto &fw = gpu_.fw();
  if (fw.has_sos(psp_fw::kToc)) {
    const auto toc = fw.sos(psp_fw::kToc);
    prep_msg1(toc.data(), toc.size());
    std::vector<std::uint8_t> p(12, 0);
    put32(p, 0, static_cast<std::uint32_t>(msg1_addr_));
    put32(p, 4, static_cast<std::uint32_t>(msg1_addr_ >> 32));
    put32(p, 8, static_cast<std::uint32_t>(toc.size()));
    PspCommand r;
    r.size = toc.size();
    r.address = msg1_addr_;
    tmr_size_ = submit(psp_cmd::kLoadToc, p, r).tmr_size;
    if (tmr_size_ > kMaxTmrSize)
      throw Error(ErrorKind::Firmware,
                  fmt::format("PSP: LOAD_TOC asks for a 0x{:X}-byte TMR, more than the 0x{:X} AM "
                              "reserves",
                              tmr_size_, kMaxTmrSize));
  }
  if (const auto &smu = fw.smu_image()) load_ip_fw(smu->fw_types, smu->bytes.data(), smu->size);
  if (!boot_time_tmr_ || !autoload_tmr_) {
    const std::uint64_t mc = tmr_paddr_ ? gpu_.gmc().paddr2mc(tmr_paddr_) : 0;
    const std::uint64_t xgmi = tmr_paddr_ ? gpu_.gmc().paddr2xgmi(tmr_paddr_) : 0;
    std::vector<std::uint8_t> p(24, 0);
    put32(p, 0, static_cast<std::uint32_t>(mc));
    put32(p, 4, static_cast<std::uint32_t>(mc >> 32));
    put32(p, 8, tmr_paddr_ ? tmr_size_ : 0);
    put32(p, 12, 1u << 1);  // bitfield.virt_phy_addr
    put32(p, 16, static_cast<std::uint32_t>(xgmi));
    put32(p, 20, static_cast<std::uint32_t>(xgmi >> 32));
    PspCommand r;
    r.size = tmr_paddr_ ? tmr_size_ : 0;
    r.address = mc;
    submit(psp_cmd::kSetupTmr, p, r);
  }
  for (const auto &image : fw.images()) load_ip_fw(image.fw_types, image.bytes.data(), image.size);
  if (gpu_.device().ip_version("GC").major >= 11) {
    submit(psp_cmd::kAutoloadRlc, {}, {});
  } else {
    const auto rl = fw.sos(psp_fw::kRl);
    load_ip_fw({gfx_fw::kRegList}, rl.data(), rl.size());
  }
}

void AmPsp::spatial_partition(std::uint32_t mode) {
  std::vector<std::uint8_t> p(4, 0);
  put32(p, 0, mode);
  PspCommand r;
  r.size = mode;
  submit(psp_cmd::kSriovSpatialPart, p, r);
}

}  // namespace wavescope::hw::am
