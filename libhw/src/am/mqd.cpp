#include "wavescope/hw/am/mqd.hpp"

#include <bit>
#include <initializer_list>
#include <utility>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/hw/regs/register_codec.hpp"
#include "wavescope/hw/regs/register_table.hpp"

namespace wavescope::hw::am {

namespace {
// Dword offsets of the members AM sets (kernel v9/v11/v12_structs.h; v11 and v12 agree on every
// one of them, v9 differs only outside the register image).
constexpr unsigned kHeader = 0x00;
constexpr unsigned kThreadMgmtSe0 = 0x17, kThreadMgmtSe1 = 0x18, kThreadMgmtSe2 = 0x1A,
                   kThreadMgmtSe3 = 0x1B;
constexpr unsigned kThreadMgmtSe4Gfx10 = 0x2C;  // se4..se7 at 0x2C..0x2F (v11, v12)
constexpr unsigned kCurrentLogicXccIdV9 = 0x27, kTgChunkSizeV9 = 0x29, kMqdStrideSizeV9 = 0xE2;

// The register image, dwords 0x80..0xB7 (v12 calls 0xB2 reserved_178).
constexpr std::string_view kImageNames[kMqdRegisterImageDwords] = {
    "cp_mqd_base_addr_lo",
    "cp_mqd_base_addr_hi",
    "cp_hqd_active",
    "cp_hqd_vmid",
    "cp_hqd_persistent_state",
    "cp_hqd_pipe_priority",
    "cp_hqd_queue_priority",
    "cp_hqd_quantum",
    "cp_hqd_pq_base_lo",
    "cp_hqd_pq_base_hi",
    "cp_hqd_pq_rptr",
    "cp_hqd_pq_rptr_report_addr_lo",
    "cp_hqd_pq_rptr_report_addr_hi",
    "cp_hqd_pq_wptr_poll_addr_lo",
    "cp_hqd_pq_wptr_poll_addr_hi",
    "cp_hqd_pq_doorbell_control",
    "reserved_144",
    "cp_hqd_pq_control",
    "cp_hqd_ib_base_addr_lo",
    "cp_hqd_ib_base_addr_hi",
    "cp_hqd_ib_rptr",
    "cp_hqd_ib_control",
    "cp_hqd_iq_timer",
    "cp_hqd_iq_rptr",
    "cp_hqd_dequeue_request",
    "cp_hqd_dma_offload",
    "cp_hqd_sema_cmd",
    "cp_hqd_msg_type",
    "cp_hqd_atomic0_preop_lo",
    "cp_hqd_atomic0_preop_hi",
    "cp_hqd_atomic1_preop_lo",
    "cp_hqd_atomic1_preop_hi",
    "cp_hqd_hq_status0",
    "cp_hqd_hq_control0",
    "cp_mqd_control",
    "cp_hqd_hq_status1",
    "cp_hqd_hq_control1",
    "cp_hqd_eop_base_addr_lo",
    "cp_hqd_eop_base_addr_hi",
    "cp_hqd_eop_control",
    "cp_hqd_eop_rptr",
    "cp_hqd_eop_wptr",
    "cp_hqd_eop_done_events",
    "cp_hqd_ctx_save_base_addr_lo",
    "cp_hqd_ctx_save_base_addr_hi",
    "cp_hqd_ctx_save_control",
    "cp_hqd_cntl_stack_offset",
    "cp_hqd_cntl_stack_size",
    "cp_hqd_wg_state_offset",
    "cp_hqd_ctx_save_size",
    "cp_hqd_gds_resource_state",
    "cp_hqd_error",
    "cp_hqd_eop_wptr_mem",
    "cp_hqd_aql_control",
    "cp_hqd_pq_wptr_lo",
    "cp_hqd_pq_wptr_hi",
};

unsigned image(std::string_view member) {
  for (unsigned i = 0; i < kMqdRegisterImageDwords; ++i)
    if (kImageNames[i] == member) return kMqdRegisterImageFirst + i;
  throw Error(ErrorKind::Internal, fmt::format("MQD member {} is not in the image", member));
}

std::uint32_t lo32(std::uint64_t v) { return static_cast<std::uint32_t>(v); }
std::uint32_t hi32(std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); }

std::uint32_t encode(const regs::RegisterTable &gc, std::string_view reg_name,
                     std::initializer_list<std::pair<std::string_view, std::uint64_t>> fields) {
  const regs::Register *reg = gc.find(reg_name);
  if (!reg)
    throw Error(ErrorKind::Internal,
                fmt::format("register table {} has no {}", gc.name(), reg_name));
  return static_cast<std::uint32_t>(regs::update_register_value(
      *reg, 0, std::span<const std::pair<std::string_view, std::uint64_t>>(fields)));
}

unsigned log2_dwords(std::uint64_t bytes, std::uint64_t min_bytes, const char *what) {
  if (bytes < min_bytes || !std::has_single_bit(bytes))
    throw Error(ErrorKind::Usage,
                fmt::format("compute MQD: the {} size {:#x} is not a power of two of at least "
                            "{:#x} bytes",
                            what, bytes, min_bytes));
  return static_cast<unsigned>(std::countr_zero(bytes / 4));
}

void check_aligned(std::uint64_t va, std::uint64_t align, const char *what) {
  if (va % align != 0)
    throw Error(ErrorKind::Usage, fmt::format("compute MQD: the {} address {:#x} is not {:#x}-byte "
                                              "aligned",
                                              what, va, align));
}
}  // namespace

