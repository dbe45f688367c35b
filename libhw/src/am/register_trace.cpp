#include "wavescope/hw/am/register_trace.hpp"

#include <unordered_map>

#include <fmt/format.h>

namespace wavescope::hw::am {

struct RegisterNamer::Index {
  std::unordered_map<std::uint64_t, RegisterName> names;
};

RegisterNamer::RegisterNamer(const regs::RegisterMap &map) : index_(std::make_unique<Index>()) {
  auto &names = index_->names;
  // Fixed indices every part has before discovery (§2).
  const std::pair<std::uint64_t, const char *> fixed[] = {{0x0, "MM_INDEX"},
                                                          {0x1, "MM_DATA"},
                                                          {0x6, "MM_INDEX_HI"},
                                                          {0xDE3, "RCC_CONFIG_MEMSIZE"},
                                                          {0xDE5, "RCC_IOV_FUNC_IDENTIFIER"}};
  for (const auto &[address, name] : fixed) names.emplace(address, RegisterName{name, 0});
  // Registers on a non-zero segment base first: a zero base is often a padding entry of the
  // discovery table, whose "addresses" would shadow real registers. Then the zero bases (NBIO's
  // segment 0 really is at 0). Within a pass the first block and register win.
  for (int pass = 0; pass < 2; ++pass)
    for (const auto &block : map.blocks())
      for (unsigned inst = 0; inst < block.bases.size(); ++inst)
        for (const auto &reg : block.table->registers()) {
          const auto &bases = block.bases[inst];
          if (reg.segment >= bases.size()) continue;
          if ((bases[reg.segment] == 0) != (pass == 1)) continue;
          names.emplace(bases[reg.segment] + reg.offset,
                        RegisterName{fmt::format("{}.{}", block.name, reg.umr_name()), inst});
        }
}

RegisterNamer::~RegisterNamer() = default;
RegisterNamer::RegisterNamer(RegisterNamer &&) noexcept = default;
RegisterNamer &RegisterNamer::operator=(RegisterNamer &&) noexcept = default;

RegisterName RegisterNamer::name(std::uint64_t address) const {
  const auto it = index_->names.find(address);
  return it == index_->names.end() ? RegisterName{} : it->second;
}

void append_register_access(std::vector<RegisterAccess> &trace, const RegisterAccess &a) {
  if (!a.write && !trace.empty()) {
    auto &last = trace.back();
    if (!last.write && last.address == a.address && last.value == a.value && last.path == a.path) {
      last.count += a.count;
      return;
    }
  }
  trace.push_back(a);
}

std::string format_register_access(const RegisterAccess &a, const RegisterNamer *namer) {
  std::string name = "?";
  if (namer) {
    const auto n = namer->name(a.address);
    if (!n.name.empty()) name = fmt::format("{}[{}]", n.name, n.instance);
  }
  const char *path = a.path == RegisterAccessPath::Rsmu         ? " rsmu"
                     : a.path == RegisterAccessPath::PcieIndex2 ? " index2"
                                                                : "";
  std::string out =
      fmt::format("{} {}{} 0x{:X} = 0x{:08X}", a.write ? 'W' : 'R', name, path, a.address, a.value);
  if (a.count > 1) out += fmt::format(" x{}", a.count);
  return out;
}

std::string format_register_trace(const std::vector<RegisterAccess> &trace,
                                  const RegisterNamer *namer) {
  std::string out;
  for (const auto &a : trace) {
    out += format_register_access(a, namer);
    out += '\n';
  }
  return out;
}

}  // namespace wavescope::hw::am
