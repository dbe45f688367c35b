cmake_minimum_required(VERSION 3.25)
# One kernel source run on the emulated GPUs: `wavectl run SOURCE OPT --save WORK_DIR` (OPT: its
# arguments separated by '|'), then run_bundle.py on every bundle for gfx1100, gfx1201 and gfx950,
# expecting KERNELS kernels.
# Skips (with "gpu emu skipped:") without $TINYGRAD, and without the corpus for a corpus source
# unless CI=true (then the missing corpus fails, as every corpus test does).
if(NOT "$ENV{WAVESCOPE_TESTDATA}" STREQUAL "")
  set(DATA "$ENV{WAVESCOPE_TESTDATA}")
endif()
if("$ENV{TINYGRAD}" STREQUAL "")
  message("gpu emu skipped: TINYGRAD is not set; set it to a tinygrad checkout "
          "(test/mockgpu/amd/emu.py) to run the AMDGPU code objects in its emulator")
  return()
endif()
if(SOURCE MATCHES "@DATA@")
  string(REPLACE "@DATA@" "${DATA}" SOURCE "${SOURCE}")
  if(NOT EXISTS "${SOURCE}")
    if("$ENV{CI}" STREQUAL "true")
      message(FATAL_ERROR "the corpus file ${SOURCE} is missing (CI=true)")
    endif()
    message("gpu emu skipped: the corpus file ${SOURCE} is missing")
    return()
  endif()
endif()
find_program(PYTHON3 python3 REQUIRED)
file(REMOVE_RECURSE "${WORK_DIR}")
string(REPLACE "|" ";" OPT "${OPT}")  # several arguments, separated by '|'
execute_process(COMMAND "${WAVECTL}" run "${SOURCE}" ${OPT} --save "${WORK_DIR}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "wavectl run ${SOURCE} ${OPT} --save failed (${rc})")
endif()
math(EXPR runs "${KERNELS} * 3")
if(CORRUPT)
  # The check itself: one saved CPU output changed (a bit of its first element's exponent
  # flipped); the runner must report that kernel's code objects as mismatches and exit 1.
  file(GLOB outputs "${WORK_DIR}/*/*.out.bin")
  list(GET outputs 0 output)
  execute_process(COMMAND "${PYTHON3}" -c
                          "import sys; p = sys.argv[1]; b = bytearray(open(p, 'rb').read()); \
b[3] ^= 0x40; open(p, 'wb').write(b)" "${output}")
endif()
execute_process(COMMAND "${PYTHON3}" "${SCRIPT}" "${WORK_DIR}" --target gfx1100 --target gfx1201
                        --target gfx950 --expect ${runs}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(CORRUPT)
  string(REGEX MATCHALL "MISMATCH" caught "${out}")
  list(LENGTH caught caught)
  if(NOT rc EQUAL 1 OR NOT caught EQUAL 3)
    message(FATAL_ERROR "run_bundle.py did not catch the changed output ${output} (exit ${rc}, "
                        "${caught} of 3 runs of that kernel reported)")
  endif()
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "run_bundle.py: code objects differ from the CPU's outputs (${rc})")
endif()
