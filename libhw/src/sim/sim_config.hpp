#pragma once
// Behaviour knobs of the simulated Navi31 board (navi31-flash.md §10). Every knob has the spec's
// default; tests and `wavectl sim create` override them. The config is persisted with the board.

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace wavescope::hw::sim {

using Nanoseconds = std::chrono::nanoseconds;

enum class Profile { Strict, Lenient };
enum class GateMode { Sticky, Silent };
enum class RxLagTrigger { Rx, Any };           // §4.3: which launches load the RX window
enum class BrickedMailbox { Dead, Recovery };  // §10.7 hypothesis for a stalled PBL

// One entry of the PSP's transfer script: the item it asks for next and the phase.
struct ScriptStep {
  std::uint8_t item = 0;
  std::uint8_t phase = 0;
  bool operator==(const ScriptStep &) const = default;
};

// The 18-item default script of §10.7 (an assumption: the real order is not in the sources).
std::vector<ScriptStep> default_psp_script();

struct SimConfig {
  std::uint64_t seed = 0x1F31;  // every random choice of the simulator comes from it

  // Time (§10.1): each transport operation costs op_cost of virtual time — 125 µs through the
  // USB bridge (split over its transfers), 1 µs on the native (sim-pci) path.
  Nanoseconds op_cost = std::chrono::microseconds(125);
  Nanoseconds op_cost_native = std::chrono::microseconds(1);

  // ROM_SW engine (§10.3).
  Profile profile = Profile::Strict;
  unsigned rx_lag = 1;  // 0 or 1
  RxLagTrigger rx_lag_trigger = RxLagTrigger::Rx;
  Nanoseconds sw_latency{0};   // extra time before DONE is visible
  bool force_ungated = false;  // test-only: ROM_SW runs in BOOTED

  // Chip (§10.5).
  std::uint8_t jedec[3] = {0xC8, 0x60, 0x15};
  unsigned rdid_rotate = 0;  // 0..3
  Nanoseconds t_se = std::chrono::milliseconds(50);
  Nanoseconds t_pp = std::chrono::microseconds(600);
  Nanoseconds t_w = std::chrono::milliseconds(5);
  bool protected_clears_wel = true;  // a refused erase/program/WRSR clears WEL
  bool wp_asserted = false;          // WP# pin (de-asserted by default)

  // ROM aperture (§10.6).
  std::uint32_t aperture_size = 0x200000;  // 0x100000 mirrors the halves
  bool rom_present = true;

  // PSP (§10.7).
  BrickedMailbox bricked_mailbox = BrickedMailbox::Dead;
  Nanoseconds psp_latency = std::chrono::microseconds(20);
  Nanoseconds psp_end_latency = std::chrono::milliseconds(200);
  std::vector<ScriptStep> psp_script = default_psp_script();
  bool live_update_succeeds = false;  // SOS command 0x04 copies from simulated VRAM

  bool operator==(const SimConfig &) const = default;
};

// JSON round trip for persistence; unknown keys are ignored, missing keys keep the defaults.
nlohmann::json to_json(const SimConfig &config);
SimConfig config_from_json(const nlohmann::json &json);

// Applies one "key=value" override (e.g. "rx_lag=0", "t_se_us=3000000", "profile=lenient");
// throws Error(Usage) naming the key and the accepted values.
void apply_config_override(SimConfig &config, const std::string &assignment);

}  // namespace wavescope::hw::sim
