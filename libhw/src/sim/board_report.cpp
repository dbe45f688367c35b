#include "wavescope/hw/sim/board_report.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/navi31_board.hpp"
#include "wavescope/base/json_line.hpp"
#include "wavescope/base/sha256.hpp"
#include "wavescope/hw/navi31/protection.hpp"
#include "wavescope/hw/navi31/spi_flash_facts.hpp"

namespace wavescope::hw::sim {

using nlohmann::json;

BoardStatus board_status(Navi31Board &b, const std::string &name,
                         const std::filesystem::path &path) {
  BoardStatus s;
  s.name = name;
  s.path = path;
  s.state = std::string(to_string(b.state()));
  s.booted_slot = b.booted_slot() ? (*b.booted_slot() == Slot::A ? "A" : "B") : "";
  s.offline_reason = b.offline_reason();
  s.sr1 = b.sr1();
  s.sr2 = b.sr2();
  s.sr3 = b.sr3();
  s.protected_range =
      navi31::protected_range(s.sr1, s.sr2, navi31::kFlashSize).describe(navi31::kFlashSize);
  s.flash_sha256 = sha256_hex(b.flash());
  for (const auto &f : b.faults().all()) s.faults.push_back({f.describe(), f.matched, f.fired});
  const auto &c = b.config();
  s.profile = c.profile == Profile::Strict ? "strict" : "lenient";
  s.rx_lag = c.rx_lag;
  s.rx_lag_trigger = c.rx_lag_trigger == RxLagTrigger::Rx ? "rx" : "any";
  s.op_cost_us = std::chrono::duration<double, std::micro>(c.op_cost).count();
  s.psp_commits = b.psp().commits();
  return s;
}

std::string to_json(const BoardStatus &s) {
  json faults = json::array();
  for (const auto &f : s.faults)
    faults.push_back({{"spec", f.spec}, {"matched", f.matched}, {"fired", f.fired}});
  json j = {{"name", s.name},
            {"device", "sim:" + s.name},
            {"path", s.path.string()},
            {"state", s.state},
            {"booted_slot", s.booted_slot},
            {"offline_reason", s.offline_reason},
            {"sr1", s.sr1},
            {"sr2", s.sr2},
            {"sr3", s.sr3},
            {"protected", s.protected_range},
            {"flash_sha256", s.flash_sha256},
            {"faults", faults},
            {"profile", s.profile},
            {"rx_lag", s.rx_lag},
            {"rx_lag_trigger", s.rx_lag_trigger},
            {"op_cost_us", s.op_cost_us},
            {"psp_commits", s.psp_commits}};
  if (s.last_run_json)
    j["last_run"] = s.last_run_json->empty() ? json() : json::parse(*s.last_run_json);
  return json_line(j);
}

std::string to_text(const BoardStatus &s) {
  std::string out = fmt::format("simulated board {} ({})\n", s.name, s.path.string());
  out += fmt::format("  state        {}{}\n", s.state,
                     s.booted_slot != "" ? " (slot " + s.booted_slot + ")" : "");
  if (s.offline_reason != "") out += "  offline      " + s.offline_reason + '\n';
  out += fmt::format("  SR1/SR2/SR3  0x{:02X} 0x{:02X} 0x{:02X} (protected: {})\n", s.sr1, s.sr2,
                     s.sr3, s.protected_range);
  out += "  flash SHA256 " + s.flash_sha256 + '\n';
  out += fmt::format("  engine       profile {}, rx_lag {} ({}), {} us per operation\n", s.profile,
                     s.rx_lag, s.rx_lag_trigger, s.op_cost_us);
  if (s.faults.empty()) out += "  faults       none\n";
  for (const auto &f : s.faults)
    out += fmt::format("  fault        {} (matched {}, fired {})\n", f.spec, f.matched, f.fired);
  if (s.last_run_json && !s.last_run_json->empty()) {
    const json last_run = json::parse(*s.last_run_json);
    out += "  last run     " + last_run.value("command", "") + " on " +
           last_run.value("device", "") + '\n';
    for (const auto &f : last_run.value("findings", json::array()))
      out += "    " + f["check"].get<std::string>() + ": " + f["message"].get<std::string>() + '\n';
  }
  return out;
}

std::string to_json(const BoardRemovalReport &r) { return json_line(json{{"removed", r.name}}); }

std::string to_text(const BoardRemovalReport &r) {
  return "removed simulated board " + r.name + '\n';
}

}  // namespace wavescope::hw::sim
