// wavectl simplify: the symbolic simplifier on one expression or on a corpus case file.
//
//   wavectl simplify '(5+7*a)%8' --var a=0:3            a*-1+5   range [2, 5]
//   wavectl simplify --cases dev.jsonl --json {"id":...,"simplified":...,"min":...,"max":...}
//   wavectl simplify 'x//3%4*2+x//12%5*8' --var x=0:199 --trace trace.json

#include <iostream>

#include "commands/compiler/compiler_commands.hpp"
#include "progress_printer.hpp"
#include "wavescope/base/error.hpp"
#include "wavescope/compiler/rewrite/rewrite_trace.hpp"
#include "wavescope/compiler/symbolic/corpus.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"
#include "wavescope/compiler/symbolic/simplify.hpp"
#include "wavescope/compiler/symbolic/simplify_report.hpp"
#include <fmt/format.h>

namespace wavectl {
namespace {

using namespace wavescope::compiler;
using namespace wavescope::compiler::symbolic;
using wavescope::Error;
using wavescope::ErrorKind;

struct SimplifyArgs {
  std::string expr;
  std::vector<std::string> vars;
  std::vector<std::string> constraints;
  std::string cases;
  std::string trace;
  std::string layer = "sym";
  bool verify = false;
  bool list_rules = false;
};

VariableDecl parse_var(const std::string &spec) {
  try {
    return parse_variable_decl(spec);
  } catch (const Error &e) {
    throw Error(e.kind(), fmt::format("--var {}: {}", spec, e.what()));
  }
}

void run_one(const SimplifyArgs &args, const CliContext &context) {
  SymbolicCase c;
  c.id = "expr";
  c.expr = args.expr;
  for (const auto &spec : args.vars) c.vars.push_back(parse_var(spec));
  c.constraints = args.constraints;
  const CaseGraph g = build_case(c);
  rewrite::RewriteTrace trace;
  SimplifyReport report{args.expr, g.expr, {}, {}};
  {
    std::optional<rewrite::TraceSession> session;
    if (!args.trace.empty()) session.emplace(trace);
    rewrite::TraceGroup group("simplify " + args.expr);
    report.result = simplify(g.expr, rule_layer(args.layer));
  }
  if (!args.trace.empty()) trace.write_json(args.trace);
  if (args.verify) report.check = check_equivalence(g, report.result);
  std::cout << (context.json ? to_json(report) : to_text(report));
  if (!args.trace.empty() && !context.quiet)
    std::cerr << fmt::format("wrote rewrite trace {}\n", args.trace);
  if (report.check && !report.check->equivalent)
    throw Error(ErrorKind::Mismatch,
                "the simplified expression differs from the input: " + report.check->reason);
}

void run_cases(const SimplifyArgs &args, const CliContext &context) {
  if (!args.expr.empty())
    throw Error(ErrorKind::Usage, "give either EXPR or --cases FILE, not both");
  if (!args.vars.empty() || !args.constraints.empty())
    throw Error(ErrorKind::Usage,
                "--var and --constraint apply to EXPR; case files declare their own");
  const auto cases = load_cases(args.cases);
  rewrite::RewriteTrace trace;
  std::optional<rewrite::TraceSession> session;
  if (!args.trace.empty()) session.emplace(trace);
  ProgressPrinter progress(!context.quiet);
  auto sink = progress.sink();
  CasesSummary summary;
  summary.cases = cases.size();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const SymbolicCase &c = cases[i];
    sink({"simplify", i, cases.size(), "cases"});
    CaseReport report{c.id, c.expr, {}, {}};
    try {
      const CaseGraph g = build_case(c);
      rewrite::TraceGroup group(c.id);
      const UOp result = simplify(g.expr, rule_layer(args.layer));
      report = case_report(c, result);
      if (args.verify) {
        const auto check = check_equivalence(g, result);
        if (!check.equivalent)
          std::cerr << fmt::format("case {}: NOT EQUIVALENT: {}\n", c.id, check.reason);
        summary.count(c, report, count_operations(result), check);
      }
    } catch (const Error &e) {
      ++summary.failed;
      std::cerr << fmt::format("case {}: {}\n", c.id, e.what());
    }
    std::cout << (context.json ? to_json(report) : to_text(report));
  }
  sink({"simplify", cases.size(), cases.size(), "cases"});
  progress.finish();
  session.reset();
  if (!args.trace.empty()) trace.write_json(args.trace);
  if (args.verify) std::cerr << to_text(summary);
  if (summary.failed)
    throw Error(ErrorKind::BadInput, fmt::format("{} of {} cases could not be simplified",
                                                 summary.failed, cases.size()));
  if (args.verify && summary.equivalent + summary.failed < cases.size())
    throw Error(ErrorKind::Mismatch,
                fmt::format("{} cases simplified to a non-equivalent expression",
                            cases.size() - summary.equivalent - summary.failed));
}

void list_rules(const std::string &layer, const CliContext &context) {
  const RuleListReport report{rule_layer(layer), rule_layer_name(layer)};
  std::cout << (context.json ? to_json(report) : to_text(report));
}

}  // namespace

void register_simplify_command(CLI::App &app, CliContext &context) {
  auto args = std::make_shared<SimplifyArgs>();
  auto *cmd = app.add_subcommand("simplify",
                                 "Simplify integer index expressions (the symbolic simplifier)");
  cmd->footer(
      "Expression syntax: + - * // % (floor division and modulo), < <= > >= == != & | ^ << >>, "
      "!, ~, where(c, t, f), max, min, cdiv, cmod, casts int32(x), index(x), bool(x); true, false, "
      "invalid.\nExamples:\n  wavectl simplify '(5+7*a)%8' --var a=0:3\n"
      "  wavectl simplify 'r0//(a+1)' --var a=1:10 --var r0=0:10 --constraint 'r0<a+1'\n"
      "  wavectl simplify --cases dev.jsonl --json");
  cmd->add_option("EXPR", args->expr, "The expression to simplify");
  cmd->add_option("--var", args->vars,
                  "A variable: NAME=MIN:MAX or NAME=MIN:MAX:DTYPE (inclusive range)");
  cmd->add_option(
      "--constraint", args->constraints,
      "A constraint 'v<e' makes v a loop index with extent e (0 <= v < e); other constraints "
      "only restrict the domain --verify checks");
  cmd->add_option("--cases", args->cases, "A corpus .jsonl file: simplify every case")
      ->check(CLI::ExistingFile);
  cmd->add_option("--trace", args->trace,
                  "Write the rewrite trace (every rule applied) as JSON here");
  cmd->add_option("--rules", args->layer, "Rule layer: simple, symbolic or sym (default)")
      ->check(CLI::IsMember({"simple", "symbolic", "sym"}));
  cmd->add_flag("--verify", args->verify,
                "Check the result against the input over the whole domain (sampled when large)");
  add_json_flag(*cmd, context);
  cmd->add_flag(
      "--list-rules", args->list_rules,
      "List the rule families of the chosen layer: every rule's name and source location");
  cmd->callback([args, &context] {
    if (args->list_rules) return list_rules(args->layer, context);
    if (args->cases.empty() && args->expr.empty())
      throw Error(ErrorKind::Usage, "give an EXPR to simplify or --cases FILE (see --help)");
    if (!args->cases.empty())
      run_cases(*args, context);
    else
      run_one(*args, context);
  });
}

}  // namespace wavectl
