#pragma once
// The generated per-family counter tables (catalogue_<family>.cpp), each sorted by name.

#include <cstddef>
#include <iterator>

#include "wavescope/trace/pmc/counter_catalogue.hpp"

namespace wavescope::trace::pmc::detail {

extern const CounterInfo kGfx11Counters[];
extern const std::size_t kGfx11CounterCount;
extern const CounterInfo kGfx12Counters[];
extern const std::size_t kGfx12CounterCount;
extern const CounterInfo kGfx950Counters[];
extern const std::size_t kGfx950CounterCount;

}  // namespace wavescope::trace::pmc::detail
