// UOp nodes: hash-consing, lifetime, dtype derivation, range analysis.

#include <catch2/catch.hpp>

#include <thread>

#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/ir/uop.hpp"

using namespace wavescope::compiler;

TEST_CASE("equal nodes are the same node (hash-consing)") {
  const UOp a = variable("a", 0, 8);
  const UOp x = a * 4 + 3;
  const UOp y = a * 4 + 3;
  CHECK(x == y);
  CHECK(x.get() == y.get());
  CHECK(x.src(0) == y.src(0));
  CHECK_FALSE(a * 4 == a * 5);
  // Tags and dtypes are part of identity.
  CHECK_FALSE(x == x.with_tag(Int(1)));
  CHECK(x.with_tag(Int(1)) == x.with_tag(Int(1)));
  CHECK(const_int(3) != const_int(3, dtypes::int32));
}

TEST_CASE("ids increase in creation order and a node leaves the table with its last reference") {
  const std::size_t before = live_node_count();
  std::uint64_t first_id = 0;
  {
    const UOp v = variable("unique_name_for_lifetime_test", 0, 3);
    const UOp e = v + 12345;
    first_id = v.id();
    CHECK(e.id() > v.id());
    CHECK(live_node_count() >= before + 3);
  }
  CHECK(live_node_count() == before);
  const UOp again = variable("unique_name_for_lifetime_test", 0, 3);
  CHECK(again.id() > first_id);  // a new node, not a resurrected id
}

TEST_CASE("deep chains are destroyed without recursion") {
  UOp x = variable("deep", 0, 1);
  for (int i = 0; i < 200000; ++i) x = x + 1;
  CHECK(x.vmax() == 200001);
  x = UOp();  // must not overflow the stack
  SUCCEED();
}

TEST_CASE("construction is thread-safe: threads building the same nodes share them") {
  std::vector<std::thread> threads;
  std::vector<UOp> results(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &results] {
      UOp acc = variable("shared", 0, 100);
      for (int i = 0; i < 2000; ++i) acc = floormod(acc * 3 + i, 1000);
      results[static_cast<std::size_t>(t)] = acc;
    });
  for (auto &t : threads) t.join();
  for (const auto &r : results) CHECK(r == results[0]);
}

TEST_CASE("dtypes are derived from op, sources and arg") {
  const UOp a = variable("a", 0, 8);
  const UOp i32 = variable("i", -5, 5, dtypes::int32);
  CHECK((a + 1).dtype() == dtypes::index);
  CHECK((i32 + 1).dtype() == dtypes::int32);
  CHECK(lt(a, 3).dtype() == dtypes::bool_);
  CHECK(where(lt(a, 3), a, invalid()).dtype() == dtypes::index);
  CHECK(cast(a, dtypes::int64).dtype() == dtypes::int64);
  CHECK(alu(Op::SQRT, {cast(a, dtypes::half)}).dtype() == dtypes::half);
  CHECK(alu(Op::SQRT, {i32}).dtype() == dtypes::float32);
  CHECK(least_upper_dtype(dtypes::int8, dtypes::uint8) == dtypes::int16);
  CHECK(least_upper_dtype(dtypes::uint32, dtypes::int32) == dtypes::int64);
  CHECK(least_upper_dtype(dtypes::uint64, dtypes::int64) == dtypes::weakfloat);
  CHECK(least_upper_dtype(dtypes::index, dtypes::int32) == dtypes::int32);
  CHECK(least_upper_dtype(dtypes::bool_, dtypes::index) == dtypes::index);
  CHECK(least_upper_dtype(dtypes::half, dtypes::bfloat16) == dtypes::float32);
  CHECK(least_upper_dtype(dtypes::float8_e4m3, dtypes::int32) == dtypes::float8_e4m3);
}

