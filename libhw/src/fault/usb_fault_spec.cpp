#include "fault/usb_fault_spec.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/base/parse_number.hpp"

namespace wavescope::hw::device {

namespace {

constexpr const char *kForms =
    "usb:transfer=control-out|control-in|bulk-out|bulk-in[,request=0xF0][,mode=N][,nth=N][,after],"
    "effect=io|stall|timeout|no-device|overflow|short[,short=BYTES] | usb:return-status=K | "
    "usb:completion=ur|crs|ca[,count=N] | usb:link-training=LTSSM | usb:link-down-after=N";

std::uint64_t number(const std::string &spec, const std::string &key, const std::string &text) {
  if (const auto value = parse_unsigned(text)) return *value;
  throw Error(ErrorKind::Usage,
              fmt::format("USB fault '{}': {}='{}' is not a number", spec, key, text));
}

}  // namespace

void apply_usb_fault(UsbFaultPlan &plan, const std::string &spec) {
  std::map<std::string, std::string> kv;
  std::size_t start = 0;
  while (start < spec.size()) {
    std::size_t end = spec.find(',', start);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(start, end - start);
    const auto eq = item.find('=');
    if (!item.empty()) kv[item.substr(0, eq)] = eq == std::string::npos ? "" : item.substr(eq + 1);
    start = end + 1;
  }
  auto has = [&](const char *key) { return kv.count(key) != 0; };
  auto num = [&](const char *key) { return number(spec, key, kv.at(key)); };
  if (has("return-status")) {
    plan.return_status_for(static_cast<unsigned>(num("return-status")));
    return;
  }
  if (has("completion")) {
    const auto &c = kv["completion"];
    asm24::CompletionStatus status;
    if (c == "ur")
      status = asm24::CompletionStatus::UnsupportedRequest;
    else if (c == "crs")
      status = asm24::CompletionStatus::ConfigRetry;
    else if (c == "ca")
      status = asm24::CompletionStatus::CompleterAbort;
    else
      throw Error(ErrorKind::Usage,
                  fmt::format("USB fault '{}': completion must be ur, crs or ca", spec));
    plan.completion_status_for(has("count") ? static_cast<unsigned>(num("count")) : 1, status);
    return;
  }
  if (has("link-training")) {
    plan.link_training_fails(static_cast<std::uint8_t>(num("link-training")));
    return;
  }
  if (has("link-down-after")) {
    plan.link_down_after(num("link-down-after"));
    return;
  }
  if (!has("effect"))
    throw Error(ErrorKind::Usage,
                fmt::format("USB fault '{}' needs effect=...; forms: {}", spec, kForms));
  UsbFault fault;
  const auto &effect = kv["effect"];
  if (effect == "io")
    fault.effect = UsbFaultEffect::Io;
  else if (effect == "stall")
    fault.effect = UsbFaultEffect::Stall;
  else if (effect == "timeout")
    fault.effect = UsbFaultEffect::Timeout;
  else if (effect == "no-device")
    fault.effect = UsbFaultEffect::NoDevice;
  else if (effect == "overflow")
    fault.effect = UsbFaultEffect::Overflow;
  else if (effect == "short")
    fault.effect = UsbFaultEffect::Short;
  else
    throw Error(ErrorKind::Usage, fmt::format("USB fault '{}': unknown effect '{}'; forms: {}",
                                              spec, effect, kForms));
  if (has("transfer")) {
    const auto &t = kv["transfer"];
    if (t == "control-out")
      fault.kind = UsbTransferKind::ControlOut;
    else if (t == "control-in")
      fault.kind = UsbTransferKind::ControlIn;
    else if (t == "bulk-out")
      fault.kind = UsbTransferKind::BulkOut;
    else if (t == "bulk-in")
      fault.kind = UsbTransferKind::BulkIn;
    else
      throw Error(ErrorKind::Usage,
                  fmt::format("USB fault '{}': unknown transfer '{}'; forms: {}", spec, t, kForms));
  }
  if (has("request")) fault.request = static_cast<std::uint8_t>(num("request"));
  if (has("mode")) fault.index = static_cast<std::uint16_t>(num("mode"));
  if (has("nth")) fault.nth = num("nth");
  if (has("short")) fault.short_length = num("short");
  fault.and_after = has("after");
  for (const auto &[key, value] : kv) {
    static const char *const known[] = {"effect", "transfer", "request", "mode",
                                        "nth",    "short",    "after"};
    if (std::find(std::begin(known), std::end(known), key) == std::end(known))
      throw Error(ErrorKind::Usage,
                  fmt::format("USB fault '{}': unknown key '{}'; forms: {}", spec, key, kForms));
  }
  plan.add(fault);
}

}  // namespace wavescope::hw::device
