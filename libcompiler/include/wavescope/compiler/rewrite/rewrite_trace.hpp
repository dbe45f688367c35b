#pragma once
// Recording every rewrite step for the visualizer (spec §3.2; schema in docs/rewrite-trace.md).
//
//   RewriteTrace trace;
//   {
//     TraceSession session(trace);               // tracing on for this thread
//     TraceGroup group("kernel r_64_256");         // steps are grouped by kernel/context
//     root = graph_rewrite(root, sym(), {.name = "initial symbolic"});
//   }
//   trace.write_json("trace.json");
//
// A trace holds a node table (every node that appears in it, by a sequential trace id, with its
// children's ids, so every graph can be rebuilt), and groups of rewrite records: pass name, caller
// location, depth (a rewrite started inside a rule of another is one deeper), mode, input and
// output root ids, and every step (before, after, rule name and location, nanoseconds). A rule
// that throws records a step whose "after" node is a REWRITE_ERROR node carrying the message.
//
// Without an active session nothing is recorded and a rewrite pays one branch per match.
// Thread safety: a session is per thread; a RewriteTrace may be shared by sessions on several
// threads (recording is serialized by a mutex), but reading or writing it while rewrites are
// recording into it is not safe.

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "wavescope/compiler/ir/uop.hpp"

namespace wavescope::compiler::rewrite {

struct TraceNode {
  Op op = Op::NOOP;
  DType dtype;
  std::vector<std::uint64_t> src;  // trace ids
  Arg arg;
  Arg tag;
  // A foreign trace's op or dtype that libcompiler lacks, kept by its name (e.g. tinygrad's
  // "uint128"); empty otherwise. Such a node is recorded as a NOOP whose arg is a ForeignArg of
  // type "op NAME" (its own arg's text inside), or with a void dtype, so it rebuilds and replays.
  std::string foreign_op;
  std::string foreign_dtype;
};

// How a rewrite's graphs are rebuilt from its steps.
enum class ReplaySemantics {
  // Ours: every before -> after pair so far, substituted until nothing changes, chained.
  Wavescope,
  // tinygrad VIZ's (spec viz.md a.4): the pairs so far, through tinygrad's substitute
  // (viz_substitute.hpp) with the rewrite's walk and enter_calls; a "pre" (bottom-up) rewrite
  // substitutes into its input every time, the others into the previous graph.
  Viz,
};

struct TraceStep {
  std::uint64_t before = 0;
  std::uint64_t after = 0;
  std::string rule;      // "family: name"
  std::string rule_loc;  // "symbolic_rules.cpp:88"
  std::uint64_t ns = 0;
};

struct TraceRewrite {
  std::string name;
  std::string loc;  // caller "file.cpp:214"
  int depth = 0;
  std::string mode = "post";  // "post", "pre" or "post+pre"
  bool walk = false;
  bool enter_calls = false;
  std::uint64_t input = 0;
  std::optional<std::uint64_t> output;  // absent when the rewrite failed
  std::vector<TraceStep> steps;
};

struct TraceGroupRecord {
  std::string name;
  std::vector<std::string> keys;
  std::vector<TraceRewrite> rewrites;
};

class RewriteTrace {
public:
  static constexpr int kVersion = 1;

  RewriteTrace() = default;
  RewriteTrace(RewriteTrace &&other) noexcept;
  RewriteTrace &operator=(RewriteTrace &&other) noexcept;

  const std::map<std::uint64_t, TraceNode> &nodes() const { return nodes_; }
  const std::vector<TraceGroupRecord> &groups() const { return groups_; }
  // Who wrote the trace: "wavescope" or "tinygrad".
  const std::string &generator() const { return generator_; }
  ReplaySemantics replay_semantics() const { return semantics_; }

  // A trace from records read elsewhere (e.g. tinygrad's rewrites.pkl). Throws Error(BadInput)
  // (prefixed by `origin`) when a node or step refers to a node the table lacks, or the node
  // table has a cycle.
  static RewriteTrace from_records(std::map<std::uint64_t, TraceNode> nodes,
                                   std::vector<TraceGroupRecord> groups, std::string generator,
                                   ReplaySemantics semantics, std::string_view origin);

