// Kernels with variables (tinygrad's `Variable`s, kernel/variables.hpp): tinygrad's form of a
// variable imports as ours and survives the JSON round trip; the values a run binds (default, or
// given and checked against the bounds); the interpreter evaluates them; tinygrad's kernels with
// symbolic shapes (fixtures in tests/compiler/data/kernels/variables) compute on c and cpu what
// the interpreter computes for several values, and compile for every GPU with one by-value
// kernel argument per variable, which a saved run's manifest places and values.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kernel_fixtures.hpp"
#include "temp_dir.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/codegen/amdgpu.hpp"
#include "wavescope/compiler/codegen/host_kernel.hpp"
#include "wavescope/compiler/codegen/kernel_metadata.hpp"
#include "wavescope/compiler/codegen/run_bundle.hpp"
#include "wavescope/compiler/ir/builders.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/kernel/frontend.hpp"
#include "wavescope/compiler/kernel/interpreter.hpp"
#include "wavescope/compiler/kernel/kernel_ast.hpp"
#include "wavescope/compiler/kernel/sources.hpp"
#include "wavescope/compiler/kernel/variables.hpp"
#include "wavescope/compiler/opt/kernel_info.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::kernel;
using wavescope::Error;
using wavescope::ErrorKind;

namespace {

const std::filesystem::path kFixtures =
    std::filesystem::path(WAVESCOPE_COMPILER_TEST_DATA) / "kernels" / "variables";

std::vector<std::pair<std::string, UOp>> fixtures() { return testing::kernel_fixtures(kFixtures); }

// out[r] = in[r] + 1 for r < n, n a variable in [1, 8] (the buffers sized for its largest value).
UOp plus_one_up_to_n(const UOp &n) {
  KernelBuilder b("plus_one_n");
  const UOp out = b.buffer(dtypes::float32, 8), in = b.buffer(dtypes::float32, 8);
  const UOp r = range(n, 0);
  b.store(out, r, b.read(in, r) + b.f(1), {r});
  return b.finish();
}

// tinygrad a9069c177a's form: the variable PARAM has one source, an empty STACK.
UOp tinygrad_variable(const std::string &name, Int lo, Int hi) {
  const UOp ours = variable(name, lo, hi);
  return UOp::make(Op::PARAM, ours.dtype(), {UOp::make(Op::STACK, dtypes::void_, {})}, ours.arg());
}

}  // namespace

TEST_CASE("variables: tinygrad's variable PARAM (an empty STACK source) imports as ours",
          "[compiler][kernel][variables]") {
  const UOp n = variable("n", 1, 8);
  const UOp theirs = substitute(plus_one_up_to_n(n), {{n, tinygrad_variable("n", 1, 8)}});
  REQUIRE(graph_has_op(theirs, Op::STACK));
  CHECK_THROWS_AS(validate_kernel(theirs), Error);  // STACK has no place in a kernel AST
  const UOp ours = variables_from_tinygrad(theirs);
  CHECK_FALSE(graph_has_op(ours, Op::STACK));
  CHECK_NOTHROW(validate_kernel(ours));
  CHECK(content_key(ours) == content_key(plus_one_up_to_n(n)));
  // a graph without tinygrad's form is returned as it is
  CHECK(variables_from_tinygrad(ours) == ours);
  // JSON: tinygrad's form reads as ours, ours round-trips
  CHECK(content_key(kernel_from_json(kernel_to_json(theirs), "theirs")) == content_key(ours));
  const UOp back = kernel_from_json(kernel_to_json(ours), "ours");
  CHECK(content_key(back) == content_key(ours));
  const auto vars = kernel_variables(back);
  REQUIRE(vars.size() == 1);
  CHECK(vars[0].name == "n");
  CHECK(vars[0].min == 1);
  CHECK(vars[0].max == 8);
  // a variable PARAM with any other source is refused, naming the node
  const UOp bad = substitute(plus_one_up_to_n(n),
                             {{n, UOp::make(Op::PARAM, n.dtype(), {const_int(3)}, n.arg())}});
  CHECK_THROWS_WITH(validate_kernel(bad),
                    Catch::Contains("a variable PARAM (ALU address space) takes no sources"));
}

