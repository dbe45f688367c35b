// Catch2's main lives in this one object so test executables compile quickly.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