MqdImage build_compute_mqd(const regs::RegisterTable &gc, const ComputeMqdParams &p) {
  if (p.gc_major != 9 && p.gc_major != 11 && p.gc_major != 12)
    throw Error(
        ErrorKind::Usage,
        fmt::format("compute MQD: GC {}.x has no MQD layout here (9, 11 and 12 do)", p.gc_major));
  if (gc.family() != "gc" || gc.version().major != p.gc_major)
    throw Error(ErrorKind::Usage, fmt::format("compute MQD: register table {} is not a GC {} table",
                                              gc.name(), p.gc_major));
  const bool multi_xcc_aql = p.aql && p.xcc_count > 1;
  if (multi_xcc_aql && p.gc_major != 9)
    throw Error(ErrorKind::Usage, fmt::format("compute MQD: {} XCCs with AQL need the v9 MQD (GC "
                                              "9.x), not GC {}",
                                              p.xcc_count, p.gc_major));
  if (p.xcc >= p.xcc_count)
    throw Error(ErrorKind::Usage, fmt::format("compute MQD: XCC {} of {}", p.xcc, p.xcc_count));
  const unsigned ring_log2 = log2_dwords(p.ring_bytes, 256, "ring");
  const unsigned eop_log2 = log2_dwords(p.eop_bytes, 8, "EOP buffer");
  check_aligned(p.ring_va, 256, "ring");
  check_aligned(p.eop_va, 256, "EOP buffer");
  check_aligned(p.mqd_mc, 256, "MQD");
  check_aligned(p.rptr_va, 4, "rptr");
  check_aligned(p.wptr_va, 8, "wptr");

  MqdImage m{};
  m[kHeader] = kMqdHeader;
  for (unsigned se : {kThreadMgmtSe0, kThreadMgmtSe1, kThreadMgmtSe2, kThreadMgmtSe3})
    m[se] = 0xFFFF'FFFF;
  if (p.gc_major >= 10)
    for (unsigned se = 0; se < 4; ++se) m[kThreadMgmtSe4Gfx10 + se] = 0xFFFF'FFFF;

  m[image("cp_mqd_base_addr_lo")] = lo32(p.mqd_mc);
  m[image("cp_mqd_base_addr_hi")] = hi32(p.mqd_mc);
  m[image("cp_hqd_vmid")] = 0;
  m[image("cp_hqd_persistent_state")] =
      encode(gc, "CP_HQD_PERSISTENT_STATE", {{"PRELOAD_SIZE", 0x55}, {"PRELOAD_REQ", 1}});
  m[image("cp_hqd_pipe_priority")] = 2;
  m[image("cp_hqd_queue_priority")] = 0xF;
  m[image("cp_hqd_quantum")] = 0x111;
  m[image("cp_hqd_pq_base_lo")] = lo32(p.ring_va >> 8);
  m[image("cp_hqd_pq_base_hi")] = hi32(p.ring_va >> 8);
  m[image("cp_hqd_pq_rptr_report_addr_lo")] = lo32(p.rptr_va);
  m[image("cp_hqd_pq_rptr_report_addr_hi")] = hi32(p.rptr_va);
  m[image("cp_hqd_pq_wptr_poll_addr_lo")] = lo32(p.wptr_va);
  m[image("cp_hqd_pq_wptr_poll_addr_hi")] = hi32(p.wptr_va);
  m[image("cp_hqd_pq_doorbell_control")] = encode(
      gc, "CP_HQD_PQ_DOORBELL_CONTROL", {{"DOORBELL_OFFSET", p.doorbell * 2}, {"DOORBELL_EN", 1}});
  if (p.aql)
    m[image("cp_hqd_pq_control")] =
        encode(gc, "CP_HQD_PQ_CONTROL",
               {{"RPTR_BLOCK_SIZE", 5},
                {"UNORD_DISPATCH", 0},
                {"QUEUE_SIZE", ring_log2 - 1},
                {"QUEUE_FULL_EN", 1},
                {"SLOT_BASED_WPTR", 2},
                {"NO_UPDATE_RPTR", (p.xcc != 0 || p.xcc_count == 1) ? 1 : 0}});
  else
    m[image("cp_hqd_pq_control")] =
        encode(gc, "CP_HQD_PQ_CONTROL",
               {{"RPTR_BLOCK_SIZE", 5}, {"UNORD_DISPATCH", 0}, {"QUEUE_SIZE", ring_log2 - 1}});
  m[image("cp_hqd_ib_control")] = encode(gc, "CP_HQD_IB_CONTROL", {{"MIN_IB_AVAIL_SIZE", 3}});
  m[image("cp_hqd_hq_status0")] = 0x2000'4000;
  m[image("cp_mqd_control")] = encode(gc, "CP_MQD_CONTROL", {{"PRIV_STATE", 1}});
  m[image("cp_hqd_eop_base_addr_lo")] = lo32(p.eop_va >> 8);
  m[image("cp_hqd_eop_base_addr_hi")] = hi32(p.eop_va >> 8);
  m[image("cp_hqd_eop_control")] = encode(gc, "CP_HQD_EOP_CONTROL", {{"EOP_SIZE", eop_log2 - 1}});
  m[image("cp_hqd_aql_control")] = p.aql ? 1 : 0;
  if (multi_xcc_aql) {
    m[kTgChunkSizeV9] = 1;
    m[kCurrentLogicXccIdV9] = p.xcc;
    m[kMqdStrideSizeV9] = 0x1000;
  }
  return m;
}