TEST_CASE("variables: the value a run binds, by default and given",
          "[compiler][kernel][variables]") {
  CHECK(default_value({"i", dtypes::index, 1, 10, 1}) == 10);
  CHECK(default_value({"i", dtypes::index, 1, 10, 4}) == 8);
  CHECK(default_value({"i", dtypes::index, 0, 7, 1}) == 7);
  CHECK(default_value({"i", dtypes::index, -9, -2, 4}) == -4);
  CHECK(default_value({"i", dtypes::index, 5, 7, 4}) == 5);  // no multiple in bounds: the minimum

  const UOp k = plus_one_up_to_n(variable("n", 1, 8));
  CHECK(bind_variables(k) == VariableValues{{"n", 8}});
  CHECK(bind_variables(k, {{"n", 3}}) == VariableValues{{"n", 3}});
  CHECK(bind_variables(k, {{"other", 99}}) == VariableValues{{"n", 8}});  // not this kernel's
  for (std::int64_t outside : {0, 9}) {
    try {
      bind_variables(k, {{"n", outside}});
      FAIL("accepted a value out of bounds");
    } catch (const Error &e) {
      CHECK(e.kind() == ErrorKind::Usage);
      CHECK(std::string(e.what()) ==
            fmt::format("variable n={} is outside its bounds [1, 8]", outside));
    }
  }
  CHECK(variables_text({{"b", 5}, {"a", 3}}) == "a=3 b=5");
  CHECK(parse_variable_assignment("i=4") == std::pair<std::string, std::int64_t>{"i", 4});
  CHECK(parse_variable_assignment("pos=-2") == std::pair<std::string, std::int64_t>{"pos", -2});
  for (const char *bad : {"i", "=4", "i=", "i=4x", "i=0x10"})
    CHECK_THROWS_AS(parse_variable_assignment(bad), Error);

  RunRecord r;
  r.kernel = "r_(i*8)";
  r.target = "c";
  r.checked = true;
  r.variables = {{"i", 10}};
  CHECK(to_text_line(r) == "r_(i*8)  c  i=10  max abs 0  max rel 0  ok");
  CHECK(to_json_line(r) == R"j({"kernel":"r_(i*8)","target":"c","variables":{"i":10},)j"
                           R"j("max_abs_err":0.0,"max_rel_err":0.0,"mismatches":0,)j"
                           R"j("checked":true,"ok":true})j");
  r.variables.clear();  // a kernel without variables prints as before
  CHECK(to_text_line(r) == "r_(i*8)  c  max abs 0  max rel 0  ok");
}

TEST_CASE("variables: the interpreter and both host targets run up to the bound value",
          "[compiler][kernel][variables]") {
  const UOp k = plus_one_up_to_n(variable("n", 1, 8));
  const auto params = kernel_params(k);
  for (std::int64_t n : {1, 3, 8}) {
    INFO("n=" << n);
    auto want = make_buffers(params, 4);
    interpret(k, want, {{"n", n}});
    for (std::size_t e = 0; e < 8; ++e)
      CHECK(want[0].data[e] ==
            (static_cast<std::int64_t>(e) < n ? static_cast<float>(want[1].data[e] + 1.0) : 0.0));
    for (const std::string target : {"c", "cpu"}) {
      auto got = make_buffers(params, 4);
      codegen::compile_for_host(k, target, {{"n", n}})(got);
      CHECK(got[0].data == want[0].data);
    }
  }
  // without a value: the default (the largest), on both sides
  auto all = make_buffers(params, 4);
  interpret(k, all);
  CHECK(all[0].data[7] == static_cast<float>(all[1].data[7] + 1.0));
  CHECK_THROWS_AS(codegen::compile_for_host(k, "c", {{"n", 9}}), Error);
}