TEST_CASE("dtype descriptors: vectors, pointers, names round-trip") {
  const DType v = dtypes::float32.vec(4);
  const DType p = dtypes::half.vec(2).ptr(AddrSpace::Local);
  CHECK(to_string(v) == "float.vec(4)");
  CHECK(to_string(p) == "half.vec(2).ptr(local)");
  CHECK(parse_dtype("float.vec(4)") == v);
  CHECK(parse_dtype("half.vec(2).ptr(local)") == p);
  CHECK(parse_dtype("float8_e4m3fnuz") == dtypes::float8_e4m3fnuz);
  CHECK_FALSE(parse_dtype("float.vec(x)"));
  CHECK(byte_size(v) == 16);
  CHECK(p.is_pointer());
  CHECK_FALSE(is_float(p));
  CHECK(can_lossless_cast(dtypes::int16, dtypes::int32));
  CHECK(can_lossless_cast(dtypes::float8_e5m2, dtypes::half));
  CHECK_FALSE(can_lossless_cast(dtypes::int32, dtypes::int16));
}

TEST_CASE("float constants round to their format, fp8 saturates") {
  CHECK(std::get<FloatValue>(const_float(65519.0, dtypes::half).arg()).value == 65504.0);
  CHECK(std::isinf(std::get<FloatValue>(const_float(65520.0, dtypes::half).arg()).value));
  CHECK(std::get<FloatValue>(const_float(1000.0, dtypes::float8_e4m3).arg()).value == 448.0);
  CHECK(std::get<FloatValue>(const_float(1000.0, dtypes::float8_e4m3fnuz).arg()).value == 240.0);
  CHECK(std::get<FloatValue>(const_float(0.3, dtypes::float8_e5m2).arg()).value == 0.3125);
  CHECK(std::get<FloatValue>(const_float(1.00390625, dtypes::bfloat16).arg()).value == 1.0);
  // Bit-exact identity: -0.0 and 0.0 are different constants, NaNs are one.
  CHECK(const_float(-0.0) != const_float(0.0));
  CHECK(const_float(std::nan("1")) == const_float(std::nan("2")));
}

TEST_CASE("range analysis follows the children's intervals") {
  const UOp a = variable("a", 0, 8), b = variable("b", -3, 4);
  CHECK((a + b).vmin() == -3);
  CHECK((a + b).vmax() == 12);
  CHECK((a * b).vmin() == -24);
  CHECK((a * b).vmax() == 32);
  CHECK(floordiv(a, 3).vmax() == 2);
  CHECK(floormod(a, 16).vmax() == 8);  // one period: the values themselves
  CHECK(floormod(a + 5, 4).vmax() == 3);
  CHECK(floormod(b, -4).vmin() == -3);
  CHECK(lt(a, 9).vmin() == 1);  // always true
  CHECK(maximum(a, b).vmin() == 0);
  CHECK(where(lt(a, 3), a, const_int(20)).vmax() == 20);
  const UOp r = range(a + 2, 0);
  CHECK(r.vmin() == 0);
  CHECK(r.vmax() == 9);
  // Sized ints wrap: an interval beyond the dtype says nothing.
  const UOp i8 = variable("c", 100, 120, dtypes::int8);
  CHECK((i8 + i8).vmin() == -128);
  CHECK((i8 + i8).vmax() == 127);
  // The index type is unbounded.
  CHECK_FALSE(is_finite(variable("u", -kIntInfinity, kIntInfinity).vmax()));
}

TEST_CASE("nodes dropped on one thread and built on another keep their fields and their count") {
  // Node memory is kept per thread for the next nodes (uop.cpp): build many nodes, drop them on
  // a worker that then exits, build them again here and on a second worker.
  const UOp v = variable("reuse_test_v", 0, 1000);
  const std::size_t before = live_node_count();  // with v and what it holds
  auto build = [&](int n) {
    std::vector<UOp> out;
    for (int i = 0; i < n; ++i) out.push_back(v * (i + 2) + i);
    return out;
  };
  std::vector<UOp> made = build(5000);
  std::thread([list = std::move(made)]() mutable { list.clear(); }).join();
  CHECK(live_node_count() == before);
  std::vector<UOp> again = build(5000);
  std::vector<UOp> other;
  std::thread([&] { other = build(5000); }).join();
  REQUIRE(again.size() == 5000);
  for (int i = 0; i < 5000; i += 499) {
    CHECK(again[static_cast<std::size_t>(i)] == other[static_cast<std::size_t>(i)]);
    CHECK(again[static_cast<std::size_t>(i)].vmax() == 1000 * (i + 2) + i);
  }
  again.clear();
  other.clear();
  CHECK(live_node_count() == before);
}

