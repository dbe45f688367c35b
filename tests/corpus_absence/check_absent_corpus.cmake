cmake_minimum_required(VERSION 3.25)
# Runs one test with WAVESCOPE_TESTDATA pointing at an empty folder and checks what a test that
# needs the corpus must do there: fail under CI=true (EXPECT=fail), skip otherwise (EXPECT=skip).
#   -DEMPTY_DIR=... -DEXPECT=fail|skip -DKIND=catch|replay -DPROGRAM=... "-DARGS=a;b"
file(REMOVE_RECURSE "${EMPTY_DIR}")
file(MAKE_DIRECTORY "${EMPTY_DIR}")
set(ENV{WAVESCOPE_TESTDATA} "${EMPTY_DIR}")
if(EXPECT STREQUAL "fail")
  set(ENV{CI} "true")
else()
  unset(ENV{CI})
endif()
execute_process(COMMAND "${PROGRAM}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
set(what "${PROGRAM} ${ARGS} (corpus at an empty folder, EXPECT=${EXPECT}): exit ${rc}\n${out}${err}")
if(EXPECT STREQUAL "fail")
  # The replay driver's 77 means "skipped": under CI that would be a pass on nothing.
  if(rc EQUAL 0 OR rc EQUAL 77)
    message(FATAL_ERROR "did not fail: ${what}")
  endif()
elseif(KIND STREQUAL "replay")
  if(NOT rc EQUAL 77)
    message(FATAL_ERROR "did not skip (exit 77): ${what}")
  endif()
else()
  # Catch2 v2 has no skip: the test passes with a "skipped: ..." warning.
  if(NOT rc EQUAL 0 OR NOT "${out}${err}" MATCHES "skipped")
    message(FATAL_ERROR "did not skip with a message: ${what}")
  endif()
endif()
message(STATUS "${what}")
