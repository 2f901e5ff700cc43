#pragma once
// Built-in GPU figures: a GPU whose `type` names an entry gets the numbers its
// file entry omits (numbers written in the file always win).
#include <string>
#include <string_view>
#include <vector>

#include "model/model_config.hpp"

namespace geotrain {

struct CatalogueEntry {
  std::string name;         // canonical type name, e.g. "A100-SXM-80GB"
  double fp16_tflops;       // dense tensor-core peak, no sparsity
  double bf16_tflops;       // 0 when the GPU has no bf16 tensor cores
  double fp32_tflops;       // plain FP32 (CUDA cores), not TF32
  double memory_gib;
  double idle_w;
  double active_w;          // board power / TDP
  std::string source;       // where the numbers come from
  // Representative on-demand rental price in USD per GPU-hour (0: no common
  // public offer). A suggestion for gpus[].price_per_hour only: the catalogue
  // never fills it into a problem, whose default stays 0.
  double price_per_hour;
  std::string price_source;  // provider, instance and year behind price_per_hour

  // Peak TFLOPS at a precision; 0 when unsupported.
  double peak_tflops(Precision precision) const;
};

const std::vector<CatalogueEntry>& gpu_catalogue();

// Case-insensitive; spaces, '_' and '-' are interchangeable ("a100 sxm 80gb").
// Null when the name is not in the catalogue.
const CatalogueEntry* find_catalogue_entry(std::string_view type);

}  // namespace geotrain