TEST_CASE("variables: tinygrad's kernels with symbolic shapes run on c and cpu as the "
          "interpreter does, and compile for every GPU with the variables by value",
          "[compiler][kernel][variables]") {
  const auto ks = fixtures();
  REQUIRE(ks.size() == 6);
  std::size_t runs = 0, objects = 0, variables = 0, value_dependent = 0;
  for (const auto &[file, ast] : ks) {
    const auto vars = kernel_variables(ast);
    CHECK_FALSE(vars.empty());
    variables += vars.size();
    // three bindings: every variable at its minimum, at its default (the largest), and given the
    // value tinygrad bound when it ran the workload's kernel is not in the AST, so its middle
    VariableValues lo, mid;
    for (const auto &v : vars) {
      lo[v.name] = static_cast<std::int64_t>(v.min);
      mid[v.name] = static_cast<std::int64_t>((v.min + v.max) / 2);
    }
    // the result depends on the value (the variable is really used)
    auto at_lo = make_buffers(kernel_params(ast), 3), at_top = at_lo;
    interpret(ast, at_lo, lo);
    interpret(ast, at_top);
    bool differs = false;
    for (std::size_t i = 0; i < at_lo.size(); ++i) differs |= at_lo[i].data != at_top[i].data;
    value_dependent += differs;
    for (const auto &choice : {opt::OptChoice::none(), opt::OptChoice::heuristic()}) {
      const UOp k = opt::with_opt_choice(ast, choice);
      for (const auto &values : {lo, mid, bind_variables(ast)})
        for (const std::string target : {"c", "cpu"}) {
          INFO(file << " " << target << " " << variables_text(values));
          const auto c =
              check_with_interpreter(k, 1, codegen::compile_for_host(k, target, values), values);
          CHECK(c.ok);
          ++runs;
        }
      for (const auto &gpu : codegen::amdgpu_targets()) {
        INFO(file << " " << gpu);
        const auto compiled = codegen::compile_amdgpu(k, gpu);
        CHECK(compiled.scalars.size() == vars.size());
        const auto meta = codegen::read_kernel_metadata(compiled.code_object, file);
        REQUIRE(meta.size() == 1);
        std::size_t by_value = 0;
        for (const auto &a : meta[0].args) by_value += a.value_kind == "by_value";
        CHECK(by_value == vars.size());
        ++objects;
      }
    }
  }
  CHECK(variables == 7);  // i, i, i, a and b, n, pos
  CHECK(value_dependent == 6);
  CHECK(runs == 6 * 2 * 3 * 2);
  CHECK(objects == 6 * 2 * 3);
}

TEST_CASE("variables: a symbolic GLOBAL extent launches for its largest value, gated",
          "[compiler][kernel][variables]") {
  // var_elementwise.json: E_(i*8), out[x] = in[x] + 1 for x < i*8, i in [1, 10]
  std::ifstream in(kFixtures / "var_elementwise.json");
  std::stringstream text;
  text << in.rdbuf();
  const UOp k = opt::with_opt_choice(kernel_from_json(text.str(), "var_elementwise.json"),
                                     opt::OptChoice::none());
  const auto gpu = codegen::render_amdgpu(k, "gfx1100");
  std::int64_t items = 1;
  for (int d = 0; d < 3; ++d) items *= gpu.launch.workgroups[d] * gpu.launch.local[d];
  CHECK(items == 80);                                        // 10 * 8
  CHECK(gpu.llvm_ir.find("icmp slt") != std::string::npos);  // the gate against i*8
}

TEST_CASE("variables: a saved run's manifest gives each variable its value and kernarg offset",
          "[compiler][kernel][variables]") {
  wavescope::testing::TempDir dir;
  std::ifstream in(kFixtures / "var_two.json");
  std::stringstream text;
  text << in.rdbuf();
  const UOp k = kernel_from_json(text.str(), "var_two.json");
  codegen::RunBundle bundle;
  bundle.cpu_target = "c";
  bundle.seed = 2;
  bundle.variables = bind_variables(k, {{"a", 3}, {"b", 5}});
  bundle.inputs = make_buffers(kernel_params(k), bundle.seed);
  bundle.outputs = bundle.inputs;
  codegen::compile_for_host(k, "c", bundle.variables)(bundle.outputs);
  codegen::save_run(dir.path, k, bundle);
  std::ifstream m(dir.path / "manifest.json");
  const auto manifest = nlohmann::json::parse(m);
  const auto &scalars = manifest["scalars"];
  REQUIRE(scalars.size() == 2);
  std::map<std::string, std::int64_t> values;
  for (const auto &s : scalars) {
    values[s["name"].get<std::string>()] = s["value"].get<std::int64_t>();
    CHECK(s["dtype"] == "int32");
  }
  CHECK(values == std::map<std::string, std::int64_t>{{"a", 3}, {"b", 5}});
  for (const auto &gpu : codegen::amdgpu_targets()) {
    INFO(gpu);
    const auto &t = manifest["targets"][gpu];
    const auto &offsets = t["scalar_offsets"];
    REQUIRE(offsets.size() == 2);
    // after the buffers' pointers, 4 bytes each, inside the kernarg segment
    const auto buffers = manifest["args"].size();
    for (const auto &[name, off] : offsets.items()) {
      CHECK(off.get<std::int64_t>() >= static_cast<std::int64_t>(8 * buffers));
      CHECK(off.get<std::int64_t>() + 4 <= t["kernarg_bytes"].get<std::int64_t>());
    }
    CHECK(offsets["a"] != offsets["b"]);
  }
}
