#include "wavescope/hw/am/gfx.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/am/doorbell.hpp"
#include "wavescope/hw/am/doorbell_routing.hpp"
#include "wavescope/hw/am/mqd.hpp"
#include "wavescope/hw/am/vram_access.hpp"
#include "wavescope/hw/regs/register_table.hpp"

namespace wavescope::hw::am {

namespace {
constexpr std::chrono::milliseconds kMecSettle{50};
constexpr unsigned kShMemAddressMode64 = 0, kShMemAlignmentUnaligned = 3;

bool is_gc_9_4_3_or_9_5_0(const AmChipInfo &chip) {
  return chip.gc == regs::IpVersion{9, 4, 3} || chip.gc == regs::IpVersion{9, 5, 0};
}
}  // namespace

GfxBlock::GfxBlock(AmRegisters &regs, VramAccess &vram, GmcBlock &gmc, const AmChipInfo &chip,
                   std::array<std::uint64_t, 2> mqd_paddr, GfxUcodeStart ucode)
    : regs_(regs), vram_(vram), gmc_(gmc), chip_(chip), mqd_paddr_(mqd_paddr), ucode_(ucode) {}

void GfxBlock::grbm_select(unsigned me, unsigned pipe, unsigned queue, unsigned vmid,
                           unsigned xcc) {
  regs_.write_fields("gc.GRBM_GFX_CNTL",
                     {{"MEID", me}, {"PIPEID", pipe}, {"VMID", vmid}, {"QUEUEID", queue}}, xcc);
}

void GfxBlock::init_hw(bool partial_boot, RlcAutoloadCondition condition) {
  // 1. RLC autoload.
  const bool has_bootload = regs_.has("gc.RLC_RLCS_BOOTLOAD_STATUS");
  regs_.wait_until(
      [&] {
        const bool cp_idle = regs_.read("gc.CP_STAT") == 0;
        if (!has_bootload) return cp_idle;
        const bool complete = regs_.field("gc.RLC_RLCS_BOOTLOAD_STATUS", "BOOTLOAD_COMPLETE",
                                          regs_.read("gc.RLC_RLCS_BOOTLOAD_STATUS")) != 0;
        return condition == RlcAutoloadCondition::Am ? (cp_idle || !complete)
                                                     : (cp_idle && complete);
      },
      "RLC autoload timeout (CP_STAT, RLC_RLCS_BOOTLOAD_STATUS)");
  // 2. GC hub; a partial boot only resets the MEC.
  gmc_.init_hub(VmHub::Gc);
  if (partial_boot) {
    reset_mec(false);
    return;
  }
  // 3-4.
  config_mec();
  for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc)
    regs_.write("gc.TCP_CNTL", regs_.read("gc.TCP_CNTL", xcc) | 0x2000'0000, xcc);
  for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc) regs_.write("gc.RLC_CNTL", 1, xcc);
  for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc)
    regs_.update("gc.RLC_SRM_CNTL", {{"SRM_ENABLE", 1}, {"AUTO_INCR_ADDR", 1}}, xcc);
  for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc) regs_.write("gc.RLC_SPM_MC_CNTL", 0xF, xcc);
  enable_compute_doorbells(regs_, chip_);
  // 5.
  for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc) {
    if (is_gc_9_4_3_or_9_5_0(chip_)) {
      regs_.write("gc.GB_ADDR_CONFIG", 0x2A11'4042, xcc);
      regs_.update("gc.TCP_UTCL1_CNTL2", {{"SPARE", 1}}, xcc);
    }
    regs_.update("gc.GRBM_CNTL", {{"READ_TIMEOUT", 0xFF}}, xcc);
    for (unsigned vmid = 0; vmid < 16; ++vmid) {
      grbm_select(0, 0, 0, vmid, xcc);
      if (chip_.gc.major >= 10)
        regs_.write_fields("gc.SH_MEM_CONFIG",
                           {{"INITIAL_INST_PREFETCH", 3},
                            {"ADDRESS_MODE", kShMemAddressMode64},
                            {"ALIGNMENT_MODE", kShMemAlignmentUnaligned}},
                           xcc);
      else if (chip_.gc.major == 9 && chip_.gc.minor == 4)
        regs_.write_fields("gc.SH_MEM_CONFIG",
                           {{"RETRY_DISABLE", 1},
                            {"F8_MODE", 1},
                            {"ADDRESS_MODE", kShMemAddressMode64},
                            {"ALIGNMENT_MODE", kShMemAlignmentUnaligned}},
                           xcc);
      else
        regs_.write_fields("gc.SH_MEM_CONFIG",
                           {{"RETRY_DISABLE", 1},
                            {"ADDRESS_MODE", kShMemAddressMode64},
                            {"ALIGNMENT_MODE", kShMemAlignmentUnaligned}},
                           xcc);
      // LDS aperture at 0x1000_0000_0000_0000, scratch at 0x2000_0000_0000_0000, 4 GiB each.
      regs_.write_fields("gc.SH_MEM_BASES", {{"SHARED_BASE", 1}, {"PRIVATE_BASE", 2}}, xcc);
    }
    grbm_select(0, 0, 0, 0, xcc);
    regs_.write("gc.CP_MEC_DOORBELL_RANGE_LOWER", 0x100 * xcc, xcc);
    regs_.write("gc.CP_MEC_DOORBELL_RANGE_UPPER", 0x100 * xcc + 0xF8, xcc);
  }
  // 6-7.
  enable_mec();
  if (chip_.xccs > 1 && spatial_partition_) spatial_partition_(1);
}

