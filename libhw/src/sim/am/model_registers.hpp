#pragma once
// Helpers the GMC/IH/CP/SDMA models share: marking registers as modelled on every instance of
// their block.

#include <string_view>

namespace wavescope::hw::sim::am {

class FakeGpu;

// Marks "block.REG" as owned by `owner` (plain storage) on every instance of the block that has
// it; nothing when the chip lacks the register.
void own_on_every_instance(FakeGpu &gpu, std::string_view name, const char *owner);

}  // namespace wavescope::hw::sim::am
