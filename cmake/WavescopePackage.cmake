# Installs the CMake package so outside projects can find_package(wavescope).
include(CMakePackageConfigHelpers)
set(WAVESCOPE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/wavescope)
install(EXPORT wavescopeTargets NAMESPACE wavescope:: DESTINATION ${WAVESCOPE_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/wavescopeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/wavescopeConfig.cmake INSTALL_DESTINATION ${WAVESCOPE_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/wavescopeConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/wavescopeConfig.cmake
              ${PROJECT_BINARY_DIR}/wavescopeConfigVersion.cmake
        DESTINATION ${WAVESCOPE_CMAKE_DIR})
