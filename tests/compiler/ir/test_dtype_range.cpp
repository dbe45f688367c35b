// dtype_min / dtype_max: the value range of every scalar type, its vectors and pointers.

#include <catch2/catch.hpp>

#include "wavescope/compiler/ir/dtype.hpp"

using namespace wavescope::compiler;

TEST_CASE("dtype_min and dtype_max give each dtype's value range") {
  struct Expected {
    DType t;
    Int lo, hi;
  };
  const Int inf = kIntInfinity;
  const Expected cases[] = {
      {dtypes::void_, 0, 0},
      {dtypes::bool_, 0, 1},
      {dtypes::int8, -128, 127},
      {dtypes::uint8, 0, 255},
      {dtypes::int16, -32768, 32767},
      {dtypes::uint16, 0, 65535},
      {dtypes::int32, -2147483648LL, 2147483647LL},
      {dtypes::uint32, 0, 4294967295LL},
      {dtypes::int64, -(Int(1) << 63), (Int(1) << 63) - 1},
      {dtypes::uint64, 0, (Int(1) << 64) - 1},
      {DType(ScalarType::Index), -inf, inf},
      {DType(ScalarType::WeakFloat), -inf, inf},
      {DType(ScalarType::Float8E4M3), -inf, inf},
      {DType(ScalarType::Half), -inf, inf},
      {DType(ScalarType::BFloat16), -inf, inf},
      {DType(ScalarType::Float), -inf, inf},
      {DType(ScalarType::Double), -inf, inf},
  };
  std::size_t checked = 0;
  for (const auto &e : cases) {
    INFO(to_string(e.t));
    CHECK(dtype_min(e.t) == e.lo);
    CHECK(dtype_max(e.t) == e.hi);
    // Vectors have their element's range; pointers are unbounded, whatever they point to.
    CHECK(dtype_min(e.t.vec(4)) == e.lo);
    CHECK(dtype_max(e.t.vec(4)) == e.hi);
    CHECK(dtype_min(e.t.ptr(AddrSpace::Global)) == -inf);
    CHECK(dtype_max(e.t.ptr(AddrSpace::Local)) == inf);
    ++checked;
  }
  CHECK(checked == 17);
}
