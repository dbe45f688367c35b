# Every third-party dependency, found once. All come from Debian 12 packages
# (scripts/install-deps.sh installs them).
find_package(PkgConfig REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
# simdjson (libsimdjson-dev): libtrace reads capture meta.json listings of many thousand blobs.
find_package(simdjson 3 REQUIRED)
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
# LLVM 22's lld as a library (liblld-22-dev): libcompiler links AMDGPU code objects in process.
# Without it, it runs LLVM 22's ld.lld program (lld-22) for each code object.
find_package(LLD CONFIG QUIET HINTS "${LLVM_INSTALL_PREFIX}/lib/cmake/lld"
             /usr/lib/llvm-22/lib/cmake/lld)
if(LLD_FOUND AND TARGET lldELF AND LLVM_VERSION VERSION_EQUAL LLVM_PACKAGE_VERSION)
  set(WAVESCOPE_HAVE_LLD ON)
  message(STATUS "wavescope: lld ${LLVM_VERSION} linked in process (${LLD_CMAKE_DIR})")
else()
  set(WAVESCOPE_HAVE_LLD OFF)
  message(STATUS "wavescope: no liblld-22-dev; code objects are linked by the ld.lld program")
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
