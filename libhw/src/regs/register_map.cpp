// Which register table each IP block of a chip uses (am-driver.md §4.2), name resolution and
// search.

#include "wavescope/hw/regs/register_map.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::regs {
namespace {

char up(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; }

bool icontains(std::string_view text, std::string_view needle) {
  if (needle.size() > text.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
    std::size_t k = 0;
    while (k < needle.size() && up(text[i + k]) == up(needle[k])) ++k;
    if (k == needle.size()) return true;
  }
  return false;
}

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return up(x) == up(y); });
}

std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> out;
  for (;;) {
    const auto dot = s.find('.');
    out.push_back(s.substr(0, dot));
    if (dot == std::string_view::npos) return out;
    s.remove_prefix(dot + 1);
  }
}

std::string block_list(const RegisterMap &map) {
  std::vector<std::string> names;
  for (const auto &b : map.blocks()) names.push_back(b.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

// Up to three registers of the block whose names contain `name` (a hint for a typo).
std::string suggestions(const RegisterBlock &block, std::string_view name) {
  std::vector<std::string> hits;
  auto needle = name;
  if (needle.starts_with("reg") || needle.starts_with("REG")) needle.remove_prefix(3);
  for (const auto &r : block.table->registers()) {
    if (icontains(r.name, needle) || (!r.alias.empty() && icontains(r.alias, needle)))
      hits.emplace_back(r.umr_name());
    if (hits.size() == 3) break;
  }
  return hits.empty() ? std::string{} : fmt::format(" (similar: {})", fmt::join(hits, ", "));
}

std::string field_list(const Register &reg) {
  std::vector<std::string_view> names;
  for (const auto &f : reg.fields) names.push_back(f.name);
  if (names.empty()) return "it has no fields";
  return fmt::format("its fields: {}", fmt::join(names, ", "));
}

const Field *field_of(const RegisterBlock &block, const Register &reg, std::string_view name) {
  const auto *f = reg.field(name);
  if (!f)
    throw Error(ErrorKind::Usage,
                fmt::format("unknown field '{}' of register {}.{} ({}; {})", name, block.name,
                            reg.umr_name(), block.table->name(), field_list(reg)));
  return f;
}

}  // namespace

bool glob_match(std::string_view p, std::string_view t) {
  std::size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == '?' || up(p[pi]) == up(t[ti]))) {
      ++pi, ++ti;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++, mark = ti;
    } else if (star != std::string_view::npos) {
      pi = star + 1, ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

RegisterMap RegisterMap::from_discovery(const am::DiscoveryTable &table) {
  // Instances per HWIP name, in discovery order, and each IP's version (the first instance's).
  std::map<std::string, std::pair<IpVersion, std::vector<std::vector<std::uint64_t>>>> ips;
  std::vector<std::string> order;
  for (const auto &die : table.dies)
    for (const auto &e : die.ips) {
      const auto names = am::hwip_names(e.hw_id);
      if (names.empty()) continue;
      auto [it, fresh] = ips.try_emplace(names[0]);
      if (fresh) {
        it->second.first = {e.major, e.minor, e.revision};
        order.push_back(names[0]);
      }
      it->second.second.push_back(e.bases);
    }
  const auto gc = ips.find("GC");
  const unsigned gc_major = gc == ips.end() ? 0 : gc->second.first.major;
  RegisterMap map;
  for (const auto &hwip : order) {
    const auto &[version, bases] = ips[hwip];
    std::string block, family;
    IpVersion table_version = version;
    if (hwip == "GC")
      block = "gc", family = "gc";
    else if (hwip == "MMHUB")
      block = "mmhub", family = "mmhub";
    else if (hwip == "NBIO")
      block = "nbio", family = gc_major >= 12 ? "nbif" : "nbio";
    else if (hwip == "MP0")
      block = "mp0", family = "mp";
    else if (hwip == "MP1")
      block = "mp1", family = "mp", table_version = {11, 0, 0};
    else if (hwip == "HDP")
      block = "hdp", family = "hdp";
    else if (hwip == "OSSSYS")
      block = "osssys", family = "osssys";
    else if (hwip == "SDMA0" && version.major == 4 && version.minor == 4 &&
             (version.revision == 2 || version.revision == 4))
      block = "sdma0", family = "sdma", table_version = {4, 4, 2};
    else
      continue;
    const auto *t = select_register_table(family, table_version);
    if (!t) continue;
    map.blocks_.push_back({block, t, version, bases});
  }
  return map;
}

RegisterMap RegisterMap::for_asic(std::string_view asic) {
  const auto profile = am::chip_profile(std::string(asic));
  am::DiscoveryTable t;
  t.dies = profile.dies;
  auto map = from_discovery(t);
  map.description_ = std::string(asic);
  return map;
}

RegisterMap RegisterMap::all_tables() {
  RegisterMap map;
  map.description_ = "all tables";
  for (const auto &name : register_table_names()) {
    const auto &t = register_table(name);
    map.blocks_.push_back({name, &t, t.version(), {}});
  }
  return map;
}

const RegisterBlock *RegisterMap::block(std::string_view name) const {
  for (const auto &b : blocks_)
    if (iequal(b.name, name)) return &b;
  return nullptr;
}

RegisterRef resolve_register(const RegisterMap &map, std::string_view name) {
  const auto parts = split_dots(name);
  if (parts.size() > 3 || std::any_of(parts.begin(), parts.end(), [](auto p) { return p.empty(); }))
    throw Error(
        ErrorKind::Usage,
        fmt::format("bad register name '{}': write IP.REG, IP.REG.FIELD, REG or REG.FIELD", name));
  const RegisterBlock *block = parts.size() >= 2 ? map.block(parts[0]) : nullptr;
  if (parts.size() == 3 && !block)
    throw Error(ErrorKind::Usage, fmt::format("unknown IP block '{}' in '{}' (blocks of {}: {})",
                                              parts[0], name, map.description(), block_list(map)));
  if (block) {
    const auto *reg = block->table->find(parts[1]);
    if (!reg)
      throw Error(ErrorKind::Usage,
                  fmt::format("unknown register '{}' in {} ({}){}", parts[1], block->name,
                              block->table->name(), suggestions(*block, parts[1])));
    return {block, reg, parts.size() == 3 ? field_of(*block, *reg, parts[2]) : nullptr};
  }
  // No block: the register must be in exactly one block.
  std::vector<RegisterRef> hits;
  for (const auto &b : map.blocks())
    if (const auto *reg = b.table->find(parts[0])) hits.push_back({&b, reg, nullptr});
  if (hits.empty()) {
    std::string hint;
    for (const auto &b : map.blocks())
      if (hint.empty()) hint = suggestions(b, parts[0]);
    throw Error(ErrorKind::Usage,
                fmt::format("unknown register '{}' in {}{}", parts[0], map.description(), hint));
  }
  if (hits.size() > 1) {
    std::vector<std::string> names;
    for (const auto &h : hits) names.push_back(h.block->name);
    throw Error(ErrorKind::Usage,
                fmt::format("register '{}' is in {} blocks ({}): write IP.{}", parts[0],
                            hits.size(), fmt::join(names, ", "), parts[0]));
  }
  if (parts.size() == 2) hits[0].field = field_of(*hits[0].block, *hits[0].reg, parts[1]);
  return hits[0];
}

std::vector<RegisterRef> find_registers(const RegisterMap &map, std::string_view pattern) {
  std::string_view ip_part, reg_part = pattern;
  const auto dot = pattern.find('.');
  if (dot != std::string_view::npos)
    ip_part = pattern.substr(0, dot), reg_part = pattern.substr(dot + 1);
  if (reg_part.empty() || reg_part.find('.') != std::string_view::npos)
    throw Error(ErrorKind::Usage,
                fmt::format("bad register pattern '{}': write [IP.]REG, with * and ? as wildcards",
                            pattern));
  const bool glob = reg_part.find_first_of("*?") != std::string_view::npos;
  std::vector<RegisterRef> out;
  bool any_block = false;
  for (const auto &b : map.blocks()) {
    if (!ip_part.empty() && !glob_match(ip_part, b.name)) continue;
    any_block = true;
    for (const auto &r : b.table->registers()) {
      const bool hit =
          glob ? glob_match(reg_part, r.name) || glob_match(reg_part, r.base_name()) ||
                     (!r.alias.empty() && glob_match(reg_part, r.alias))
               : icontains(r.name, reg_part) || (!r.alias.empty() && icontains(r.alias, reg_part));
      if (hit) out.push_back({&b, &r, nullptr});
    }
  }
  if (!any_block)
    throw Error(ErrorKind::Usage, fmt::format("no IP block matches '{}' (blocks of {}: {})",
                                              ip_part, map.description(), block_list(map)));
  return out;
}

std::uint64_t register_address(const RegisterBlock &block, const Register &reg, unsigned instance) {
  if (instance >= block.bases.size())
    throw Error(ErrorKind::Usage, fmt::format("{} has {} instance(s); instance {} does not exist",
                                              block.name, block.bases.size(), instance));
  const auto &bases = block.bases[instance];
  if (reg.segment >= bases.size())
    throw Error(ErrorKind::Usage,
                fmt::format("{}.{}: segment {} has no base on instance {} ({} bases)", block.name,
                            reg.umr_name(), reg.segment, instance, bases.size()));
  return bases[reg.segment] + reg.offset;
}

}  // namespace wavescope::hw::regs
