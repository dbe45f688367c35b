# Every third-party dependency, found once. All come from Debian 12 packages
# (scripts/install-deps.sh installs them).
find_package(PkgConfig REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)

# LLVM 22 is the Debian LLVM that knows gfx950 as well as gfx1100/gfx1200/gfx1201. Its version
# check compares major.minor, hence 22.1.
find_package(LLVM 22.1 REQUIRED CONFIG HINTS /usr/lib/llvm-22/lib/cmake/llvm)
message(STATUS "wavescope: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")
if(NOT "AMDGPU" IN_LIST LLVM_TARGETS_TO_BUILD)
  message(FATAL_ERROR "LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR} was built without the AMDGPU target")
endif()

pkg_check_modules(LIBUSB REQUIRED IMPORTED_TARGET libusb-1.0)

if(WAVESCOPE_BUILD_APP)
  find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets Charts Svg SvgWidgets Concurrent Test)
  pkg_check_modules(GRAPHVIZ REQUIRED IMPORTED_TARGET libgvc libcgraph)
endif()

if(WAVESCOPE_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
if(WAVESCOPE_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
