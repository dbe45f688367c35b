#pragma once
// What every wavectl subcommand shares: the global options and the ways to print results.

#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace wavectl {

struct CliContext {
  bool json = false;   // --json: machine-readable output, one JSON object per line
  bool quiet = false;  // --quiet: no progress lines on stderr
};

// Prints one compact JSON object as a line on stdout (keys sorted).
void print_json_line(const nlohmann::json &object);
// The same, keeping the keys in insertion order (where the order is part of a contract).
void print_ordered_json_line(const nlohmann::ordered_json &object);

// Prints a library report with the printer --json picks: the library's to_json (one or more
// JSON lines) or its to_text.
template <typename Report> void print_report(const Report &report, const CliContext &context) {
  if (context.json) {
    const std::string lines = to_json(report);
    if (!lines.empty()) std::cout << lines << '\n';
  } else {
    std::cout << to_text(report);
  }
}

// Adds the --json flag to a subcommand too, so it may follow the subcommand's arguments.
void add_json_flag(CLI::App &command, CliContext &context);

}  // namespace wavectl
