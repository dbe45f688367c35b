#include "cli_context.hpp"

#include <iostream>

namespace wavectl {

void print_json_line(const nlohmann::json &object) {
  std::cout << object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void add_json_flag(CLI::App &command, CliContext &context) {
  command.add_flag("--json", context.json, "Print machine-readable JSON, one object per line");
}

}  // namespace wavectl
