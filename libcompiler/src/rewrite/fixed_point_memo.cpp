#include "fixed_point_memo.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "wavescope/compiler/rewrite/graph_rewrite.hpp"

namespace wavescope::compiler::rewrite {
namespace {

// The generation takes the top 24 bits: it wraps after 16M forget_fixed_points() calls (a
// benchmark calls it once per iteration), and a bit seen again after a wrap is still true.
constexpr unsigned kSlotBits = 40;
constexpr std::uint64_t kSlotMask = (std::uint64_t(1) << kSlotBits) - 1;

std::atomic<std::uint64_t> generation{1};

std::uint64_t current_generation() {
  return (generation.load(std::memory_order_relaxed) & 0xffffff) << kSlotBits;
}

struct Registered {
  const PatternMatcher *matcher;
  std::vector<const CompiledRule *> rules;  // sorted
  detail::MemoBits bits;
};

struct Registry {
  std::mutex mutex;
  std::vector<Registered> matchers;
};

Registry &registry() {
  static Registry r;
  return r;
}

std::vector<const CompiledRule *> sorted_rules(const PatternMatcher &m) {
  std::vector<const CompiledRule *> out;
  out.reserve(m.rules().size());
  for (const auto &r : m.rules()) out.push_back(r.get());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

void forget_fixed_points() { generation.fetch_add(1, std::memory_order_relaxed); }

namespace detail {

MemoBits memo_bits(const PatternMatcher &matcher) {
  Registry &reg = registry();
  std::lock_guard lock(reg.mutex);
  for (const auto &r : reg.matchers)
    if (r.matcher == &matcher) return r.bits;
  if (reg.matchers.size() == kSlotBits) return {};
  Registered added{&matcher, sorted_rules(matcher), {}};
  added.bits.own = std::uint64_t(1) << reg.matchers.size();
  added.bits.accepted = added.bits.own;
  // A fixed point of a matcher is one of every matcher whose rules are a subset of its rules.
  for (auto &r : reg.matchers) {
    if (std::includes(r.rules.begin(), r.rules.end(), added.rules.begin(), added.rules.end()))
      added.bits.accepted |= r.bits.own;
    if (std::includes(added.rules.begin(), added.rules.end(), r.rules.begin(), r.rules.end()))
      r.bits.accepted |= added.bits.own;
  }
  reg.matchers.push_back(std::move(added));
  return reg.matchers.back().bits;
}

bool is_fixed_point(const UOpNode *node, std::uint64_t accepted) {
  const std::uint64_t v = node->fixed_points.load(std::memory_order_relaxed);
  return (v & ~kSlotMask) == current_generation() && (v & accepted) != 0;
}

void mark_fixed_point(const UOpNode *node, std::uint64_t own) {
  const std::uint64_t gen = current_generation();
  std::uint64_t v = node->fixed_points.load(std::memory_order_relaxed);
  std::uint64_t want;
  do {
    want = (v & ~kSlotMask) == gen ? (v | own) : (gen | own);
    if (want == v) return;
  } while (!node->fixed_points.compare_exchange_weak(v, want, std::memory_order_relaxed));
}

}  // namespace detail
}  // namespace wavescope::compiler::rewrite
