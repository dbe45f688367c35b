#pragma once
// The fake GPU's PSP model (see psp_model.cpp for its behaviour, settings and faults).

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/am/block_model.hpp"
#include "sim/am/register_file.hpp"

namespace wavescope::hw::am {
class FirmwareSet;
class FirmwareSource;
}  // namespace wavescope::hw::am

namespace wavescope::hw::sim::am {

class PspModel final : public BlockModel {
public:
  struct BootloaderLoad {
    std::uint32_t command = 0, component = 0;
    std::uint64_t paddr = 0;
    std::string sha256;
    bool verified = false;
  };
  struct Command {
    std::uint32_t cmd_id = 0, wptr = 0, fw_type = 0;
    std::uint64_t size = 0, address = 0;
    std::string sha256;
    bool verified = false;
    std::uint32_t status = 0;
  };

  explicit PspModel(FakeGpu &gpu);
  ~PspModel() override;
  std::string name() const override { return "psp"; }
  void reset(ResetKind kind) override;
  nlohmann::json save() const override;
  void load(const nlohmann::json &state) override;
  bool arm_fault(const FaultRequest &fault) override;
  void clear_faults() override;
  std::vector<std::string> fault_kinds() const override;
  nlohmann::json status() const override;

  bool sos_alive() const { return sos_alive_; }
  bool ring_ready() const { return ring_ready_; }
  std::uint64_t ring_base() const { return ring_base_; }
  std::uint64_t ring_size() const { return ring_size_; }
  const std::vector<BootloaderLoad> &loads() const { return loads_; }
  const std::vector<Command> &commands() const { return commands_; }

private:
  hw::am::FirmwareSet &expected();
  std::uint32_t bootloader_status() const;
  void bootloader(std::uint32_t command);
  std::uint32_t ring_status() const;
  void ring_control(std::uint32_t value);
  void frames(std::uint32_t old_wptr, std::uint32_t wptr);
  void process(std::uint64_t cmd, std::uint64_t fence, std::uint32_t fence_value,
               std::uint32_t wptr);
  bool verify_image(std::uint32_t type, const std::vector<std::uint8_t> &bytes);
  void notify_smu_loaded();
  std::uint32_t read32(std::uint64_t paddr) const;
  const FaultRequest *fault(const std::string &kind) const;
  bool has_fault(const std::string &kind) const;
  const FaultRequest *fault_for(const std::string &kind, std::uint32_t cmd_id);

  FakeGpu &gpu_;
  bool mp0_14_ = false;
  RegisterKey r35_ = 0, r36_ = 0, r64_ = 0, r67_ = 0, r69_ = 0, r70_ = 0, r71_ = 0, r81_ = 0;
  bool sos_alive_ = false, ring_ready_ = false, bootloader_busy_ = false, autoloaded_ = false;
  std::uint64_t ring_base_ = 0, ring_size_ = 0;
  std::vector<BootloaderLoad> loads_;
  std::vector<Command> commands_;
  std::vector<FaultRequest> faults_;
  std::map<std::uint32_t, std::uint64_t> command_counts_;
  std::unique_ptr<hw::am::FirmwareSource> source_;
  std::unique_ptr<hw::am::FirmwareSet> expected_;
};

}  // namespace wavescope::hw::sim::am
