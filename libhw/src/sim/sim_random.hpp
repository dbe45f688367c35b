#pragma once
// The simulator's deterministic random source (splitmix64): every random choice — which cells of
// a failing erase stay old, the prefix a power loss leaves — comes from here, seeded from
// SimConfig::seed, and its state is persisted with the board so runs repeat exactly.

#include <cstdint>

namespace wavescope::hw::sim {

class SimRandom {
public:
  explicit SimRandom(std::uint64_t seed = 0) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) (bound > 0).
  std::uint64_t below(std::uint64_t bound) { return next() % bound; }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  std::uint64_t state() const { return state_; }
  void set_state(std::uint64_t state) { state_ = state; }

private:
  std::uint64_t state_;
};

}  // namespace wavescope::hw::sim
