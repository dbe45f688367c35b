# Shared helpers for declaring wavescope targets consistently.

# Warnings every target of ours compiles with; errors when WAVESCOPE_WERROR is on (CI).
function(wavescope_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wnon-virtual-dtor
                                           -Wimplicit-fallthrough
                                           $<IF:$<CXX_COMPILER_ID:GNU>,-Wshadow=local,-Wshadow>)
  if(WAVESCOPE_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# wavescope_library(<name> SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# Declares the shared library wavescope_<name>, alias wavescope::<name>, with public headers in
# ${CMAKE_CURRENT_SOURCE_DIR}/include and installed under the package's export set.
function(wavescope_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  set(target wavescope_${name})
  add_library(${target} SHARED ${ARG_SOURCES})
  add_library(wavescope::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME wavescope-${name}
    EXPORT_NAME ${name}
    VERSION ${PROJECT_VERSION}
    SOVERSION ${PROJECT_VERSION_MAJOR})
  target_include_directories(${target}
    PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
           $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>
    PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(${target} PUBLIC wavescope::base ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  wavescope_warnings(${target})
  install(TARGETS ${target} EXPORT wavescopeTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()