void GfxBlock::start_engine(const char *engine, const char *cntl, const char *reg, unsigned me,
                            std::uint64_t start, unsigned xcc) {
  grbm_select(me, 0, 0, 0, xcc);
  regs_.write_pair(fmt::format("gc.CP_{}_PRGRM_CNTR_START", reg), "", "_HI", start >> 2, xcc);
  grbm_select(0, 0, 0, 0, xcc);
  const std::string cntl_reg = fmt::format("gc.CP_{}_CNTL", cntl);
  const std::string reset = fmt::format("{}_PIPE0_RESET", engine);
  regs_.update(cntl_reg, {{reset, 1}}, xcc);
  regs_.update(cntl_reg, {{reset, 0}}, xcc);
}

void GfxBlock::config_mec() {
  for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc) {
    if (chip_.gc.major < 10)
      regs_.update("gc.CP_MEC_CNTL",
                   {{"MEC_INVALIDATE_ICACHE", 1},
                    {"MEC_ME1_PIPE0_RESET", 1},
                    {"MEC_ME2_PIPE0_RESET", 1},
                    {"MEC_ME1_HALT", 1},
                    {"MEC_ME2_HALT", 1}},
                   xcc);
    if (chip_.gc.major >= 12) {
      start_engine("PFP", "ME", "PFP", 0, ucode_.pfp, xcc);
      start_engine("ME", "ME", "ME", 0, ucode_.me, xcc);
    }
    if (chip_.gc.major >= 10) start_engine("MEC", "MEC_RS64", "MEC_RS64", 1, ucode_.mec, xcc);
  }
}

void GfxBlock::enable_mec() {
  for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc) {
    if (chip_.gc.major >= 10)
      regs_.update("gc.CP_MEC_RS64_CNTL",
                   {{"MEC_PIPE0_RESET", 0}, {"MEC_PIPE0_ACTIVE", 1}, {"MEC_HALT", 0}}, xcc);
    else
      regs_.write("gc.CP_MEC_CNTL", 0, xcc);
  }
  regs_.sleep(kMecSettle);
}

unsigned GfxBlock::setup_ring(const ComputeRing &ring) {
  const unsigned pipe = ring.idx / 4, queue = ring.idx % 4;
  if (queue > 1 || pipe > 3)
    throw Error(ErrorKind::Usage,
                fmt::format("compute queue {} (pipe {}, queue {}): AM has MQD pages for queues 0 "
                            "and 1 of pipes 0..3 only",
                            ring.idx, pipe, queue));
  const auto *gc = regs::select_register_table("gc", chip_.gc);
  if (!gc)
    throw Error(ErrorKind::Usage,
                fmt::format("no GC register table for GC {}", chip_.gc.to_string()));
  const unsigned xccs = ring.aql ? chip_.xccs : 1;
  for (unsigned xcc = 0; xcc < xccs; ++xcc) {
    grbm_select(1, pipe, queue, 0, xcc);
    ComputeMqdParams p;
    p.gc_major = chip_.gc.major;
    p.mqd_mc = gmc_.paddr_to_mc(mqd_paddr_[queue]) + 0x1000 * xcc;
    p.ring_va = ring.ring_va;
    p.ring_bytes = ring.ring_bytes;
    p.rptr_va = ring.rptr_va;
    p.wptr_va = ring.wptr_va;
    p.eop_va = ring.eop_va;
    p.eop_bytes = ring.eop_bytes;
    p.doorbell = kDoorbellMecRing0;
    p.aql = ring.aql;
    p.xcc = xcc;
    p.xcc_count = chip_.xccs;
    const MqdImage mqd = build_compute_mqd(*gc, p);
    const std::uint64_t paddr = mqd_paddr_[queue] + 0x1000 * xcc;
    for (std::size_t i = 0; i < kMqdDwords; i += 2)
      vram_.write64(paddr + i * 4, std::uint64_t{mqd[i]} | std::uint64_t{mqd[i + 1]} << 32);
    const std::uint64_t first = regs_.address("gc.CP_MQD_BASE_ADDR", xcc);
    const auto image = mqd_register_image(mqd);
    for (unsigned i = 0; i < kMqdRegisterImageDwords; ++i) regs_.write_address(first + i, image[i]);
    regs_.write("gc.CP_HQD_ACTIVE", 1, xcc);
    gmc_.flush_hdp();
    grbm_select(0, 0, 0, 0, xcc);
  }
  return kDoorbellMecRing0;
}

