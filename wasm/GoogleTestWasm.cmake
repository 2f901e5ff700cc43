# GoogleTest for the Emscripten build, compiled from Debian's sources
# (libgtest-dev ships them in /usr/src/googletest), so that the native suite
# runs unchanged under Node.js.
set(GEOTRAIN_GTEST_SOURCE "/usr/src/googletest/googletest" CACHE PATH "GoogleTest sources")
if(NOT EXISTS "${GEOTRAIN_GTEST_SOURCE}/src/gtest-all.cc")
  message(FATAL_ERROR "GoogleTest sources not found in ${GEOTRAIN_GTEST_SOURCE}: run ./setup.sh (apt package libgtest-dev)")
endif()
add_library(gtest_wasm STATIC "${GEOTRAIN_GTEST_SOURCE}/src/gtest-all.cc" "${GEOTRAIN_GTEST_SOURCE}/src/gtest_main.cc")
target_include_directories(gtest_wasm SYSTEM PUBLIC "${GEOTRAIN_GTEST_SOURCE}/include" PRIVATE "${GEOTRAIN_GTEST_SOURCE}")
target_compile_options(gtest_wasm PUBLIC -fexceptions)
target_compile_definitions(gtest_wasm PUBLIC GTEST_HAS_PTHREAD=0)
add_library(GTest::gtest_main ALIAS gtest_wasm)
