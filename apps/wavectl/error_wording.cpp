// What wavectl prints for a library error. Libraries word their remedies in their own terms (a
// field to set, a value to give); where wavectl has an option for the remedy, it is named here.

#include "commands/registry.hpp"

#include "commands/hw/refusal_wording.hpp"
#include "wavescope/compiler/isa/code_object.hpp"
#include "wavescope/compiler/symbolic/expression.hpp"

namespace wavectl {

std::string error_message(const wavescope::Error &error) {
  using namespace wavescope::compiler;
  if (const auto *e = dynamic_cast<const isa::TargetNotNamed *>(&error))
    return e->problem() + "; pass the target, e.g. --target gfx1100";
  if (const auto *e = dynamic_cast<const symbolic::UnknownVariable *>(&error))
    return e->where() + ": unknown variable '" + e->name() + "' (declare it, e.g. --var " +
           e->name() + "=0:7)";
  return hw_cli::cli_message(error);
}

}  // namespace wavectl
