#pragma once
// One GPU of the pool, in file units (TFLOPS, GiB, watts).
#include <string>

#include "model/figure_sources.hpp"

namespace geotrain {

struct Gpu {
  std::string id;
  std::string type;  // catalogue name or free text; empty when absent
  std::string site;  // empty: the shared default site
  std::string node;  // machine it sits in; empty: a node of its own (see node_name)
  std::string host;  // address or name of that machine, for launch lines; empty: not given
  int device = -1;   // local CUDA index on its node; -1: not given (launch bundles assume file order)
  double peak_tflops = 0;
  double compute_util = 1;
  double memory_gib = 0;
  double memory_util = 1;
  double idle_w = 0;
  double active_w = 0;
  double price_per_hour = 0;  // rental, in the unit of the prices (objectives.md)
  FigureSources sources;      // where its figures came from (figure_sources.hpp); never read by the model

  // GPUs naming the same node share a machine (stage-groups.md); without a
  // name a GPU is a node of one, named by its id.
  const std::string& node_name() const { return node.empty() ? id : node; }
  double effective_flops() const { return peak_tflops * 1e12 * compute_util; }
  double effective_memory_bytes() const { return memory_gib * 1073741824.0 * memory_util; }
};

}  // namespace geotrain
