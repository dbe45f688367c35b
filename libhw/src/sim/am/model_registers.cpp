#include "sim/am/model_registers.hpp"

#include <string>

#include "sim/am/fake_gpu.hpp"
#include "wavescope/base/error.hpp"

namespace wavescope::hw::sim::am {

void own_on_every_instance(FakeGpu &gpu, std::string_view name, const char *owner) {
  if (!gpu.has_register(name)) return;
  const auto *block = gpu.register_map().block(name.substr(0, name.find('.')));
  for (unsigned i = 0; block && i < block->bases.size(); ++i) {
    try {
      gpu.registers().own(gpu.key(name, i), owner);
    } catch (const Error &) {
      // this instance lacks the register's segment
    }
  }
}

}  // namespace wavescope::hw::sim::am
