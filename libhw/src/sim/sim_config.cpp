#include "sim/sim_config.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/base/parse_number.hpp"

namespace wavescope::hw::sim {

std::vector<ScriptStep> default_psp_script() {
  std::vector<ScriptStep> script;
  for (std::uint8_t item : {0x01, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88})
    script.push_back({item, 0});
  for (std::uint8_t item : {0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x89}) script.push_back({item, 1});
  script.push_back({0x08, 2});
  return script;
}

namespace {

std::int64_t ns(Nanoseconds d) { return d.count(); }

std::uint64_t parse_number(const std::string &key, const std::string &text) {
  if (const auto value = parse_unsigned(text)) return *value;
  throw Error(ErrorKind::Usage,
              fmt::format("simulator setting {}: '{}' is not a number", key, text));
}

bool parse_bool(const std::string &key, const std::string &text) {
  if (text == "1" || text == "true" || text == "on" || text == "yes") return true;
  if (text == "0" || text == "false" || text == "off" || text == "no") return false;
  throw Error(ErrorKind::Usage,
              fmt::format("simulator setting {}: '{}' is not a boolean (true/false)", key, text));
}

}  // namespace

nlohmann::json to_json(const SimConfig &c) {
  nlohmann::json script = nlohmann::json::array();
  for (const auto &step : c.psp_script) script.push_back({step.item, step.phase});
  return {
      {"seed", c.seed},
      {"op_cost_ns", ns(c.op_cost)},
      {"op_cost_native_ns", ns(c.op_cost_native)},
      {"profile", c.profile == Profile::Strict ? "strict" : "lenient"},
      {"rx_lag", c.rx_lag},
      {"rx_lag_trigger", c.rx_lag_trigger == RxLagTrigger::Rx ? "rx" : "any"},
      {"sw_latency_ns", ns(c.sw_latency)},
      {"force_ungated", c.force_ungated},
      {"jedec", {c.jedec[0], c.jedec[1], c.jedec[2]}},
      {"rdid_rotate", c.rdid_rotate},
      {"t_se_ns", ns(c.t_se)},
      {"t_pp_ns", ns(c.t_pp)},
      {"t_w_ns", ns(c.t_w)},
      {"protected_clears_wel", c.protected_clears_wel},
      {"wp_asserted", c.wp_asserted},
      {"aperture_size", c.aperture_size},
      {"rom_present", c.rom_present},
      {"bricked_mailbox", c.bricked_mailbox == BrickedMailbox::Dead ? "dead" : "recovery"},
      {"psp_latency_ns", ns(c.psp_latency)},
      {"psp_end_latency_ns", ns(c.psp_end_latency)},
      {"psp_script", script},
      {"live_update_succeeds", c.live_update_succeeds},
  };
}

SimConfig config_from_json(const nlohmann::json &j) {
  SimConfig c;
  auto get = [&](const char *key, auto &out) {
    if (j.contains(key)) j.at(key).get_to(out);
  };
  auto get_ns = [&](const char *key, Nanoseconds &out) {
    if (j.contains(key)) out = Nanoseconds(j.at(key).get<std::int64_t>());
  };
  get("seed", c.seed);
  get_ns("op_cost_ns", c.op_cost);
  get_ns("op_cost_native_ns", c.op_cost_native);
  if (j.contains("profile"))
    c.profile = j["profile"] == "lenient" ? Profile::Lenient : Profile::Strict;
  get("rx_lag", c.rx_lag);
  if (j.contains("rx_lag_trigger"))
    c.rx_lag_trigger = j["rx_lag_trigger"] == "any" ? RxLagTrigger::Any : RxLagTrigger::Rx;
  get_ns("sw_latency_ns", c.sw_latency);
  get("force_ungated", c.force_ungated);
  if (j.contains("jedec")) {
    for (int i = 0; i < 3; ++i) c.jedec[i] = j["jedec"].at(i).get<std::uint8_t>();
  }
  get("rdid_rotate", c.rdid_rotate);
  get_ns("t_se_ns", c.t_se);
  get_ns("t_pp_ns", c.t_pp);
  get_ns("t_w_ns", c.t_w);
  get("protected_clears_wel", c.protected_clears_wel);
  get("wp_asserted", c.wp_asserted);
  get("aperture_size", c.aperture_size);
  get("rom_present", c.rom_present);
  if (j.contains("bricked_mailbox"))
    c.bricked_mailbox =
        j["bricked_mailbox"] == "recovery" ? BrickedMailbox::Recovery : BrickedMailbox::Dead;
  get_ns("psp_latency_ns", c.psp_latency);
  get_ns("psp_end_latency_ns", c.psp_end_latency);
  if (j.contains("psp_script")) {
    c.psp_script.clear();
    for (const auto &step : j["psp_script"])
      c.psp_script.push_back({step.at(0).get<std::uint8_t>(), step.at(1).get<std::uint8_t>()});
  }
  get("live_update_succeeds", c.live_update_succeeds);
  // A damaged state file must not make the simulator divide by zero or run backwards.
  if (c.aperture_size != 0x100000 && c.aperture_size != 0x200000)
    throw Error(
        ErrorKind::BadInput,
        fmt::format("simulator setting aperture_size 0x{:X} is not 1 or 2 MiB", c.aperture_size));
  if (c.rx_lag > 1)
    throw Error(ErrorKind::BadInput,
                fmt::format("simulator setting rx_lag {} is not 0 or 1", c.rx_lag));
  for (auto d : {c.op_cost, c.op_cost_native, c.sw_latency, c.t_se, c.t_pp, c.t_w, c.psp_latency,
                 c.psp_end_latency})
    if (d.count() < 0)
      throw Error(ErrorKind::BadInput, "simulator timing settings must not be negative");
  c.rdid_rotate %= 4;
  return c;
}

void apply_config_override(SimConfig &c, const std::string &assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos)
    throw Error(ErrorKind::Usage,
                fmt::format("simulator setting '{}': expected KEY=VALUE", assignment));
  const std::string key = assignment.substr(0, eq);
  const std::string value = assignment.substr(eq + 1);
  auto us = [&](Nanoseconds &out) { out = std::chrono::microseconds(parse_number(key, value)); };
  if (key == "seed")
    c.seed = parse_number(key, value);
  else if (key == "op_cost_us")
    us(c.op_cost);
  else if (key == "op_cost_native_us")
    us(c.op_cost_native);
  else if (key == "profile") {
    if (value != "strict" && value != "lenient")
      throw Error(ErrorKind::Usage, "simulator setting profile: expected strict or lenient");
    c.profile = value == "strict" ? Profile::Strict : Profile::Lenient;
  } else if (key == "rx_lag") {
    const auto lag = parse_number(key, value);
    if (lag > 1) throw Error(ErrorKind::Usage, "simulator setting rx_lag: expected 0 or 1");
    c.rx_lag = static_cast<unsigned>(lag);
  } else if (key == "rx_lag_trigger") {
    if (value != "rx" && value != "any")
      throw Error(ErrorKind::Usage, "simulator setting rx_lag_trigger: expected rx or any");
    c.rx_lag_trigger = value == "rx" ? RxLagTrigger::Rx : RxLagTrigger::Any;
  } else if (key == "sw_latency_us")
    us(c.sw_latency);
  else if (key == "force_ungated")
    c.force_ungated = parse_bool(key, value);
  else if (key == "jedec") {
    const auto id = parse_number(key, value);
    if (id > 0xFFFFFF)
      throw Error(ErrorKind::Usage, "simulator setting jedec: expected 3 bytes, e.g. 0xC86015");
    c.jedec[0] = static_cast<std::uint8_t>(id >> 16);
    c.jedec[1] = static_cast<std::uint8_t>(id >> 8);
    c.jedec[2] = static_cast<std::uint8_t>(id);
  } else if (key == "rdid_rotate")
    c.rdid_rotate = static_cast<unsigned>(parse_number(key, value) % 4);
  else if (key == "t_se_us")
    us(c.t_se);
  else if (key == "t_pp_us")
    us(c.t_pp);
  else if (key == "t_w_us")
    us(c.t_w);
  else if (key == "wp_asserted")
    c.wp_asserted = parse_bool(key, value);
  else if (key == "aperture_size") {
    const auto size = parse_number(key, value);
    if (size != 0x100000 && size != 0x200000)
      throw Error(ErrorKind::Usage,
                  "simulator setting aperture_size: expected 0x100000 or 0x200000");
    c.aperture_size = static_cast<std::uint32_t>(size);
  } else if (key == "rom_present")
    c.rom_present = parse_bool(key, value);
  else if (key == "bricked_mailbox") {
    if (value != "dead" && value != "recovery")
      throw Error(ErrorKind::Usage, "simulator setting bricked_mailbox: expected dead or recovery");
    c.bricked_mailbox = value == "dead" ? BrickedMailbox::Dead : BrickedMailbox::Recovery;
  } else if (key == "psp_latency_us")
    us(c.psp_latency);
  else if (key == "psp_end_latency_us")
    us(c.psp_end_latency);
  else if (key == "live_update_succeeds")
    c.live_update_succeeds = parse_bool(key, value);
  else
    throw Error(
        ErrorKind::Usage,
        fmt::format(
            "unknown simulator setting '{}' (known: seed, op_cost_us, op_cost_native_us, profile, "
            "rx_lag, rx_lag_trigger, sw_latency_us, force_ungated, jedec, "
            "rdid_rotate, t_se_us, t_pp_us, t_w_us, wp_asserted, aperture_size, "
            "rom_present, bricked_mailbox, psp_latency_us, psp_end_latency_us, "
            "live_update_succeeds)",
            key));
}

}  // namespace wavescope::hw::sim
