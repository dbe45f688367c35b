#include "wavescope/hw/regs/register_report.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/hw/regs/register_codec.hpp"

namespace wavescope::hw::regs {
namespace {

nlohmann::json register_json(const RegisterRef &ref) {
  return {{"ip", ref.block->name},
          {"table", ref.block->table->name()},
          {"name", ref.reg->name},
          {"offset", ref.reg->offset},
          {"segment", ref.reg->segment}};
}

std::string bits(const Field &f) {
  return f.lo == f.hi ? fmt::format("[{}]", f.lo) : fmt::format("[{}:{}]", f.hi, f.lo);
}

std::string title(const RegisterRef &ref) {
  std::string alias = ref.reg->alias.empty() ? "" : fmt::format(", alias {}", ref.reg->alias);
  return fmt::format("{}.{}  ({}, {}{}, offset {:#x}, segment {})", ref.block->name,
                     ref.reg->base_name(), ref.reg->name, ref.block->table->name(), alias,
                     ref.reg->offset, ref.reg->segment);
}

// Fields of the decode: every field, or the one of a field ref.
std::vector<FieldValue> decoded(const RegisterDecodeReport &r) {
  auto all = decode_register(*r.ref.reg, r.value);
  if (r.ref.field)
    all.erase(std::remove_if(all.begin(), all.end(),
                             [&](const FieldValue &fv) { return fv.field != r.ref.field; }),
              all.end());
  return all;
}

}  // namespace

std::string to_json(const RegisterFindReport &report) {
  std::string out;
  for (const auto &m : report.matches) {
    auto j = register_json(m);
    nlohmann::json fields = nlohmann::json::array();
    for (const auto &f : m.reg->fields)
      fields.push_back({{"name", f.name}, {"lo", f.lo}, {"hi", f.hi}});
    j["fields"] = std::move(fields);
    out += json_line(j) + '\n';
  }
  return out;
}

std::string to_text(const RegisterFindReport &report) {
  if (report.matches.empty())
    return fmt::format("no register matches '{}' in {}\n", report.pattern, report.scope);
  std::string out;
  for (const auto &m : report.matches) {
    out += title(m) + '\n';
    std::size_t w = 0;
    for (const auto &f : m.reg->fields) w = std::max(w, f.name.size());
    for (const auto &f : m.reg->fields) out += fmt::format("    {:<{}}  {}\n", f.name, w, bits(f));
  }
  out += fmt::format("{} register{} in {}\n", report.matches.size(),
                     report.matches.size() == 1 ? "" : "s", report.scope);
  return out;
}

std::string to_json(const RegisterDecodeReport &report) {
  const auto values = decoded(report);
  auto j = register_json(report.ref);
  j["value"] = report.value;
  nlohmann::json fields = nlohmann::json::array();
  for (const auto &fv : values)
    fields.push_back({{"name", fv.field->name},
                      {"lo", fv.field->lo},
                      {"hi", fv.field->hi},
                      {"value", fv.value}});
  j["fields"] = std::move(fields);
  return json_line(j) + '\n';
}

std::string to_text(const RegisterDecodeReport &report) {
  const auto values = decoded(report);
  const unsigned digits = (register_width(*report.ref.reg) + 3) / 4;
  std::string out = fmt::format("{} = {:#0{}x}\n", title(report.ref), report.value, digits + 2);
  if (values.empty()) out += "    (no fields)\n";
  std::size_t w = 0;
  for (const auto &fv : values) w = std::max(w, fv.field->name.size() + bits(*fv.field).size() + 1);
  for (const auto &fv : values)
    out += fmt::format("    {:<{}} = {:#x}\n", std::string(fv.field->name) + " " + bits(*fv.field),
                       w, fv.value);
  return out;
}

}  // namespace wavescope::hw::regs
