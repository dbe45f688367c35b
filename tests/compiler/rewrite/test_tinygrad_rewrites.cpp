// tinygrad's rewrites.pkl read into RewriteTrace: the contexts equal VIZ's own listing
// (rewrites.jsonl) for every corpus workload, every step of every context replays, each
// kernel's rendered source is found, foreign payloads keep their identity, and bad pickles are
// refused with the file and the byte offset.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "testdata.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/ir/graph.hpp"
#include "wavescope/compiler/rewrite/rewrite_contexts.hpp"
#include "wavescope/compiler/rewrite/tinygrad_rewrites.hpp"
#include "wavescope/compiler/rewrite/viz_substitute.hpp"

using namespace wavescope::compiler;
using namespace wavescope::compiler::rewrite;
using nlohmann::json;

namespace {

// The corpus workloads that carry a rewrites.pkl and VIZ's listing of it.
std::vector<std::filesystem::path> workloads(const std::filesystem::path &root) {
  std::vector<std::filesystem::path> out;
  for (const auto &e : std::filesystem::directory_iterator(root))
    if (std::filesystem::exists(e.path() / "rewrites.pkl") &&
        std::filesystem::exists(e.path() / "rewrites.jsonl"))
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<json> lines_of(const std::string &text) {
  std::vector<json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(json::parse(line));
  return out;
}

std::string slurp(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string error_of(const std::filesystem::path &p) {
  try {
    read_tinygrad_rewrites(p);
  } catch (const wavescope::Error &e) {
    CHECK(e.kind() == wavescope::ErrorKind::BadInput);
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("tinygrad rewrites.pkl: the contexts equal VIZ's rewrites.jsonl on every workload") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t seen = 0, contexts = 0, steps = 0;
  for (const auto &dir : workloads(root)) {
    INFO(dir.string());
    const RewriteTrace trace = RewriteTrace::open(dir / "rewrites.pkl");
    CHECK(trace.generator() == "tinygrad");
    std::ostringstream out;
    print_contexts_json(out, trace);
    const auto ours = lines_of(out.str());
    const auto expected = lines_of(slurp(dir / "rewrites.jsonl"));
    REQUIRE(ours.size() == expected.size());
    for (std::size_t i = 0; i < ours.size(); ++i) {
      INFO("context " << i);
      CHECK(ours[i] == expected[i]);
      steps += expected[i]["steps"].size();
    }
    contexts += ours.size();
    ++seen;
  }
  // matmul_relu_sum, elementwise and softmax at least (more are kept back for evaluation).
  CHECK(seen >= 3);
  CHECK(contexts >= 19);
  CHECK(steps >= 765);
}

TEST_CASE("tinygrad rewrites.pkl: every step of every context replays as VIZ replays it") {
  WAVESCOPE_REQUIRE_TESTDATA(root, "tinygrad-viz");
  std::size_t seen = 0, rewrites = 0, records = 0, sources = 0, kernels = 0;
  for (const auto &dir : workloads(root)) {
    INFO(dir.string());
    const RewriteTrace trace = RewriteTrace::open(dir / "rewrites.pkl");
    REQUIRE(trace.replay_semantics() == ReplaySemantics::Viz);
    for (const auto &g : trace.groups()) {
      for (const auto &rw : g.rewrites) {
        INFO(g.name << " / " << rw.name);
        const auto graphs = trace.replay(rw);
        REQUIRE(graphs.size() == rw.steps.size() + 1);
        for (const auto &graph : graphs) CHECK(graph.op() != Op::REWRITE_ERROR);
        ++rewrites;
        records += graphs.size();
        if (rw.name == "linearize/render") {
          ++kernels;
          const auto source = rendered_source(trace, rw);
          REQUIRE(source);
          CHECK(source->find("void ") != std::string::npos);
          ++sources;
        }
      }
    }
    ++seen;
  }
  CHECK(seen >= 3);
  CHECK(rewrites > 600);
  CHECK(records > rewrites);
  CHECK(kernels >= 13);
  CHECK(sources == kernels);
}

TEST_CASE("tinygrad rewrites.pkl: nodes keep tinygrad's ops, dtypes and payloads") {
  WAVESCOPE_REQUIRE_TESTDATA(pkl, "tinygrad-viz/softmax/rewrites.pkl");
  const RewriteTrace trace = read_tinygrad_rewrites(pkl);
  std::map<std::string, std::size_t> foreign;
  std::size_t ranges = 0, params = 0, floats = 0, unknown = 0;
  for (const auto &[id, n] : trace.nodes()) {
    if (auto f = std::get_if<ForeignArg>(&n.arg)) ++foreign[f->type];
    if (n.op == Op::RANGE && std::holds_alternative<RangeArg>(n.arg)) ++ranges;
    if (n.op == Op::PARAM && std::holds_alternative<ParamArg>(n.arg)) ++params;
    if (n.op == Op::CONST && std::holds_alternative<FloatValue>(n.arg)) ++floats;
    unknown += !n.foreign_op.empty() + !n.foreign_dtype.empty();
  }
  CHECK(unknown == 0);  // this tinygrad's ops and dtypes are all libcompiler's
  CHECK(ranges > 0);
  CHECK(params > 0);
  CHECK(floats > 0);
  CHECK(foreign["KernelInfo"] > 0);
  CHECK(foreign["ProgramInfo"] > 0);
  CHECK(foreign["bytes"] > 0);
  // The first context is the tensor graph's "Callify"; kernels are named as VIZ shows them.
  REQUIRE(trace.groups().size() == 7);
  CHECK(trace.groups()[0].name == "Callify 5 Buffers n1");
  CHECK(strip_ansi(trace.groups()[2].name) == "E_2");
  CHECK(trace.groups()[2].keys.at(0) == "E_2");
  const auto &first = trace.groups()[0].rewrites.at(1);
  CHECK(first.name == "number the uops");
  CHECK(first.loc == "/home/u/tinygrad/tensor.py:233");
  CHECK(first.steps.size() == 5);
  CHECK_FALSE(first.steps[0].rule_loc.empty());
}

TEST_CASE("viz_substitute: replacements apply to a fixed point and into what they return") {
  const UOp x = variable("x", 0, 9), y = variable("y", 0, 9), z = variable("z", 0, 9);
  const UOp sum = UOp::make(Op::ADD, {x, y});
  // x -> y -> z: a chain applies to its end.
  CHECK(viz_substitute(sum, {{x, y}, {y, z}}, false, false) == UOp::make(Op::ADD, {z, z}));
  // walk: one pass, a replacement is taken as is.
  CHECK(viz_substitute(sum, {{x, y}, {y, z}}, true, false) == UOp::make(Op::ADD, {y, z}));
  // A loop is tinygrad's RuntimeError.
  CHECK_THROWS_AS(viz_substitute(sum, {{x, y}, {y, x}}, false, false), wavescope::Error);
  CHECK(viz_substitute(sum, {{x, x}}, false, false) == sum);
}

TEST_CASE("tinygrad rewrites.pkl: truncated, corrupt and wrong-kind pickles name file and offset") {
  WAVESCOPE_REQUIRE_TESTDATA(dir, "tinygrad-viz/softmax");
  const auto bytes = slurp(dir / "rewrites.pkl");
  const auto tmp =
      std::filesystem::temp_directory_path() / ("wavescope-rewrites-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  auto write = [&](const std::string &name, const std::string &content) {
    std::ofstream(tmp / name, std::ios::binary) << content;
    return tmp / name;
  };
  const auto truncated = write("truncated.pkl", bytes.substr(0, bytes.size() / 2));
  auto e = error_of(truncated);
  CHECK_THAT(e, Catch::Contains(truncated.string()) && Catch::Contains("byte "));

  std::string corrupt = bytes;
  corrupt[2] = '\xff';  // the first opcode after PROTO: no such opcode
  const auto corrupted = write("corrupt.pkl", corrupt);
  e = error_of(corrupted);
  CHECK_THAT(e, Catch::Contains(corrupted.string()) && Catch::Contains("byte 2 (0x2)"));

  e = error_of(dir / "profile.pkl");
  CHECK_THAT(e, Catch::Contains("profile.pkl: byte ") &&
                    Catch::Contains("not a tinygrad rewrite trace"));
  std::filesystem::remove_all(tmp);
}
