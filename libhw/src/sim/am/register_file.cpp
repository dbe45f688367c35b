#include "sim/am/register_file.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"

namespace wavescope::hw::sim::am {

RegisterFile::Hooks &RegisterFile::hooks_of(RegisterKey key, const std::string &owner) {
  auto &h = hooks_[key];
  if (h.owner.empty())
    h.owner = owner;
  else if (h.owner.find(owner) == std::string::npos)
    h.owner += "+" + owner;
  return h;
}

void RegisterFile::on_read(RegisterKey key, ReadHook hook, std::string owner) {
  hooks_of(key, owner).reads.push_back(std::move(hook));
}

void RegisterFile::on_write(RegisterKey key, WriteHook hook, std::string owner) {
  hooks_of(key, owner).writes.push_back(std::move(hook));
}

void RegisterFile::own(RegisterKey key, std::string owner) { hooks_of(key, owner); }

std::string RegisterFile::owner(RegisterKey key) const {
  const auto it = hooks_.find(key);
  return it == hooks_.end() ? std::string{} : it->second.owner;
}

std::uint32_t RegisterFile::peek(RegisterKey key) const {
  const auto it = values_.find(key);
  return it == values_.end() ? 0 : it->second;
}

void RegisterFile::poke(RegisterKey key, std::uint32_t value) { values_[key] = value; }

std::uint32_t RegisterFile::read(RegisterKey key, AccessPath path) {
  ++reads_;
  std::uint32_t value = peek(key);
  const auto it = hooks_.find(key);
  if (it != hooks_.end()) {
    for (const auto &hook : it->second.reads) value = hook(key, value);
  } else if (!stored(key)) {
    unmodelled_.insert(key);
  }
  if (trace_on_) hw::am::append_register_access(trace_, {false, key, value, path});
  return value;
}

void RegisterFile::write(RegisterKey key, std::uint32_t value, AccessPath path) {
  ++writes_;
  if (trace_on_) trace_.push_back({true, key, value, path});
  const std::uint32_t old = peek(key);
  values_[key] = value;
  const auto it = hooks_.find(key);
  if (it == hooks_.end()) return;
  // A hook may install hooks on this register; iterate over a copy of the list.
  const auto writes = it->second.writes;
  for (const auto &hook : writes) hook(key, value, old);
}

void RegisterFile::clear_values() { values_.clear(); }

std::vector<hw::am::RegisterAccess> RegisterFile::take_trace() {
  auto out = std::move(trace_);
  trace_.clear();
  return out;
}

nlohmann::json RegisterFile::save() const {
  std::vector<std::pair<RegisterKey, std::uint32_t>> sorted(values_.begin(), values_.end());
  std::sort(sorted.begin(), sorted.end());
  nlohmann::json j = nlohmann::json::object();
  for (const auto &[k, v] : sorted)
    if (v != 0) j[fmt::format("0x{:X}", k)] = fmt::format("0x{:X}", v);
  return j;
}

void RegisterFile::load(const nlohmann::json &json) {
  values_.clear();
  if (!json.is_object()) return;
  for (const auto &[k, v] : json.items()) {
    try {
      values_[std::stoull(k, nullptr, 16)] =
          static_cast<std::uint32_t>(std::stoull(v.get<std::string>(), nullptr, 16));
    } catch (const std::exception &) {
      throw Error(ErrorKind::BadInput,
                  fmt::format("fake GPU state: register entry '{}': '{}' is not a hex register "
                              "address and value",
                              k, v.dump()));
    }
  }
}

}  // namespace wavescope::hw::sim::am
