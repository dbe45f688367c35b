#include "wavescope/trace/pmc/counter_catalogue.hpp"

#include <algorithm>

#include "pmc/catalogue_tables.hpp"

namespace wavescope::trace::pmc {

std::string_view to_string(CounterFamily family) {
  switch (family) {
  case CounterFamily::Gfx11: return "gfx11";
  case CounterFamily::Gfx12: return "gfx12";
  case CounterFamily::Gfx950: return "gfx950";
  }
  return "unknown";
}

std::optional<CounterFamily> counter_family_for(std::string_view processor) {
  // "gfx11" / "gfx1100" ... are RDNA3, "gfx12" / "gfx120x" RDNA4; of CDNA only gfx950 has a table.
  if (processor == "gfx950") return CounterFamily::Gfx950;
  if (processor.starts_with("gfx11") && (processor.size() == 5 || processor.size() == 7))
    return CounterFamily::Gfx11;
  if (processor.starts_with("gfx12") && (processor.size() == 5 || processor.size() == 7))
    return CounterFamily::Gfx12;
  return std::nullopt;
}

const CounterCatalogue &CounterCatalogue::get(CounterFamily family) {
  static const CounterCatalogue gfx11(CounterFamily::Gfx11,
                                      {detail::kGfx11Counters, detail::kGfx11CounterCount});
  static const CounterCatalogue gfx12(CounterFamily::Gfx12,
                                      {detail::kGfx12Counters, detail::kGfx12CounterCount});
  static const CounterCatalogue gfx950(CounterFamily::Gfx950,
                                       {detail::kGfx950Counters, detail::kGfx950CounterCount});
  switch (family) {
  case CounterFamily::Gfx11: return gfx11;
  case CounterFamily::Gfx12: return gfx12;
  case CounterFamily::Gfx950: return gfx950;
  }
  return gfx11;
}

const CounterInfo *CounterCatalogue::find(std::string_view name) const {
  const auto it =
      std::lower_bound(counters_.begin(), counters_.end(), name,
                       [](const CounterInfo &c, std::string_view n) { return c.name < n; });
  return it != counters_.end() && it->name == name ? &*it : nullptr;
}

const CounterInfo *CounterCatalogue::find_select(std::string_view block,
                                                 std::uint32_t select) const {
  for (const auto &c : counters_)
    if (c.block == block && c.select == select) return &c;
  return nullptr;
}

std::vector<const CounterInfo *> CounterCatalogue::in_block(std::string_view block) const {
  std::vector<const CounterInfo *> out;
  for (const auto &c : counters_)
    if (c.block == block) out.push_back(&c);
  return out;
}

std::vector<std::string_view> CounterCatalogue::blocks() const {
  std::vector<std::string_view> out;
  for (const auto &c : counters_) out.push_back(c.block);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace wavescope::trace::pmc
