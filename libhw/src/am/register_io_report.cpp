#include "wavescope/hw/am/register_io_report.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/json_line.hpp"
#include "wavescope/hw/regs/register_codec.hpp"

namespace wavescope::hw::am {

namespace {

std::vector<regs::FieldValue> fields_of(const RegisterIoReport &r) {
  auto all = regs::decode_register(*r.ref.reg, r.value);
  if (r.ref.field)
    all.erase(std::remove_if(all.begin(), all.end(),
                             [&](const regs::FieldValue &fv) { return fv.field != r.ref.field; }),
              all.end());
  return all;
}

std::string bits(const regs::Field &f) {
  return f.lo == f.hi ? fmt::format("[{}]", f.lo) : fmt::format("[{}:{}]", f.hi, f.lo);
}

}  // namespace

std::string to_json(const RegisterIoReport &r) {
  nlohmann::ordered_json j;
  j["device"] = r.device;
  j["ip"] = r.ref.block->name;
  j["name"] = std::string(r.ref.reg->umr_name());
  if (r.ref.field) j["field"] = std::string(r.ref.field->name);
  j["instance"] = r.instance;
  j["address"] = r.address;
  j["value"] = r.value;
  if (r.written) j["written"] = *r.written;
  nlohmann::ordered_json fields = nlohmann::ordered_json::array();
  for (const auto &fv : fields_of(r))
    fields.push_back({{"name", fv.field->name},
                      {"lo", fv.field->lo},
                      {"hi", fv.field->hi},
                      {"value", fv.value}});
  j["fields"] = std::move(fields);
  return json_line(j) + '\n';
}

std::string to_text(const RegisterIoReport &r) {
  std::string out;
  const std::string name =
      fmt::format("{}.{}[{}]", r.ref.block->name, r.ref.reg->umr_name(), r.instance);
  if (r.written)
    out += fmt::format("{}: wrote {} (0x{:X}) = 0x{:08X}, reads back 0x{:08X}\n", r.device, name,
                       r.address, *r.written, r.value);
  else
    out += fmt::format("{}: {} (0x{:X}) = 0x{:08X}\n", r.device, name, r.address, r.value);
  const auto values = fields_of(r);
  std::size_t w = 0;
  for (const auto &fv : values) w = std::max(w, fv.field->name.size() + bits(*fv.field).size() + 1);
  for (const auto &fv : values)
    out += fmt::format("    {:<{}} = {:#x}\n", std::string(fv.field->name) + " " + bits(*fv.field),
                       w, fv.value);
  return out;
}

}  // namespace wavescope::hw::am
