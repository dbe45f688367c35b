#include "wavescope/hw/am/discovery_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"

namespace wavescope::hw::am {

std::string to_json(const DiscoveryReport &report) {
  const auto &t = report.table;
  nlohmann::json dies = nlohmann::json::array();
  for (const auto &d : t.dies) {
    nlohmann::json ips = nlohmann::json::array();
    for (const auto &e : d.ips)
      ips.push_back({{"hw_id", e.hw_id},
                     {"hwip", hwip_names(e.hw_id)},
                     {"instance", e.instance},
                     {"version", fmt::format("{}.{}.{}", e.major, e.minor, e.revision)},
                     {"bases", e.bases}});
    dies.push_back({{"die_id", d.die_id}, {"ips", ips}});
  }
  nlohmann::json harvest = nlohmann::json::array();
  for (const auto &h : t.harvest) harvest.push_back({{"hw_id", h.hw_id}, {"instance", h.instance}});
  nlohmann::json gc = nullptr;
  if (t.has_gc_info) {
    gc = nlohmann::json{
        {"version", fmt::format("{}.{}", t.gc_info.version_major, t.gc_info.version_minor)}};
    for (const auto &[n, v] : t.gc_info.fields) gc[n] = v;
  }
  return json_line(nlohmann::json{{"source", report.source},
                                  {"ip_version", t.ip_version},
                                  {"base_addr_64_bit", t.base_addr_64_bit},
                                  {"dies", dies},
                                  {"harvest", harvest},
                                  {"gc_info", gc}});
}

std::string to_text(const DiscoveryReport &report) {
  const auto &t = report.table;
  std::string out = fmt::format("{}: IP discovery v{}, {}-bit bases, {} die(s)\n", report.source,
                                t.ip_version, t.base_addr_64_bit ? 64 : 32, t.dies.size());
  for (const auto &d : t.dies) {
    out += fmt::format("die {}\n", d.die_id);
    for (const auto &e : d.ips) {
      const auto names = hwip_names(e.hw_id);
      std::vector<std::string> bases;
      for (auto b : e.bases) bases.push_back(fmt::format("0x{:X}", b));
      out +=
          fmt::format("  {:<12} hw_id {:>3} inst {} v{}.{}.{}  bases {}\n",
                      names.empty() ? std::string("?") : fmt::format("{}", fmt::join(names, "/")),
                      e.hw_id, e.instance, e.major, e.minor, e.revision, fmt::join(bases, " "));
    }
  }
  for (const auto &h : t.harvest)
    out += fmt::format("harvested: hw_id {} instance {}\n", h.hw_id, h.instance);
  if (t.has_gc_info) {
    out += fmt::format("GC info v{}.{}:", t.gc_info.version_major, t.gc_info.version_minor);
    for (const auto &[n, v] : t.gc_info.fields) out += fmt::format(" {}={}", n, v);
    out += '\n';
  }
  return out;
}

}  // namespace wavescope::hw::am
