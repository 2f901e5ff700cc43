#pragma once
// One GPU of the pool, in file units (TFLOPS, GiB, watts).
#include <string>

namespace geotrain {

struct Gpu {
  std::string id;
  std::string type;  // catalogue name or free text; empty when absent
  std::string site;  // empty: the shared default site
  double peak_tflops = 0;
  double compute_util = 1;
  double memory_gib = 0;
  double memory_util = 1;
  double idle_w = 0;
  double active_w = 0;

  double effective_flops() const { return peak_tflops * 1e12 * compute_util; }
  double effective_memory_bytes() const { return memory_gib * 1073741824.0 * memory_util; }
};

}  // namespace geotrain
