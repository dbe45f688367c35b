#include "cli_context.hpp"

#include <iostream>

namespace wavectl {

namespace {
template <typename Json> void print_line(const Json &object) {
  std::cout << object.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
}
}  // namespace

void print_json_line(const nlohmann::json &object) { print_line(object); }
void print_ordered_json_line(const nlohmann::ordered_json &object) { print_line(object); }

void add_json_flag(CLI::App &command, CliContext &context) {
  command.add_flag("--json", context.json, "Print machine-readable JSON, one object per line");
}

}  // namespace wavectl