void GfxBlock::dequeue_hqds(bool error_state) {
  for (unsigned queue = 0; queue < 2; ++queue) {
    for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc) {
      grbm_select(1, 0, queue, 0, xcc);
      if ((regs_.read("gc.CP_HQD_ACTIVE", xcc) & 1) == 0) continue;
      regs_.write("gc.CP_HQD_DEQUEUE_REQUEST", 2, xcc);  // 2: reset waves
      regs_.write("gc.SPI_COMPUTE_QUEUE_RESET", 1, xcc);
      if (!error_state) regs_.wait("gc.CP_HQD_ACTIVE", 1, 0, xcc, "HQD dequeue timeout");
    }
  }
  grbm_select();
}

void GfxBlock::reset_mec(bool error_state) {
  dequeue_hqds(error_state);
  if (chip_.gc.major < 12) {
    for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc)
      regs_.write_fields("gc.GRBM_SOFT_RESET", {{"SOFT_RESET_CP", 1}, {"SOFT_RESET_CPC", 1}}, xcc);
    regs_.sleep(kMecSettle);
    for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc) regs_.write("gc.GRBM_SOFT_RESET", 0, xcc);
  }
  config_mec();
  enable_mec();
}

void GfxBlock::set_clockgating() {
  if (regs_.has("mmhub.MM_ATC_L2_MISC_CG"))
    regs_.write_fields("mmhub.MM_ATC_L2_MISC_CG", {{"ENABLE", 1}, {"MEM_LS_ENABLE", 1}});
  for (unsigned xcc = 0; xcc < chip_.xccs; ++xcc) {
    regs_.write_fields("gc.RLC_SAFE_MODE", {{"MESSAGE", 1}, {"CMD", 1}}, xcc);
    regs_.wait("gc.RLC_SAFE_MODE", 1, 0, xcc, "RLC safe mode timeout");
    regs_.update("gc.RLC_CGCG_CGLS_CTRL",
                 {{"CGCG_GFX_IDLE_THRESHOLD", 0x36},
                  {"CGCG_EN", 1},
                  {"CGLS_REP_COMPANSAT_DELAY", 0xF},
                  {"CGLS_EN", 1}},
                 xcc);
    regs_.update("gc.CP_RB_WPTR_POLL_CNTL", {{"POLL_FREQUENCY", 0x100}, {"IDLE_POLL_COUNT", 0x90}},
                 xcc);
    regs_.update(
        "gc.CP_INT_CNTL",
        {{"CNTX_BUSY_INT_ENABLE", 1}, {"CNTX_EMPTY_INT_ENABLE", 1}, {"CMP_BUSY_INT_ENABLE", 1}},
        xcc);
    if (chip_.gc.major >= 10) {
      regs_.update("gc.SDMA0_RLC_CGCG_CTRL", {{"CGCG_INT_ENABLE", 1}}, xcc);
      regs_.update("gc.SDMA1_RLC_CGCG_CTRL", {{"CGCG_INT_ENABLE", 1}}, xcc);
    }
    if (chip_.gc.major == 9)
      regs_.update("gc.RLC_CGTT_MGCG_OVERRIDE",
                   {{"GFXIP_MGLS_OVERRIDE", 0},
                    {"GFXIP_REP_FGCG_OVERRIDE", 0},
                    {"GFXIP_FGCG_OVERRIDE", 0},
                    {"GRBM_CGTT_SCLK_OVERRIDE", 0},
                    {"RLC_CGTT_SCLK_OVERRIDE", 0},
                    {"GFXIP_MGCG_OVERRIDE", 0},
                    {"GFXIP_CGLS_OVERRIDE", 0},
                    {"GFXIP_CGCG_OVERRIDE", 0}},
                   xcc);
    else if (chip_.gc.major >= 11)
      regs_.update("gc.RLC_CGTT_MGCG_OVERRIDE",
                   {{"PERFMON_CLOCK_STATE", 1},
                    {"GFXIP_REPEATER_FGCG_OVERRIDE", 0},
                    {"GFXIP_FGCG_OVERRIDE", 0},
                    {"GRBM_CGTT_SCLK_OVERRIDE", 0},
                    {"RLC_CGTT_SCLK_OVERRIDE", 0},
                    {"GFXIP_MGCG_OVERRIDE", 0},
                    {"GFXIP_CGLS_OVERRIDE", 0},
                    {"GFXIP_CGCG_OVERRIDE", 0}},
                   xcc);
    else
      regs_.update("gc.RLC_CGTT_MGCG_OVERRIDE",
                   {{"GFXIP_FGCG_OVERRIDE", 0},
                    {"GRBM_CGTT_SCLK_OVERRIDE", 0},
                    {"RLC_CGTT_SCLK_OVERRIDE", 0},
                    {"GFXIP_MGCG_OVERRIDE", 0},
                    {"GFXIP_CGLS_OVERRIDE", 0},
                    {"GFXIP_CGCG_OVERRIDE", 0}},
                   xcc);
    regs_.write_fields("gc.RLC_SAFE_MODE", {{"MESSAGE", 0}, {"CMD", 1}}, xcc);
  }
}

}  // namespace wavescope::hw::am
