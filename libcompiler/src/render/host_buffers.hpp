#pragma once
// Host buffers (doubles, kernel/interpreter.hpp) packed into the kernel's element types and back,
// for the backends that run kernels on the CPU (C, LLVM). Bools are one byte; half and bfloat16
// are their 16 bits (rounded to nearest even).

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/lower/lowering.hpp"

namespace wavescope::compiler::render {
using kernel::HostBuffer;
namespace detail {
// The host type of a 16-bit float: its bits, converted by the dtype's rounding.
template <ScalarType S> struct Float16 {
  std::uint16_t bits;
  static constexpr DType dtype{S};
};
template <class T> T to_host(double v) { return static_cast<T>(v); }
template <class T> double from_host(T v) { return static_cast<double>(v); }
template <> inline Float16<ScalarType::Half> to_host(double v) {
  return {float16_bits(v, dtypes::half)};
}
template <> inline Float16<ScalarType::BFloat16> to_host(double v) {
  return {float16_bits(v, dtypes::bfloat16)};
}
template <ScalarType S> double from_host(Float16<S> v) {
  return float16_value(v.bits, Float16<S>::dtype);
}

template <class T> void pack(const HostBuffer &b, std::vector<unsigned char> &bytes) {
  bytes.resize(b.data.size() * sizeof(T));
  for (std::size_t i = 0; i < b.data.size(); ++i) {
    const T v = to_host<T>(b.data[i]);
    std::memcpy(bytes.data() + i * sizeof(T), &v, sizeof(T));
  }
}
template <class T> void unpack(const std::vector<unsigned char> &bytes, HostBuffer &b) {
  for (std::size_t i = 0; i < b.data.size(); ++i) {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    b.data[i] = from_host(v);
  }
}
template <class F> void by_dtype(DType t, F &&f) {
  switch (t.scalar) {
  case ScalarType::Bool: return f(std::uint8_t{});
  case ScalarType::Int8: return f(std::int8_t{});
  case ScalarType::UInt8: return f(std::uint8_t{});
  case ScalarType::Int16: return f(std::int16_t{});
  case ScalarType::UInt16: return f(std::uint16_t{});
  case ScalarType::Int32: return f(std::int32_t{});
  case ScalarType::UInt32: return f(std::uint32_t{});
  case ScalarType::Int64:
  case ScalarType::Index: return f(std::int64_t{});
  case ScalarType::UInt64: return f(std::uint64_t{});
  case ScalarType::Half: return f(Float16<ScalarType::Half>{});
  case ScalarType::BFloat16: return f(Float16<ScalarType::BFloat16>{});
  case ScalarType::Float: return f(float{});
  case ScalarType::Double: return f(double{});
  default: throw Error(ErrorKind::BadInput, fmt::format("no host type for {}", to_string(t)));
  }
}
}  // namespace detail

// The buffers in their element types, and a pointer to each (slot order) for the entry point.
struct PackedBuffers {
  std::vector<std::vector<unsigned char>> bytes;
  std::vector<void *> pointers;
};

inline PackedBuffers pack_buffers(const std::vector<kernel::KernelParam> &params,
                                  const std::vector<HostBuffer> &buffers) {
  if (buffers.size() != params.size())
    throw Error(ErrorKind::BadInput, fmt::format("the kernel takes {} buffers, {} were given",
                                                 params.size(), buffers.size()));
  PackedBuffers packed;
  packed.bytes.resize(buffers.size());
  packed.pointers.resize(buffers.size());
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    detail::by_dtype(params[k].dtype,
                     [&](auto tag) { detail::pack<decltype(tag)>(buffers[k], packed.bytes[k]); });
    if (packed.bytes[k].empty()) packed.bytes[k].resize(16);
    packed.pointers[k] = packed.bytes[k].data();
  }
  return packed;
}

// Copies the written buffers back.
inline void unpack_written(const std::vector<kernel::KernelParam> &params,
                           const PackedBuffers &packed, std::vector<HostBuffer> &buffers) {
  for (std::size_t k = 0; k < buffers.size(); ++k)
    if (params[k].written)
      detail::by_dtype(params[k].dtype, [&](auto tag) {
        detail::unpack<decltype(tag)>(packed.bytes[k], buffers[k]);
      });
}

// The entry point's argument array: a pointer per argument in slot order, buffers from `packed`,
// scalars pointing into `values` (one long long per scalar argument, slot order).
inline std::vector<void *> entry_args(const std::vector<kernel::KernelParam> &params,
                                      PackedBuffers &packed,
                                      const std::vector<lower::ScalarParam> &scalars,
                                      std::vector<long long> &values) {
  if (values.size() != scalars.size())
    throw Error(ErrorKind::BadInput,
                fmt::format("the kernel takes {} scalar arguments, {} were given", scalars.size(),
                            values.size()));
  std::vector<std::pair<std::int64_t, void *>> by_slot;
  for (std::size_t k = 0; k < params.size(); ++k)
    by_slot.emplace_back(params[k].slot, packed.pointers[k]);
  for (std::size_t k = 0; k < scalars.size(); ++k)
    by_slot.emplace_back(scalars[k].slot, &values[k]);
  std::sort(by_slot.begin(), by_slot.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<void *> out;
  for (auto &[slot, p] : by_slot) out.push_back(p);
  return out;
}

}  // namespace wavescope::compiler::render
