# libhw's public headers name only the standard library, base and other public headers: no
# private header of src/ (the simulator's models, the fault plans) and no nlohmann::json, so a
# tool that includes wavescope/hw/device.hpp sees neither. Run: cmake -DINCLUDE_DIR=... -P this.
file(GLOB_RECURSE headers ${INCLUDE_DIR}/*.hpp)
list(LENGTH headers count)
if(count LESS 40)
  message(FATAL_ERROR "only ${count} public headers under ${INCLUDE_DIR}: wrong directory?")
endif()
set(bad "")
foreach(header ${headers})
  file(STRINGS ${header} includes REGEX "^#include")
  foreach(line ${includes})
    if(line MATCHES "^#include <nlohmann" OR
       (line MATCHES "^#include \"" AND NOT line MATCHES "^#include \"wavescope/"))
      file(RELATIVE_PATH rel ${INCLUDE_DIR} ${header})
      string(APPEND bad "\n  ${rel}: ${line}")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "public headers that include private ones or nlohmann:${bad}")
endif()
message(STATUS "${count} public headers include only public ones")
