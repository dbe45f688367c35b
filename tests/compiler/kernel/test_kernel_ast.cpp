// Kernel ASTs: the built-in examples, their JSON round trip, the reference interpreter against
// hand-computed results, and the reader's errors on bad input.

#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::kernel;
using Catch::Matchers::Contains;

namespace {

std::vector<HostBuffer> run_example(const UOp &k, std::uint64_t seed = 1) {
  auto bufs = make_buffers(kernel_params(k), seed);
  interpret(k, bufs);
  return bufs;
}

bool near(double a, double b, double tol = 1e-4) {
  return std::fabs(a - b) <= tol * (1 + std::fabs(b));
}

std::string bad_json_error(const std::string &text) {
  try {
    kernel_from_json(text, "k.json");
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    return e.what();
  }
  FAIL("no error for " << text);
  return {};
}

}  // namespace

TEST_CASE("kernel AST: every built-in example round-trips through JSON", "[compiler][kernel]") {
  std::size_t kernels = 0;
  for (const auto &name : builtin_example_names()) {
    for (const auto &k : builtin_example(name)) {
      const std::string json = kernel_to_json(k);
      const UOp back = kernel_from_json(json, name);
      CHECK(back == k);  // hash-consed: the same graph is the same node
      CHECK(kernel_to_json(back) == json);
      CHECK(kernel_to_json(back, -1).find('\n') == std::string::npos);
      CHECK_THAT(kernel_to_text(k), Contains("kernel " + kernel_name(k)));
      ++kernels;
    }
  }
  CHECK(kernels == 8);
}

TEST_CASE("kernel AST: names and parameters", "[compiler][kernel]") {
  const UOp k = builtin_example("matmul")[0];
  CHECK(kernel_name(k) == "r_16_20_24");
  const auto params = kernel_params(k);
  REQUIRE(params.size() == 3);
  CHECK(params[0].written);
  CHECK_FALSE(params[1].written);
  CHECK(params[0].size == 16 * 20);
  CHECK(params[2].size == 24 * 20);
  CHECK(kernel_name(UOp::make(Op::SINK, dtypes::void_, {},
                              ForeignArg{"KernelInfo", "KernelInfo(name='\x1b[34mr_4\x1b[0m')"})) ==
        "r_4");
}

TEST_CASE("interpreter: elementwise with broadcasting", "[compiler][kernel]") {
  const UOp k = builtin_example("elementwise")[0];
  const auto b = run_example(k);
  std::size_t checked = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 32; ++j) {
      const float v =
          static_cast<float>(b[1].data[i * 32 + j]) * static_cast<float>(b[2].data[j]) + 1.0f;
      CHECK(b[0].data[i * 32 + j] == static_cast<double>(v > 0 ? v : 0.0f));
      ++checked;
    }
  CHECK(checked == 512);
}

TEST_CASE("interpreter: sum over rows and max over a permuted view", "[compiler][kernel]") {
  const auto ks = builtin_example("reduce");
  const auto s = run_example(ks[0]);
  for (int i = 0; i < 24; ++i) {
    double want = 0;
    for (int j = 0; j < 40; ++j) want += s[1].data[i * 40 + j];
    CHECK(near(s[0].data[i], want));
  }
  const auto m = run_example(ks[1]);
  for (int j = 0; j < 40; ++j) {
    double want = -INFINITY;
    for (int i = 0; i < 24; ++i) want = std::max(want, m[1].data[i * 40 + j]);
    CHECK(m[0].data[j] == want);
  }
}

TEST_CASE("interpreter: matmul and relu-sum", "[compiler][kernel]") {
  const auto ks = builtin_example("matmul");
  const auto b = run_example(ks[0]);
  std::size_t checked = 0;
  double relu_sum = 0;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 20; ++j) {
      double want = 0;
      for (int r = 0; r < 24; ++r) want += b[1].data[i * 24 + r] * b[2].data[r * 20 + j];
      CHECK(near(b[0].data[i * 20 + j], want));
      relu_sum += std::max(b[0].data[i * 20 + j], 0.0);
      ++checked;
    }
  CHECK(checked == 320);
  std::vector<HostBuffer> second{{dtypes::float32, {0.0}}, b[0]};
  interpret(ks[1], second);
  CHECK(near(second[0].data[0], relu_sum));
}

