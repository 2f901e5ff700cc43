# Builds the Emscripten tree from the native one (emcmake into build/<preset>/wasm)
# and runs its tests in the same ctest run: the GoogleTest suite under Node and
# the module's own Node tests.
include(ExternalProject)
find_program(GEOTRAIN_EMCMAKE emcmake REQUIRED)
find_program(GEOTRAIN_NODE node REQUIRED)
set(GEOTRAIN_WASM_BINARY_DIR "${CMAKE_BINARY_DIR}/wasm")

ExternalProject_Add(geotrain_wasm_tree
  SOURCE_DIR "${PROJECT_SOURCE_DIR}"
  BINARY_DIR "${GEOTRAIN_WASM_BINARY_DIR}"
  CONFIGURE_COMMAND ${GEOTRAIN_EMCMAKE} ${CMAKE_COMMAND} -S <SOURCE_DIR> -B <BINARY_DIR>
    -DCMAKE_BUILD_TYPE=Release
    -DGEOTRAIN_BUILD_TESTS=${GEOTRAIN_BUILD_TESTS}
    -DGEOTRAIN_NODE=${GEOTRAIN_NODE}
    # emcmake's default test emulator passes a flag Node 20 rejects.
    -DCMAKE_CROSSCOMPILING_EMULATOR=${GEOTRAIN_NODE}
  BUILD_COMMAND ${CMAKE_COMMAND} --build <BINARY_DIR> --parallel 2
  INSTALL_COMMAND ""
  BUILD_ALWAYS ON
  USES_TERMINAL_BUILD ON)

if(GEOTRAIN_BUILD_TESTS)
  # Emscripten 3.1.6 would fetch() the .wasm by file path under Node 18+: keep it on fs.
  add_test(NAME wasm.gtest COMMAND ${GEOTRAIN_NODE} --no-experimental-fetch
           "${GEOTRAIN_WASM_BINARY_DIR}/tests/geotrain_tests.js")
endif()

# The page lists the examples from web/examples/ (a copy with an index.json).
add_custom_target(web_examples ALL
  COMMAND ${GEOTRAIN_NODE} "${PROJECT_SOURCE_DIR}/web/tools/copy-examples.mjs"
  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
  COMMENT "Copying examples into web/examples/")

# The docs (docs/*.md and the Markdown files they link to) as static pages under web/docs/, so
# that the page's "?" links open them offline (web/tools/render-docs.mjs).
add_custom_target(web_docs ALL
  COMMAND ${GEOTRAIN_NODE} "${PROJECT_SOURCE_DIR}/web/tools/render-docs.mjs"
  WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
  COMMENT "Rendering docs into web/docs/")
