#include "sim/am/block_model.hpp"

#include <algorithm>
#include <mutex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/base/parse_number.hpp"

namespace wavescope::hw::sim::am {

namespace {

std::vector<BlockModelEntry> &registry() {
  static std::vector<BlockModelEntry> entries;
  return entries;
}

std::mutex &registry_mutex() {
  static std::mutex m;
  return m;
}

constexpr const char *kFaultForm = "BLOCK:KIND[,KEY=VALUE]... (e.g. psp:status,cmd=6,value=0x9)";

}  // namespace

nlohmann::json BlockModel::save() const { return nullptr; }
void BlockModel::load(const nlohmann::json &) {}
nlohmann::json BlockModel::status() const { return nullptr; }

std::uint64_t FaultRequest::number(const std::string &key, std::uint64_t fallback) const {
  const auto it = params.find(key);
  if (it == params.end()) return fallback;
  if (const auto v = parse_unsigned(it->second)) return *v;
  throw Error(ErrorKind::Usage, fmt::format("fault '{}': {}={} is not a number (decimal or 0x hex)",
                                            text, key, it->second));
}

FaultRequest parse_fault_request(const std::string &text) {
  FaultRequest f;
  f.text = text;
  const auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 >= text.size())
    throw Error(ErrorKind::Usage, fmt::format("fault '{}': expected {}", text, kFaultForm));
  f.block = text.substr(0, colon);
  std::string rest = text.substr(colon + 1);
  std::size_t at = 0;
  bool first = true;
  while (at <= rest.size()) {
    const auto comma = rest.find(',', at);
    const std::string item = rest.substr(at, comma == std::string::npos ? comma : comma - at);
    if (item.empty())
      throw Error(ErrorKind::Usage,
                  fmt::format("fault '{}': empty item; expected {}", text, kFaultForm));
    const auto eq = item.find('=');
    if (first) {
      if (eq != std::string::npos)
        throw Error(ErrorKind::Usage,
                    fmt::format("fault '{}': the first item names the kind; expected {}", text,
                                kFaultForm));
      f.kind = item;
    } else {
      if (eq == std::string::npos || eq == 0)
        throw Error(ErrorKind::Usage, fmt::format("fault '{}': '{}' is not KEY=VALUE", text, item));
      f.params[item.substr(0, eq)] = item.substr(eq + 1);
    }
    first = false;
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return f;
}

BlockModelRegistration::BlockModelRegistration(std::string name, int order,
                                               BlockModelFactory factory) {
  std::lock_guard lock(registry_mutex());
  registry().push_back({std::move(name), order, std::move(factory)});
}

std::vector<BlockModelEntry> registered_block_models() {
  std::lock_guard lock(registry_mutex());
  auto out = registry();
  std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
    return a.order != b.order ? a.order < b.order : a.name < b.name;
  });
  return out;
}

}  // namespace wavescope::hw::sim::am
