#pragma once
// What the problem-file tests share: a valid document to break, and the
// messages a document is refused with.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/input_error.hpp"
#include "model/problem_json.hpp"

namespace geotrain::testing {

// A valid two-GPU problem; each test breaks one thing.
inline nlohmann::json base_doc() {
  return nlohmann::json::parse(R"({
    "name": "base",
    "model": {"hidden_size": 1000, "num_layers": 4, "seq_length": 1000, "vocab_size": 1000,
              "micro_batch_size": 1, "global_batch_size": 4},
    "gpus": [
      {"id": "g0", "site": "A", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "g1", "site": "B", "peak_tflops": 50, "memory_gib": 80, "idle_w": 10, "active_w": 60}
    ],
    "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}
  })");
}

inline std::vector<std::string> errors_of(const nlohmann::json& doc) {
  try {
    parse_problem(doc);
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

inline std::vector<std::string> errors_of_text(const std::string& text) {
  try {
    parse_problem_text(text);
  } catch (const InputError& e) {
    return e.messages();
  }
  return {};
}

inline ::testing::AssertionResult has_error(const std::vector<std::string>& messages, const std::string& expected) {
  for (const auto& m : messages)
    if (m == expected) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << "no message \"" << expected << "\" among " << messages.size()
                                               << ":";
  for (const auto& m : messages) failure << "\n  " << m;
  return failure;
}

// The hand pool of the API, CLI and studies tests: three GPUs, L = 4, M = 4,
// a 10 Gbps / 1 ms default link and two faster directed links, lambda 0.5
// with T_ref 10 ms and E_ref 2 J (figures worked out in tests/test_api.cpp).
inline nlohmann::json hand_problem() {
  return nlohmann::json::parse(R"({
    "name": "hand pool",
    "model": {"hidden_size": 1000, "num_layers": 4, "seq_length": 1000, "vocab_size": 1000,
              "micro_batch_size": 1, "global_batch_size": 4},
    "gpus": [
      {"id": "g0", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
      {"id": "g1", "peak_tflops": 50, "memory_gib": 80, "idle_w": 10, "active_w": 60},
      {"id": "g2", "peak_tflops": 100, "memory_gib": 80, "idle_w": 20, "active_w": 120}
    ],
    "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1},
                "links": [{"from": "g1", "to": "g0", "bandwidth_gbps": 100, "latency_ms": 0.5},
                          {"from": "g2", "to": "g1", "bandwidth_gbps": 40, "latency_ms": 0}]},
    "objective": {"lambda": 0.5, "t_ref_ms": 10, "e_ref_j": 2}
  })");
}

}  // namespace geotrain::testing

#define EXPECT_ERROR(doc, expected) EXPECT_TRUE(::geotrain::testing::has_error(::geotrain::testing::errors_of(doc), expected))
#define EXPECT_ACCEPTED(doc) EXPECT_EQ(::geotrain::testing::errors_of(doc), std::vector<std::string>{})
