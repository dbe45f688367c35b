#pragma once
// A fake GPU of a chip profile (with settings applied, as `wavectl sim-am create --set` does),
// reached directly through its PCI function on a virtual clock: what the fake GPU's and the AM
// driver's tests run against.

#include <string>
#include <vector>

#include "sim/am/fake_gpu.hpp"
#include "sim/am/fake_gpu_config.hpp"
#include "sim/am/fake_gpu_pci_function.hpp"
#include "wavescope/hw/transport/clock.hpp"

namespace wavescope::test {

struct FakeGpuRig {
  hw::VirtualClock clock;
  hw::sim::am::FakeGpu gpu;
  hw::sim::am::FakeGpuPciFunction fn;

  explicit FakeGpuRig(const std::string &chip = "tinygrad-mock",
                      const std::vector<std::string> &settings = {})
      : gpu(configured(chip, settings), clock), fn("sim-am:test", gpu) {}

  static hw::sim::am::FakeGpuConfig configured(const std::string &chip,
                                               const std::vector<std::string> &settings) {
    auto config = hw::sim::am::default_fake_gpu_config(chip);
    for (const auto &s : settings) hw::sim::am::apply_fake_gpu_setting(config, s);
    return config;
  }
};

}  // namespace wavescope::test