  // Adds a node (and its children) to the node table; returns its trace id.
  std::uint64_t record_node(const UOp &node);

  // Rebuilds the node with this trace id (hash-consed in this process).
  UOp rebuild(std::uint64_t id) const;
  // The graphs of one rewrite: [0] the input, [k] after its first k steps (each step's "before"
  // is substituted by its "after" in the current graph), by the trace's replay semantics. The
  // last equals the recorded output. With Viz semantics a substitution that fails ends the list
  // with one REWRITE_ERROR node carrying the reason, as VIZ shows it.
  std::vector<UOp> replay(const TraceRewrite &rewrite) const;

  // JSON text of the whole trace (compact; one object).
  std::string to_json() const;
  void write_json(const std::filesystem::path &path) const;  // atomically
  // Reads a trace; malformed input throws wavescope::Error(BadInput) naming the JSON path of the
  // problem (e.g. "groups[0].rewrites[2].steps[5].after: node 17 is not in the node table").
  static RewriteTrace read_json(std::string_view text, std::string_view origin = "rewrite trace");
  static RewriteTrace load(const std::filesystem::path &path);
  // Reads a trace file of either kind, told by content: our JSON, or tinygrad's rewrites.pkl
  // (tinygrad_rewrites.hpp).
  static RewriteTrace open(const std::filesystem::path &path);

  // Recording, used by graph_rewrite through TraceSession.
  void open_group(std::string name, std::vector<std::string> keys);
  void close_group();
  // Renames the innermost open group (e.g. a kernel the optimizer renamed); a no-op without one.
  void rename_open_group(std::string name);
  std::size_t begin_rewrite(TraceRewrite header);  // returns a handle for the calls below
  void add_step(std::size_t handle, TraceStep step);
  void end_rewrite(std::size_t handle, std::optional<std::uint64_t> output);

private:
  TraceGroupRecord &current_group();
  std::uint64_t record_node_locked(const UOp &node);

  std::map<std::uint64_t, TraceNode> nodes_;
  std::unordered_map<std::uint64_t, std::uint64_t> trace_id_of_;  // UOp::id() -> trace id
  std::vector<TraceGroupRecord> groups_;
  std::vector<std::size_t> open_groups_;                      // stack of indices into groups_
  std::vector<std::pair<std::size_t, std::size_t>> handles_;  // (group, rewrite) per handle
  std::string generator_ = "wavescope";
  ReplaySemantics semantics_ = ReplaySemantics::Wavescope;
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();
};

// Turns tracing on for the current thread while it lives (sessions nest; the innermost wins).
class TraceSession {
public:
  explicit TraceSession(RewriteTrace &trace);
  ~TraceSession();
  TraceSession(const TraceSession &) = delete;
  TraceSession &operator=(const TraceSession &) = delete;

private:
  RewriteTrace *previous_;
  int previous_depth_;
};

// Opens a group (kernel / context) in the thread's active trace; a no-op without one.
class TraceGroup {
public:
  explicit TraceGroup(std::string name, std::vector<std::string> keys = {});
  ~TraceGroup();
  TraceGroup(const TraceGroup &) = delete;
  TraceGroup &operator=(const TraceGroup &) = delete;

private:
  RewriteTrace *trace_;
};

// Suspends recording on this thread while it lives (for helper rewrites inside rules).
class SuspendTracing {
public:
  SuspendTracing();
  ~SuspendTracing();
  SuspendTracing(const SuspendTracing &) = delete;
  SuspendTracing &operator=(const SuspendTracing &) = delete;

private:
  RewriteTrace *previous_;
};

// The trace recording on this thread, or nullptr.
RewriteTrace *active_trace();

namespace detail {
// The nesting depth of traced rewrites on this thread.
int &trace_depth();
}  // namespace detail

}  // namespace wavescope::compiler::rewrite
