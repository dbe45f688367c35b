#include "sim/am/pm4_interpreter.hpp"

#include <variant>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::sim::am {

namespace pm4 = hw::am::pm4;

namespace {
constexpr unsigned kSrcCpEopInterrupt = 181, kSrcCpBadOpcode = 183;
constexpr std::size_t kMaxIbDepth = 2;

struct Stop {
  QueueRunStatus status;
  std::string message;
};

// Dword `i` of the stream the queue is running (the innermost IB, else the ring).
std::uint32_t fetch(Pm4Queue &q, GpuAddressSpace &mem, std::uint64_t i) {
  if (!q.ibs.empty()) return mem.read32(q.ibs.back().va + i * 4);
  return mem.read32(q.ring_va + (i % q.ring_dwords) * 4);
}

std::uint64_t addr64(std::uint32_t lo, std::uint32_t hi) {
  return std::uint64_t{lo} | std::uint64_t{hi & 0xFFFF} << 32;
}

// Runs one packet whose dwords are `d` (header included). Returns the dwords to advance, or a Stop.
std::variant<std::uint64_t, Stop> execute(Pm4Queue &q, GpuAddressSpace &mem, CpEnvironment &env,
                                          hw::am::Pm4Generation gen,
                                          const std::vector<std::uint32_t> &d) {
  const unsigned opcode = d[0] >> 8 & 0xFF;
  const std::uint32_t *p = d.data() + 1;
  const std::size_t n = d.size() - 1;
  auto need = [&](std::size_t count) -> std::optional<Stop> {
    if (n >= count) return std::nullopt;
    return Stop{QueueRunStatus::Fault, fmt::format("{} with {} payload dwords (needs {})",
                                                   hw::am::pm4_opcode_name(opcode), n, count)};
  };
  switch (opcode) {
  case pm4::kNop:
  case pm4::kAcquireMem:
  case pm4::kEventWrite: return std::uint64_t{d.size()};
  case pm4::kDispatchDirect: ++q.dispatches; return std::uint64_t{d.size()};
  case pm4::kReleaseMem: {
    if (auto bad = need(6)) return *bad;
    const unsigned data_sel = p[1] >> 29 & 7, int_sel = p[1] >> 24 & 7, dst_sel = p[1] >> 16 & 3;
    if (dst_sel != 0)
      return Stop{QueueRunStatus::Fault,
                  fmt::format("RELEASE_MEM dst_sel {} (only 0, memory, is modelled)", dst_sel)};
    const std::uint64_t va = addr64(p[2], p[3]);
    const std::uint64_t data = std::uint64_t{p[4]} | std::uint64_t{p[5]} << 32;
    switch (data_sel) {
    case 0: break;
    case 1: mem.write32(va & ~3ull, static_cast<std::uint32_t>(data)); break;
    case 2: mem.write64(va & ~7ull, data); break;
    case 3: mem.write64(va & ~7ull, env.gpu_clock()); break;
    default:
      return Stop{QueueRunStatus::Fault,
                  fmt::format("RELEASE_MEM data_sel {} is not modelled", data_sel)};
    }
    ++q.releases;
    if (int_sel == 1 || int_sel == 2) {
      const std::uint32_t ctx = gen == hw::am::Pm4Generation::Gfx10Plus && n > 6 ? p[6] : 0;
      env.cp_interrupt(kSrcCpEopInterrupt, ctx);
      ++q.interrupts;
    }
    return std::uint64_t{d.size()};
  }
  case pm4::kWaitRegMem: {
    if (auto bad = need(5)) return *bad;
    const unsigned function = p[0] & 7, mem_space = p[0] >> 4 & 3, operation = p[0] >> 6 & 3;
    std::uint32_t value = 0;
    if (mem_space == 1) {
      value = mem.read32(addr64(p[1], p[2]) & ~3ull);
    } else {
      if (operation == 1) env.write_register(p[1], p[3]);
      value = env.read_register(operation == 1 ? p[2] : p[1]);
    }
    if (!wait_condition_met(function, value & p[4], p[3]))
      return Stop{QueueRunStatus::Waiting,
                  fmt::format("WAIT_REG_MEM on {} {:#x}: {:#x} & {:#x} vs {:#x} (function {})",
                              mem_space == 1 ? "memory" : "register",
                              mem_space == 1 ? addr64(p[1], p[2]) : p[operation == 1 ? 2 : 1],
                              value, p[4], p[3], function)};
    return std::uint64_t{d.size()};
  }
  case pm4::kIndirectBuffer: {
    if (auto bad = need(3)) return *bad;
    if (q.ibs.size() >= kMaxIbDepth)
      return Stop{QueueRunStatus::Fault, "INDIRECT_BUFFER nested deeper than 2"};
    const std::uint32_t size = p[2] & 0xFFFFF;
    if ((p[2] & pm4::kIndirectBufferValid) != 0 && size > 0)
      q.ibs.push_back({addr64(p[0], p[1]) & ~3ull, size, 0});
    return std::uint64_t{d.size()};
  }
  case pm4::kPredExec: {
    if (auto bad = need(1)) return *bad;
    const std::uint32_t mask = p[0] >> 24, skip = p[0] & 0x3FFF;
    return std::uint64_t{d.size()} + ((mask >> q.xcc) & 1 ? 0 : skip);
  }
  case pm4::kSetShReg:
  case pm4::kSetUconfigReg: {
    if (auto bad = need(2)) return *bad;
    const std::uint32_t start = opcode == pm4::kSetShReg ? pm4::kShRegStart : pm4::kUconfigRegStart;
    for (std::size_t i = 1; i < n; ++i) {
      const std::uint32_t reg = start + p[0] + static_cast<std::uint32_t>(i - 1);
      env.write_register(reg, p[i]);
      q.register_writes.emplace_back(reg, p[i]);
    }
    return std::uint64_t{d.size()};
  }
  default:
    env.cp_interrupt(kSrcCpBadOpcode, opcode);
    ++q.interrupts;
    return Stop{QueueRunStatus::Fault,
                fmt::format("bad opcode {:#04x} (header {:#010x})", opcode, d[0])};
  }
}
}  // namespace

