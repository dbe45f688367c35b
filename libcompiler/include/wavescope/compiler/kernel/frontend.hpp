#pragma once
// A small C++ front end for kernel ASTs (kernel_ast.hpp): buffers seen through views whose
// movement ops (reshape, permute, expand, pad, shrink) are index math, loops, reductions, and the
// built-in example kernels.
//
//   KernelBuilder k("scale");
//   auto out = k.buffer(dtypes::float32, 64), a = k.buffer(dtypes::float32, 64);
//   auto i = k.range(64);
//   k.store(out, i, k.read(a, i) * k.f(2.0), {i});
//   UOp ast = k.finish();

#include <cstdint>
#include <string>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::kernel {

// A strided view of a buffer: shape, strides (0 = broadcast), offset, and per axis the valid
// interval [lo, hi) outside which reads give 0 (padding). Movement ops never copy.
struct View {
  std::vector<std::int64_t> shape, strides;
  std::int64_t offset = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> mask;

  static View contiguous(std::vector<std::int64_t> shape);
  std::int64_t numel() const;
  // Throws Error(BadInput) when the view is not contiguous-compatible or the sizes differ.
  View reshape(std::vector<std::int64_t> new_shape) const;
  View permute(const std::vector<std::size_t> &order) const;
  View expand(std::vector<std::int64_t> new_shape) const;  // size-1 axes only
  View pad(const std::vector<std::pair<std::int64_t, std::int64_t>> &before_after) const;
  View shrink(const std::vector<std::pair<std::int64_t, std::int64_t>> &start_end) const;
  // The flat index and the validity (null when always valid) at per-axis indices.
  std::pair<UOp, UOp> index(const std::vector<UOp> &idx) const;
};

class KernelBuilder {
public:
  explicit KernelBuilder(std::string name);
  // A global buffer parameter (slots in order of creation).
  UOp buffer(DType dtype, std::int64_t size);
  // A loop index 0 <= r < extent, with the next axis id.
  UOp range(std::int64_t extent, AxisType type = AxisType::Loop);
  UOp f(double v, DType dtype = dtypes::float32) const;  // a float constant
  // A read of `buf` at `idx` (INDEX used as a value).
  UOp read(const UOp &buf, const UOp &idx) const;
  // A read through a view; padded positions read 0.
  UOp read(const UOp &buf, const View &view, const std::vector<UOp> &idx) const;
  UOp reduce(Op op, const UOp &value, const std::vector<UOp> &ranges) const;
  void store(const UOp &buf, const UOp &idx, const UOp &value, const std::vector<UOp> &ranges);
  UOp finish() const;  // the SINK (validated)

private:
  std::string name_;
  std::int64_t next_slot_ = 0, next_axis_ = 0;
  std::vector<UOp> outputs_;
};

// Math helpers on float values as tinygrad decomposes them.
UOp exp(const UOp &x);  // exp2(x * log2(e))
UOp relu(const UOp &x);
UOp rsqrt(const UOp &x);

// The built-in examples: elementwise, reduce, matmul, softmax, layernorm, conv2d (small shapes).
const std::vector<std::string> &builtin_example_names();
// The kernels of one example; throws Error(Usage) for an unknown name.
std::vector<UOp> builtin_example(const std::string &name);

}  // namespace wavescope::compiler::kernel
