#include "wavescope/hw/am/ring_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/hw/am/doorbell.hpp"

namespace wavescope::hw::am {

namespace {
std::string hex(std::uint64_t v) { return fmt::format("0x{:X}", v); }
}  // namespace

std::string to_json(const RingReport &r) {
  nlohmann::json compute = nlohmann::json::array();
  for (const auto &q : r.compute)
    compute.push_back({{"xcc", q.xcc},
                       {"me", q.me},
                       {"pipe", q.pipe},
                       {"queue", q.queue},
                       {"active", q.active},
                       {"aql", q.aql},
                       {"mqd", hex(q.mqd_base)},
                       {"ring", hex(q.ring_va)},
                       {"ring_bytes", q.ring_bytes},
                       {"rptr", q.rptr},
                       {"wptr", q.wptr},
                       {"rptr_report", hex(q.rptr_report_va)},
                       {"wptr_poll", hex(q.wptr_poll_va)},
                       {"eop", hex(q.eop_va)},
                       {"doorbell", q.doorbell},
                       {"doorbell_enabled", q.doorbell_enabled}});
  nlohmann::json sdma = nlohmann::json::array();
  for (const auto &q : r.sdma)
    sdma.push_back({{"registers", q.registers},
                    {"instance", q.instance},
                    {"enabled", q.enabled},
                    {"ring", hex(q.ring_va)},
                    {"ring_bytes", q.ring_bytes},
                    {"rptr", q.rptr},
                    {"wptr", q.wptr},
                    {"rptr_writeback", hex(q.rptr_writeback_va)},
                    {"doorbell", q.doorbell},
                    {"doorbell_enabled", q.doorbell_enabled}});
  nlohmann::json out{{"device", r.device}, {"compute", compute}, {"sdma", sdma}};
  if (r.submission) {
    const auto &s = *r.submission;
    out["submission"] = {{"engine", s.engine},
                         {"packets", s.packets},
                         {"ring", hex(s.ring_va)},
                         {"doorbell", s.doorbell},
                         {"doorbell_value", s.doorbell_value},
                         {"target", hex(s.target_va)},
                         {"expected", hex(s.expected)},
                         {"before", hex(s.before)},
                         {"after", hex(s.after)},
                         {"executed", s.executed()}};
  }
  return json_line(out);
}

std::string to_text(const RingReport &r) {
  std::string s = fmt::format("{}: compute queues (me 1, pipe 0)\n", r.device);
  for (const auto &q : r.compute) {
    s += fmt::format("  xcc {} queue {}: {}", q.xcc, q.queue, q.active ? "active" : "inactive");
    if (q.active || q.ring_va)
      s += fmt::format("{}, ring {:#x} ({:#x} bytes), rptr {:#x}, wptr {:#x}, doorbell {} ({}{}), "
                       "MQD {:#x}",
                       q.aql ? " (AQL)" : "", q.ring_va, q.ring_bytes, q.rptr, q.wptr, q.doorbell,
                       doorbell_name(q.doorbell), q.doorbell_enabled ? "" : ", disabled",
                       q.mqd_base);
    s += '\n';
  }
  s += "SDMA queues\n";
  for (const auto &q : r.sdma) {
    s += fmt::format("  {} instance {}: {}", q.registers, q.instance,
                     q.enabled ? "enabled" : "disabled");
    if (q.enabled || q.ring_va)
      s += fmt::format(", ring {:#x} ({:#x} bytes), rptr {:#x}, wptr {:#x} (bytes), doorbell {} "
                       "({}{})",
                       q.ring_va, q.ring_bytes, q.rptr, q.wptr, q.doorbell,
                       doorbell_name(q.doorbell), q.doorbell_enabled ? "" : ", disabled");
    s += '\n';
  }
  if (r.submission) {
    const auto &sub = *r.submission;
    s += fmt::format("submitted to the {} ring at {:#x}:\n", sub.engine, sub.ring_va);
    for (const auto &p : sub.packets) s += fmt::format("  {}\n", p);
    s += fmt::format("doorbell {} ({}) <- {:#x}\n", sub.doorbell, doorbell_name(sub.doorbell),
                     sub.doorbell_value);
    s += fmt::format("{:#x}: {:#010x} -> {:#010x} ({})\n", sub.target_va, sub.before, sub.after,
                     sub.executed() ? "executed" : "not executed");
  }
  return s;
}

}  // namespace wavescope::hw::am
