#pragma once
// Small pools worked out by hand for the exact-search tests, with
// H = 1000, T = 1000, u = 1, V = 1000, fp16 (kappa = 2):
//   per layer: (1 + gamma) 24 H^2 u T = 3 * 2.4e7 * 1e6 = 7.2e10 FLOP -> 7.2e-4 s at 100 TFLOPS
//   LM head:   (1 + gamma) 2 u T H V = 3 * 2e9 = 6e9 FLOP             -> 6e-5 s at 100 TFLOPS
//   activation S = kappa u T H = 2e6 bytes
//   memory per layer: 4 P kappa = 9.6e7 bytes plus (Q + 1) * 2e7; head 1.2e7 bytes
#include <string>

#include "model/problem.hpp"

namespace geotrain::testing {

inline Problem hand_model(int layers, int global_batch) {
  Problem p;
  p.name = "hand";
  p.model.hidden_size = 1000;
  p.model.num_layers = layers;
  p.model.seq_length = 1000;
  p.model.vocab_size = 1000;
  p.model.micro_batch_size = 1;
  p.model.global_batch_size = global_batch;
  p.model.precision = Precision::fp16;
  p.objective.lambda = 1;
  p.objective.t_ref_ms = 1000;  // objective = T in seconds when lambda = 1
  p.objective.e_ref_j = 1000;
  return p;
}

inline Gpu hand_gpu(const std::string& id, const std::string& site, double tflops, double memory_gib, double idle_w,
                double active_w) {
  Gpu g;
  g.id = id;
  g.site = site;
  g.peak_tflops = tflops;
  g.memory_gib = memory_gib;
  g.idle_w = idle_w;
  g.active_w = active_w;
  return g;
}

}  // namespace geotrain::testing
