#include "wavescope/hw/am/page_table_report.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"

namespace wavescope::hw::am {

namespace {
const char *level_name(int level) {
  static const char *const names[] = {"PDB2", "PDB1", "PDB0", "PTB"};
  return level >= 0 && level < kPageTableLevels ? names[level] : "?";
}
std::string hex(std::uint64_t v) { return fmt::format("0x{:X}", v); }
std::string flag_letters(const PteFields &f) {
  std::string s;
  for (auto [on, letter] :
       {std::pair{f.valid, "V"}, std::pair{f.system, "S"}, std::pair{f.snooped, "N"},
        std::pair{f.readable, "R"}, std::pair{f.writeable, "W"}, std::pair{f.executable, "X"}})
    s += on ? letter : "-";
  return s;
}
const char *kind(const PteFields &f) { return !f.valid ? "invalid" : f.leaf ? "leaf" : "table"; }
}  // namespace

std::string to_json(const PageTableReport &r) {
  nlohmann::json out{{"generation", pt_generation_name(r.generation)}};
  if (!r.tables.empty()) {
    nlohmann::json tables = nlohmann::json::array();
    for (const auto &t : r.tables) {
      nlohmann::json entries = nlohmann::json::array();
      for (const auto &[i, e] : t.entries) {
        const auto f = decode_pte(r.generation, t.level, e);
        entries.push_back({{"index", i},
                           {"entry", hex(e)},
                           {"kind", kind(f)},
                           {"address", hex(f.address)},
                           {"frag", f.frag},
                           {"mtype", f.mtype},
                           {"flags", flag_letters(f)}});
      }
      tables.push_back(
          {{"paddr", hex(t.paddr)}, {"level", level_name(t.level)}, {"entries", entries}});
    }
    out["tables"] = tables;
  }
  if (!r.walks.empty()) {
    nlohmann::json walks = nlohmann::json::array();
    for (const auto &w : r.walks) {
      nlohmann::json steps = nlohmann::json::array();
      for (const auto &s : w.steps)
        steps.push_back({{"level", level_name(s.level)},
                         {"table", hex(s.table_paddr)},
                         {"index", s.index},
                         {"entry", hex(s.entry)}});
      nlohmann::json walk{{"va", hex(w.va)}, {"mapped", w.result.mapped}, {"steps", steps}};
      if (w.result.mapped) {
        walk["address"] = hex(w.result.address);
        walk["system"] = w.result.system;
        walk["level"] = level_name(w.result.level);
      }
      walks.push_back(walk);
    }
    out["walks"] = walks;
  }
  return json_line(out);
}

std::string to_text(const PageTableReport &r) {
  std::string s;
  if (!r.tables.empty()) {
    s += fmt::format("{} page tables ({} reachable)\n", pt_generation_name(r.generation),
                     r.tables.size());
    for (const auto &t : r.tables) {
      s += fmt::format("{} @0x{:X}\n", level_name(t.level), t.paddr);
      for (const auto &[i, e] : t.entries) {
        const auto f = decode_pte(r.generation, t.level, e);
        s += fmt::format("  [{:3}] 0x{:016X}  {:7}", i, e, kind(f));
        if (f.valid && !f.leaf)
          s += fmt::format(" -> 0x{:X}", f.address);
        else
          s += fmt::format(" 0x{:X} frag {} mtype {} {}", f.address, f.frag, f.mtype,
                           flag_letters(f));
        s += '\n';
      }
    }
  }
  for (const auto &w : r.walks) {
    if (w.result.mapped)
      s += fmt::format("0x{:X} -> {}0x{:X} ({} leaf)\n", w.va, w.result.system ? "system " : "",
                       w.result.address, level_name(w.result.level));
    else
      s += fmt::format("0x{:X} -> unmapped ({} entry 0x{:X})\n", w.va, level_name(w.result.level),
                       w.result.entry);
    for (const auto &st : w.steps)
      s += fmt::format("  {} @0x{:X} [{}] 0x{:016X}\n", level_name(st.level), st.table_paddr,
                       st.index, st.entry);
  }
  return s;
}

}  // namespace wavescope::hw::am
