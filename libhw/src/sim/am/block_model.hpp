#pragma once
// How an IP block of the fake GPU is modelled (docs/am-driver.md, "The fake GPU"). A block model
// installs read/write hooks on the registers it owns, keeps its own state (saved with the chip),
// resets on power-on and mode-1 reset, and takes the faults addressed to it. Models register
// themselves with a BlockModelRegistration in their own .cpp file, so a new block (GMC, IH, CP,
// SDMA, ...) is added without touching the core:
//
//   namespace { const BlockModelRegistration kGmc("gmc", 30, [](FakeGpu &gpu) {
//     return std::make_unique<GmcModel>(gpu); }); }
//
// The factory may return nullptr when the block does not exist on that chip.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace wavescope::hw::sim::am {

class FakeGpu;

enum class ResetKind {
  PowerOn,  // a new chip, or the power was cut: registers are at their reset values
  Mode1,    // SMU mode-1 reset: every block restarts; VRAM keeps its contents
};

// One armed fault: "BLOCK:KIND[,KEY=VALUE]...", e.g. "psp:status,cmd=6,value=0x9" or
// "smu:timeout,msg=0x12,nth=2".
struct FaultRequest {
  std::string block;
  std::string kind;
  std::map<std::string, std::string> params;
  std::string text;  // as given
  // A parameter as a number (decimal or 0x hex); `fallback` when absent; Error(Usage) when bad.
  std::uint64_t number(const std::string &key, std::uint64_t fallback) const;
  bool has(const std::string &key) const { return params.count(key) != 0; }
};
// Throws Error(Usage) with the accepted form.
FaultRequest parse_fault_request(const std::string &text);

class BlockModel {
public:
  virtual ~BlockModel() = default;
  virtual std::string name() const = 0;  // "psp", "smu", "gmc", ... (fault and state key)
  // Put the block's registers at their reset values (poke) and forget transient state. Runs
  // after the core's own reset, for every model in registration order.
  virtual void reset(ResetKind /*kind*/) {}
  // The block's state for persistence (null: nothing to keep), and its restoration. load() runs
  // after construction on a chip read back from the store, with what save() returned.
  virtual nlohmann::json save() const;
  virtual void load(const nlohmann::json &state);
  // Takes a fault addressed to this block; returns false for a kind it does not know (the chip
  // then refuses it, listing fault_kinds()). Armed faults are part of save().
  virtual bool arm_fault(const FaultRequest & /*fault*/) { return false; }
  virtual void clear_faults() {}
  virtual std::vector<std::string> fault_kinds() const { return {}; }
  // What `wavectl sim-am status` shows of the block (null: nothing).
  virtual nlohmann::json status() const;
};

// Creates a block model for a chip (nullptr: the block is absent on this chip). The model
// installs its hooks in its constructor, through the FakeGpu it is given.
using BlockModelFactory = std::function<std::unique_ptr<BlockModel>(FakeGpu &gpu)>;

struct BlockModelEntry {
  std::string name;
  int order = 0;  // construction, reset and save order (low first); ties by name
  BlockModelFactory factory;
};

class BlockModelRegistration {
public:
  BlockModelRegistration(std::string name, int order, BlockModelFactory factory);
};

// Every registered model, in order.
std::vector<BlockModelEntry> registered_block_models();

}  // namespace wavescope::hw::sim::am
