#pragma once
// The measured-cluster tests' files: tool outputs in tests/fixtures/measured/
// (SOURCES.md says where each format comes from) and the examples' cluster.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "measure/tool_text.hpp"
#include "model/input_error.hpp"

namespace geotrain::testing {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline measure::MeasuredFile fixture(const std::string& name) {
  return {name, read_text(std::string(GEOTRAIN_FIXTURES_DIR) + "/measured/" + name)};
}

inline measure::MeasuredFile example_file(const std::string& name) {
  return {name, read_text(std::string(GEOTRAIN_EXAMPLES_DIR) + "/measured/" + name)};
}

// The messages `run` throws as InputError; empty when it throws none.
template <typename Run>
std::vector<std::string> input_errors(Run run) {
  try {
    run();
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

// "the one message is exactly `expected`".
template <typename Run>
::testing::AssertionResult refused_with(Run run, const std::string& expected) {
  const auto messages = input_errors(run);
  if (messages.size() == 1 && messages[0] == expected) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << "expected \"" << expected << "\", got";
  for (const auto& m : messages) failure << "\n  \"" << m << "\"";
  if (messages.empty()) failure << " no error";
  return failure;
}

}  // namespace geotrain::testing