bool wait_condition_met(unsigned function, std::uint32_t v, std::uint32_t ref) {
  switch (function) {
  case 0: return true;
  case 1: return v < ref;
  case 2: return v <= ref;
  case 3: return v == ref;
  case 4: return v != ref;
  case 5: return v >= ref;
  case 6: return v > ref;
  default: return false;
  }
}

QueueRunResult run_pm4(Pm4Queue &q, GpuAddressSpace &mem, CpEnvironment &env,
                       hw::am::Pm4Generation gen, std::size_t max_packets) {
  QueueRunResult result;
  if (q.ring_dwords == 0) {
    result.status = QueueRunStatus::Fault;
    result.message = "the queue has no ring";
    return result;
  }
  try {
    while (result.packets < max_packets) {
      const bool in_ib = !q.ibs.empty();
      if (in_ib && q.ibs.back().offset >= q.ibs.back().size) {
        q.ibs.pop_back();
        continue;
      }
      const std::size_t ib_index = in_ib ? q.ibs.size() - 1 : 0;
      const std::uint64_t at = in_ib ? q.ibs.back().offset : q.rptr;
      const std::uint64_t available =
          in_ib ? q.ibs.back().size - q.ibs.back().offset : q.wptr - q.rptr;
      if (q.wptr < q.rptr) {
        result.status = QueueRunStatus::Fault;
        result.message = fmt::format("wptr {:#x} is behind rptr {:#x}", q.wptr, q.rptr);
        return result;
      }
      if (available == 0) break;
      const std::uint32_t header = fetch(q, mem, at);
      const unsigned type = header >> 30;
      std::size_t length = 1;
      if (type == 3) {
        const unsigned count = header >> 16 & 0x3FFF;
        const unsigned opcode = header >> 8 & 0xFF;
        length = (opcode == pm4::kNop && count == 0x3FFF) ? 1 : count + 2;
      } else if (type != 2) {
        env.cp_interrupt(kSrcCpBadOpcode, header);
        result.status = QueueRunStatus::Fault;
        result.message = fmt::format("type-{} header {:#010x} at dword {:#x}", type, header, at);
        return result;
      }
      if (length > available) {
        if (in_ib) {
          result.status = QueueRunStatus::Fault;
          result.message = fmt::format("packet at IB dword {:#x} runs past the IB's end", at);
          return result;
        }
        break;  // the rest of the packet is not submitted yet
      }
      std::vector<std::uint32_t> d(length);
      d[0] = header;
      for (std::size_t i = 1; i < length; ++i) d[i] = fetch(q, mem, at + i);
      std::variant<std::uint64_t, Stop> outcome =
          type == 2 ? std::variant<std::uint64_t, Stop>(std::uint64_t{1})
                    : execute(q, mem, env, gen, d);
      if (auto *stop = std::get_if<Stop>(&outcome)) {
        result.status = stop->status;
        result.message = std::move(stop->message);
        return result;
      }
      const std::uint64_t advance = std::get<std::uint64_t>(outcome);
      if (advance > available) {
        // PRED_EXEC over dwords not there yet (no side effect): wait for them in the ring.
        if (!in_ib) break;
        result.status = QueueRunStatus::Fault;
        result.message = fmt::format("PRED_EXEC at IB dword {:#x} skips past the IB's end", at);
        return result;
      }
      if (in_ib) {
        // The IB that was innermost before execute(); an IB it started now sits above it.
        q.ibs[ib_index].offset += static_cast<std::uint32_t>(advance);
      } else {
        q.rptr += advance;
        if (q.rptr_report_va)
          mem.write32(q.rptr_report_va, static_cast<std::uint32_t>(q.rptr % q.ring_dwords));
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
