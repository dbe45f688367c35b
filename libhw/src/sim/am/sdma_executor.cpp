#include "sim/am/sdma_executor.hpp"

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

#include "wavescope/hw/am/sdma_packets.hpp"

namespace wavescope::hw::sim::am {

namespace sdma = hw::am::sdma;

namespace {
std::uint64_t va64(std::uint32_t lo, std::uint32_t hi) {
  return std::uint64_t{lo} | std::uint64_t{hi} << 32;
}

std::uint32_t fetch(SdmaQueue &q, GpuAddressSpace &mem, std::uint64_t dword) {
  if (!q.ibs.empty()) return mem.read32(q.ibs.back().va + dword * 4);
  return mem.read32(q.ring_va + (dword * 4) % q.ring_bytes);
}
}  // namespace

QueueRunResult run_sdma(SdmaQueue &q, GpuAddressSpace &mem, SdmaEnvironment &env,
                        std::size_t max_packets) {
  QueueRunResult result;
  if (q.ring_bytes == 0 || q.rptr % 4 != 0 || q.wptr % 4 != 0 || q.wptr < q.rptr) {
    result.status = QueueRunStatus::Fault;
    result.message = fmt::format("SDMA queue pointers rptr {:#x} / wptr {:#x} (bytes, ring {:#x})",
                                 q.rptr, q.wptr, q.ring_bytes);
    return result;
  }
  auto stop = [&](QueueRunStatus status, std::string message) {
    result.status = status;
    result.message = std::move(message);
    return result;
  };
  try {
    while (result.packets < max_packets) {
      const bool in_ib = !q.ibs.empty();
      if (in_ib && q.ibs.back().offset >= q.ibs.back().size) {
        q.ibs.pop_back();
        continue;
      }
      const std::size_t ib_index = in_ib ? q.ibs.size() - 1 : 0;
      const std::uint64_t at = in_ib ? q.ibs.back().offset : q.rptr / 4;
      const std::uint64_t available =
          in_ib ? q.ibs.back().size - q.ibs.back().offset : (q.wptr - q.rptr) / 4;
      if (available == 0) break;
      // Enough of the packet to know its length (WRITE reads its count at dword 3).
      std::vector<std::uint32_t> d{fetch(q, mem, at)};
      for (std::size_t i = 1; i < 4 && i < available; ++i) d.push_back(fetch(q, mem, at + i));
      const std::size_t length = hw::am::sdma_packet_dwords(d);
      const unsigned opcode = d[0] & 0xFF, sub_op = d[0] >> 8 & 0xFF;
      if (length == 0) {
        return stop(QueueRunStatus::Fault, fmt::format("bad SDMA opcode {} (header {:#010x}) at "
                                                       "dword {:#x}",
                                                       opcode, d[0], at));
      }
      if (length > available) {
        if (in_ib)
          return stop(QueueRunStatus::Fault,
                      fmt::format("SDMA packet at IB dword {:#x} runs past the IB's end", at));
        break;
      }
      while (d.size() < length) d.push_back(fetch(q, mem, at + d.size()));
      switch (opcode) {
      case sdma::kOpNop: break;
      case sdma::kOpCopy: {
        if (sub_op != sdma::kSubOpCopyLinear)
          return stop(QueueRunStatus::Fault,
                      fmt::format("SDMA COPY sub-op {} is not modelled (linear only)", sub_op));
        const std::uint64_t bytes = std::uint64_t{d[1] & 0x3FFF'FFFF} + 1;
        mem.copy(va64(d[5], d[6]), va64(d[3], d[4]), bytes);
        q.copied_bytes += bytes;
        break;
      }
      case sdma::kOpWrite: {
        const std::uint64_t va = va64(d[1], d[2]);
        for (std::size_t i = 4; i < length; ++i) mem.write32(va + (i - 4) * 4, d[i]);
        break;
      }
      case sdma::kOpFence: mem.write32(va64(d[1], d[2]), d[3]); break;
      case sdma::kOpTrap:
        env.trap(d[1] & 0x0FFF'FFFF);
        ++q.traps;
        break;
      case sdma::kOpPollRegmem: {
        const bool memory = (d[0] >> 31) != 0;
        const unsigned function = d[0] >> 28 & 7;
        const std::uint32_t value =
            memory ? mem.read32(va64(d[1], d[2])) : env.read_register(d[1] >> 2);
        if (!wait_condition_met(function, value & d[4], d[3]))
          return stop(QueueRunStatus::Waiting,
                      fmt::format("POLL_REGMEM on {} {:#x}: {:#x} & {:#x} vs {:#x} (function {})",
                                  memory ? "memory" : "register", va64(d[1], d[2]), value, d[4],
                                  d[3], function));
        break;
      }
      case sdma::kOpTimestamp:
        if (sub_op != sdma::kSubOpTimestampGetGlobal)
          return stop(QueueRunStatus::Fault,
                      fmt::format("SDMA TIMESTAMP sub-op {} is not modelled", sub_op));
        mem.write64(va64(d[1], d[2]), env.gpu_clock());
        break;
      case sdma::kOpIndirect:
        if (q.ibs.size() >= 1)
          return stop(QueueRunStatus::Fault, "SDMA INDIRECT inside an indirect buffer");
        if (!in_ib && (at + length) % 8 != 0)
          return stop(QueueRunStatus::Fault,
                      fmt::format("SDMA INDIRECT at ring dword {:#x} does not end on an 8-dword "
                                  "boundary",
                                  at));
        if ((d[3] & 0xFFFFF) > 0) q.ibs.push_back({va64(d[1], d[2]), d[3] & 0xFFFFF, 0});
        break;
      default: break;
      }
      if (in_ib) {
        q.ibs[ib_index].offset += static_cast<std::uint32_t>(length);
      } else {
        q.rptr += length * 4;
        if (q.rptr_writeback_va) mem.write64(q.rptr_writeback_va, q.rptr);
      }
      ++q.packets;
      ++result.packets;
    }
  } catch (const MmuFaultError &) {
    return stopped_by_exception(std::move(result));
  } catch (const Error &) {
    return stopped_by_exception(std::move(result));
  }
  result.status = QueueRunStatus::Idle;
  return result;
}

}  // namespace wavescope::hw::sim::am