TEST_CASE("toposort is children first and deterministic, substitute rebuilds ancestors") {
  const UOp a = variable("a", 0, 8), b = variable("b", 0, 8);
  const UOp e = (a + b) * (a + b) + a;
  const auto order = toposort(e);
  CHECK(order.back() == e);
  CHECK(order.size() == 5);  // a, b, a+b, (a+b)*(a+b), the sum: shared nodes once
  const UOp s = substitute(e, {{a + b, const_int(3)}});
  CHECK(s == const_int(3) * const_int(3) + a);
  CHECK(substitute(e, {{variable("zz", 0, 1), a}}) == e);
  CHECK(to_text(a + 1).find("ADD index (%0, %1)") != std::string::npos);
}

TEST_CASE("substitute rebuilds only the subgraphs that can hold a replaced node") {
  const UOp a = variable("a", 0, 8), b = variable("b", 0, 8);
  const UOp r = range(const_int(4), 0), r2 = range(const_int(2), 1);
  const UOp x = a * r + b, y = a + b;
  const UOp sink = UOp::make(Op::SINK, dtypes::void_, {y, x, r});
  // y holds no RANGE and stays the same node; the rest is rebuilt around r2
  const UOp s = substitute(sink, {{r, r2}});
  CHECK(s == UOp::make(Op::SINK, dtypes::void_, {y, a * r2 + b, r2}));
  CHECK(s.src(0).get() == y.get());
  // a replaced root; a RANGE that is not in the graph leaves it as it is
  CHECK(substitute(sink, {{sink, a}}) == a);
  CHECK(substitute(sink, {{r2, r}}).get() == sink.get());
  // a replacement is not entered: its own RANGE stays
  CHECK(substitute(x, {{r, r + r}}) == a * (r + r) + b);
}

TEST_CASE("toposort is the depth-first post-order, sources left to right") {
  const UOp a = variable("a", 0, 8), b = variable("b", 0, 8);
  const UOp two = const_int(2);
  // q is SINK's second source but is met first below p.
  const UOp q = b * two, p = q + a;
  const UOp sink = UOp::make(Op::SINK, dtypes::void_, {p, q});
  CHECK(toposort(sink) == std::vector<UOp>{b, two, q, a, p, sink});
  // A CALL's body (source 0) is entered only when asked.
  const UOp body = UOp::make(Op::SINK, dtypes::void_, {b + 1});
  const UOp call = UOp::make(Op::CALL, dtypes::void_, {body, a});
  CHECK(toposort(call, false) == std::vector<UOp>{a, call});
  CHECK(toposort(call) == std::vector<UOp>{b, const_int(1), b + 1, body, a, call});
}

TEST_CASE("content keys identify graphs by content, independent of ids and processes") {
  const UOp a = variable("a", 0, 8);
  const UOp e = floormod(a * 4 + 3, 8);
  CHECK(content_key(e) == content_key(floormod(a * 4 + 3, 8)));
  CHECK(content_key(e) != content_key(floormod(a * 4 + 3, 16)));
  CHECK(content_key(a) != content_key(variable("a", 0, 9)));  // the range is part of the arg
  // A golden value: sha256("CONST|index|7|"), stable across runs and builds.
  CHECK(to_hex(content_key(const_int(7))) ==
        "7f6bc097534ea11127fcee39704229a26ab435539e987c15a1a2aed5de448bbd");
}