TEST_CASE("interpreter: softmax, layernorm and conv2d against plain loops", "[compiler][kernel]") {
  {
    const auto b = run_example(builtin_example("softmax")[0]);
    for (int i = 0; i < 8; ++i) {
      double mx = -INFINITY, sum = 0, total = 0;
      for (int j = 0; j < 48; ++j) mx = std::max(mx, b[1].data[i * 48 + j]);
      for (int j = 0; j < 48; ++j) sum += std::exp(b[1].data[i * 48 + j] - mx);
      for (int j = 0; j < 48; ++j) {
        CHECK(near(b[0].data[i * 48 + j], std::exp(b[1].data[i * 48 + j] - mx) / sum));
        total += b[0].data[i * 48 + j];
      }
      CHECK(near(total, 1.0));
    }
  }
  {
    const auto b = run_example(builtin_example("layernorm")[0]);
    for (int i = 0; i < 6; ++i) {
      double mean = 0, var = 0;
      for (int j = 0; j < 64; ++j) mean += b[1].data[i * 64 + j] / 64;
      for (int j = 0; j < 64; ++j) var += std::pow(b[1].data[i * 64 + j] - mean, 2) / 64;
      for (int j = 0; j < 64; ++j) {
        const double y = (b[1].data[i * 64 + j] - mean) / std::sqrt(var + 1e-5);
        CHECK(near(b[0].data[i * 64 + j], y * b[2].data[j] + b[3].data[j], 1e-3));
      }
    }
  }
  {
    const auto b = run_example(builtin_example("conv2d")[0]);
    const auto &in = b[1].data, &w = b[2].data, &bias = b[3].data;
    std::size_t checked = 0;
    for (int o = 0; o < 4; ++o)
      for (int y = 0; y < 9; ++y)
        for (int x = 0; x < 9; ++x) {
          double want = bias[o];
          for (int c = 0; c < 3; ++c)
            for (int ky = 0; ky < 3; ++ky)
              for (int kx = 0; kx < 3; ++kx) {
                const int iy = y + ky - 1, ix = x + kx - 1;
                if (iy < 0 || iy >= 9 || ix < 0 || ix >= 9) continue;
                want += in[(c * 9 + iy) * 9 + ix] * w[((o * 3 + c) * 3 + ky) * 3 + kx];
              }
          CHECK(near(b[0].data[(o * 9 + y) * 9 + x], want));
          ++checked;
        }
    CHECK(checked == 324);
  }
}

TEST_CASE("kernel AST reader: bad input is a clear error", "[compiler][kernel]") {
  const std::string good = kernel_to_json(builtin_example("reduce")[0], -1);
  CHECK_THAT(bad_json_error("{nope"), Contains("k.json: not JSON"));
  CHECK_THAT(bad_json_error("[]"), Contains("k.json: $: expected an object"));
  CHECK_THAT(bad_json_error(R"({"format":"x","version":1})"), Contains("format"));
  auto doc = nlohmann::json::parse(good);
  {
    auto d = doc;
    d["nodes"][0]["op"] = "FROB";
    CHECK_THAT(bad_json_error(d.dump()), Contains("nodes[0].op: unknown op 'FROB'"));
  }
  {
    auto d = doc;
    d["nodes"][1]["dtype"] = "float33";
    CHECK_THAT(bad_json_error(d.dump()), Contains("nodes[1].dtype: unknown dtype 'float33'"));
  }
  {
    auto d = doc;
    d["nodes"][1]["src"] = {5};
    CHECK_THAT(bad_json_error(d.dump()),
               Contains("nodes[1].src[0]: node 5 is not an earlier node"));
  }
  {
    auto d = doc;
    d["root"] = 0;
    CHECK_THAT(bad_json_error(d.dump()), Contains("the root must be a SINK"));
  }
  {
    auto d = doc;
    d["nodes"][0]["arg"] = {{"weird", 1}};
    CHECK_THAT(bad_json_error(d.dump()), Contains("nodes[0].arg: unknown arg kind 'weird'"));
  }
  // A STORE whose target is not an INDEX: named by node number and op.
  const UOp p = KernelBuilder("x").buffer(dtypes::float32, 4);
  const UOp st = UOp::make(Op::STORE, {p, const_float(1.0)});
  const UOp sink = UOp::make(Op::SINK, dtypes::void_, {st}, kernel_info("x"));
  try {
    validate_kernel(sink);
    FAIL("validated");
  } catch (const wavescope::Error &e) {
    CHECK_THAT(std::string(e.what()), Contains("(STORE): a STORE's first source must be an INDEX"));
  }
}

TEST_CASE("interpreter: an out-of-bounds read names the node", "[compiler][kernel]") {
  KernelBuilder k("oob");
  auto out = k.buffer(dtypes::float32, 8), a = k.buffer(dtypes::float32, 4);
  auto i = k.range(8);
  k.store(out, i, k.read(a, i), {i});
  const UOp ast = k.finish();
  auto bufs = make_buffers(kernel_params(ast), 3);
  try {
    interpret(ast, bufs);
    FAIL("no error");
  } catch (const wavescope::Error &e) {
    CHECK_THAT(std::string(e.what()),
               Contains("(INDEX): index 4 is outside the buffer of 4 elements"));
  }
}

TEST_CASE("front end: movement ops are index math and refuse what does not fit",
          "[compiler][kernel]") {
  const View v = View::contiguous({2, 3, 4});
  CHECK(v.strides == std::vector<std::int64_t>{12, 4, 1});
  const View p = v.permute({2, 0, 1});
  CHECK(p.shape == std::vector<std::int64_t>{4, 2, 3});
  CHECK(p.strides == std::vector<std::int64_t>{1, 12, 4});
  const View s = v.shrink({{0, 2}, {1, 3}, {0, 4}});
  CHECK(s.offset == 4);
  CHECK_THROWS_AS(v.reshape({5, 5}), wavescope::Error);
  CHECK_THROWS_AS(p.reshape({24}), wavescope::Error);
  CHECK(v.reshape({6, 4}).strides == std::vector<std::int64_t>{4, 1});
  CHECK_THROWS_AS(v.expand({2, 5, 4}), wavescope::Error);
  CHECK_THROWS_AS(builtin_example("nope"), wavescope::Error);
}