std::string_view mqd_field_name(unsigned gc_major, unsigned dword) {
  if (dword >= kMqdRegisterImageFirst && dword < kMqdRegisterImageFirst + kMqdRegisterImageDwords) {
    if (gc_major == 12 && dword == 0xB2) return "reserved_178";
    return kImageNames[dword - kMqdRegisterImageFirst];
  }
  switch (dword) {
  case kHeader: return "header";
  case kThreadMgmtSe0: return "compute_static_thread_mgmt_se0";
  case kThreadMgmtSe1: return "compute_static_thread_mgmt_se1";
  case kThreadMgmtSe2: return "compute_static_thread_mgmt_se2";
  case kThreadMgmtSe3: return "compute_static_thread_mgmt_se3";
  default: break;
  }
  if (gc_major >= 10) {
    if (dword >= kThreadMgmtSe4Gfx10 && dword < kThreadMgmtSe4Gfx10 + 4) {
      constexpr std::string_view names[] = {
          "compute_static_thread_mgmt_se4", "compute_static_thread_mgmt_se5",
          "compute_static_thread_mgmt_se6", "compute_static_thread_mgmt_se7"};
      return names[dword - kThreadMgmtSe4Gfx10];
    }
  } else {
    if (dword == kCurrentLogicXccIdV9) return "compute_current_logic_xcc_id";
    if (dword == kTgChunkSizeV9) return "compute_tg_chunk_size";
    if (dword == kMqdStrideSizeV9) return "cp_mqd_stride_size";
  }
  return "";
}

}  // namespace wavescope::hw::am
