#pragma once
// Small pieces several test files share: hand-built pools and plan checks.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "model/group_plan.hpp"
#include "model/plan.hpp"
#include "model/problem.hpp"

namespace geotrain::testing {

// GPUs of the given speeds at one site (every link alike), 80 GiB each,
// lambda = 1. With H = 1024, T = 1024, u = 1, V = 1000, M = 8 on a
// 100-TFLOPS GPU: a layer a = 3 * 24 H^2 T / 1e14 = 0.773 ms, the head
// h = 3 * 2 T H V / 1e14 = 0.063 ms, one send s = 0.01 ms + 2 MiB / 12.5 GB/s
// = 0.178 ms. So h < s < a, which the operator cases rely on.
inline Problem hand_pool(const std::vector<double>& tflops, int layers) {
  Problem p;
  p.name = "hand-built";
  ModelConfig& m = p.model;
  m.hidden_size = 1024, m.num_layers = layers, m.seq_length = 1024, m.vocab_size = 1000;
  m.micro_batch_size = 1, m.global_batch_size = 8, m.precision = Precision::fp16;
  for (std::size_t i = 0; i < tflops.size(); ++i) {
    Gpu g;
    g.id = "g" + std::to_string(i);
    g.peak_tflops = tflops[i];
    g.memory_gib = 80;
    g.idle_w = 50, g.active_w = 300;
    p.gpus.push_back(g);
  }
  p.network.intra_site = LinkSpec{100, 0.01, 1};
  p.objective.lambda = 1, p.objective.t_ref_ms = 1000, p.objective.e_ref_j = 1000;
  return p;
}

// Round numbers for hand arithmetic: H = T = V = 1000, u = 1, B = 4 (M = 4), fp16.
inline ModelConfig round_model(int layers) {
  ModelConfig m;
  m.hidden_size = 1000;
  m.num_layers = layers;
  m.seq_length = 1000;
  m.vocab_size = 1000;
  m.micro_batch_size = 1;
  m.global_batch_size = 4;
  return m;
}

// Two 100-TFLOPS GPUs, 80 GiB, 10/100 W, joined by 100 Gbps with no latency, two layers of
// round_model: a layer is 7.2e-4 s, the head 6e-5 s (rho = 1/12), one activation 1.6e-4 s
// (test_cost_model.cpp has the arithmetic). The bounds' hand-worked cases start from it.
inline Problem two_equal_gpus_problem() {
  Problem p;
  p.model = round_model(2);
  for (const char* id : {"a", "b"}) {
    Gpu g;
    g.id = id;
    g.peak_tflops = 100;
    g.memory_gib = 80;
    g.idle_w = 10;
    g.active_w = 100;
    p.gpus.push_back(g);
  }
  p.network.default_link = LinkSpec{100, 0, 1};
  return p;
}

// The replica tests' hand-worked pool: round_model(4) (H = T = V = 1000, u = 1,
// B = 4, fp16); GPUs a0, a1 at site A and b0, b1 at site B, 100 TFLOPS, 80 GiB,
// 50 W idle, 250 W active; intra_site 100 Gbps, 0.1 ms; inter_site 10 Gbps, 10 ms.
inline Problem four_gpus_on_two_sites() {
  Problem p;
  p.model = round_model(4);
  for (const char* id : {"a0", "a1", "b0", "b1"}) {
    Gpu g;
    g.id = id;
    g.site = std::string(1, static_cast<char>(std::toupper(static_cast<unsigned char>(id[0]))));
    g.peak_tflops = 100, g.memory_gib = 80, g.idle_w = 50, g.active_w = 250;
    p.gpus.push_back(g);
  }
  p.network.intra_site = LinkSpec{100, 0.1, 1};
  p.network.inter_site = LinkSpec{10, 10, 1};
  return p;
}

// Two sites of two 2-GPU nodes each (n0, n1 at A; n2, n3 at B); site A's GPUs
// are twice as fast (200 against 100 TFLOPS). L = 4; 800 Gbps inside a node,
// 10 Gbps and 10 ms between sites.
inline Problem two_sites_of_two_nodes() {
  Problem p = hand_pool({200, 200, 200, 200, 100, 100, 100, 100}, 4);
  for (std::size_t i = 0; i < p.gpus.size(); ++i) {
    p.gpus[i].site = i < 4 ? "A" : "B";
    p.gpus[i].node = "n" + std::to_string(i / 2);
  }
  p.network.intra_node = LinkSpec{800, 0.001, 1};
  p.network.inter_site = LinkSpec{10, 10, 1};
  return p;
}

// A stage of one GPU, for replica plans written by hand.
inline GroupStage one_gpu_stage(int gpu, int layers) { return GroupStage{{gpu}, 1, layers}; }

inline bool same_plan(const Plan& a, const Plan& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t q = 0; q < a.size(); ++q)
    if (a[q].gpu != b[q].gpu || a[q].layers != b[q].layers) return false;
  return true;
}

inline std::string show(const Plan& plan) {
  std::string text;
  for (const Stage& s : plan) text += "[g" + std::to_string(s.gpu) + ":" + std::to_string(s.layers) + "]";
  return text;
}

}  // namespace geotrain::testing

#define EXPECT_PLAN(actual, ...)                                                   \
  EXPECT_TRUE(::geotrain::testing::same_plan((actual), ::geotrain::Plan{__VA_ARGS__})) \
      << ::geotrain::testing::show(actual)
