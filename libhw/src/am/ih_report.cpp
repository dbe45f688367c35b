#include "wavescope/hw/am/ih_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"

namespace wavescope::hw::am {

namespace {
std::string hex(std::uint64_t v) { return fmt::format("0x{:X}", v); }
}  // namespace

std::string to_json(const IhReport &r) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto &h : r.entries) {
    const auto &e = h.entry;
    nlohmann::json ctx = nlohmann::json::array();
    for (auto c : e.context) ctx.push_back(hex(c));
    nlohmann::json j{{"rptr", h.rptr},
                     {"client", e.client_id},
                     {"source", e.source_id},
                     {"source_name", h.verdict.source_name},
                     {"ring", e.ring_id},
                     {"vmid", e.vmid},
                     {"pasid", e.pasid},
                     {"node", e.node_id},
                     {"context", ctx},
                     {"action", ih_action_name(h.verdict.action)},
                     {"error_state", h.verdict.error_state},
                     {"message", h.verdict.message}};
    if (h.verdict.sq_encoding) j["sq_encoding"] = *h.verdict.sq_encoding;
    if (h.verdict.sq_error_type) {
      j["sq_error_type"] = *h.verdict.sq_error_type;
      j["sq_error"] = sq_error_type_name(*h.verdict.sq_error_type);
    }
    if (h.fault)
      j["fault"] = {{"status", hex(h.fault->status)},
                    {"addr_lo32", hex(h.fault->addr_lo32)},
                    {"addr_hi32", hex(h.fault->addr_hi32)},
                    {"va", hex(h.fault->va())}};
    entries.push_back(j);
  }
  return json_line(nlohmann::json{{"rptr", r.rptr},
                                  {"wptr", r.wptr},
                                  {"overflow", r.overflow},
                                  {"entries", entries},
                                  {"ras_athub", r.ras_athub},
                                  {"ras_cntlr", r.ras_cntlr},
                                  {"error_state", r.error_state}});
}

std::string to_text(const IhReport &r) {
  std::string s = fmt::format("IH ring 0: rptr {:#x} -> wptr {:#x} (dwords), {} entr{}{}\n", r.rptr,
                              r.wptr, r.entries.size(), r.entries.size() == 1 ? "y" : "ies",
                              r.overflow ? ", overflowed (cleared)" : "");
  for (const auto &h : r.entries) {
    const auto &e = h.entry;
    s += fmt::format("  [{:#07x}] client {} source {} ({}) ring {} vmid {} pasid {} ctx [{:#x}, "
                     "{:#x}, {:#x}, {:#x}]: {}\n",
                     h.rptr, e.client_id, e.source_id,
                     h.verdict.source_name.empty() ? "?" : h.verdict.source_name, e.ring_id, e.vmid,
                     e.pasid, e.context[0], e.context[1], e.context[2], e.context[3],
                     ih_action_name(h.verdict.action));
    if (h.verdict.sq_error_type)
      s += fmt::format("    SQ error: {}\n", sq_error_type_name(*h.verdict.sq_error_type));
    if (h.fault)
      s += fmt::format("    GCVM_L2_PROTECTION_FAULT_STATUS {:#010x}, address {:#x} (cleared)\n",
                       h.fault->status, h.fault->va());
  }
  if (r.ras_athub || r.ras_cntlr)
    s += fmt::format("fatal hardware error: {}{}(cleared)\n",
                     r.ras_athub ? "RAS_ATHUB_ERR_EVENT " : "", r.ras_cntlr ? "RAS_CNTLR " : "");
  s += fmt::format("error state: {}\n", r.error_state ? "yes" : "no");
  return s;
}

}  // namespace wavescope::hw::am
