#pragma once
// The register database's tables as embedded in libhw (libhw/regdb_tables.cmake): each table's
// name ("gc_11_0_0") and its gzip'd text, made by scripts/regdb/generate.py.

#include <span>

namespace wavescope::hw::regs::detail {

struct EmbeddedTable {
  const char *name;
  const unsigned char *begin, *end;
};

std::span<const EmbeddedTable> embedded_tables();

}  // namespace wavescope::hw::regs::detail
