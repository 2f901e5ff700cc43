// Built-in GPU figures from NVIDIA datasheets and architecture whitepapers.
//
// Rules every entry follows (examples/CATALOGUE.md repeats them for users):
//  - fp16 / bf16: dense tensor-core peak, no 2:4 sparsity.
//  - Where NVIDIA publishes two FP16 tensor figures (GeForce cards: FP16
//    accumulate vs FP32 accumulate), the FP32-accumulate one is used, since
//    that is what mixed-precision training runs.
//  - bf16 is 0 on GPUs without bf16 tensor cores (Volta, Turing).
//  - fp32 is plain FP32 on the CUDA cores, not TF32.
//  - memory_gib is the marketing "GB" number (80 for an 80 GB card).
//  - active_w is the datasheet TDP / board power. idle_w is 15% of TDP, the
//    paper's rule (Sect. 6.7), except where the paper states a figure
//    (A30 25 W, A100 PCIe 40GB 40 W, A100 SXM 80GB 60 W measured).
//  - price_per_hour: a representative on-demand list price in USD per GPU-hour
//    (instance price / GPUs per instance), AWS us-east-1 where AWS offers the
//    card, else a GPU cloud or marketplace; 0 where no common offer exists.
//    Prices move: these are suggestions, never filled into a problem.
#include "model/gpu_catalogue.hpp"

#include <string>

namespace geotrain {

double CatalogueEntry::peak_tflops(Precision precision) const {
  switch (precision) {
    case Precision::fp16:
      return fp16_tflops;
    case Precision::bf16:
      return bf16_tflops;
    case Precision::fp32:
      return fp32_tflops;
  }
  return 0.0;
}

namespace {

std::vector<CatalogueEntry> build_catalogue() {
  // name, fp16, bf16, fp32, memory GiB, idle W, active W, source, USD per GPU-hour, price source
  return {
      // ---- Hopper -----------------------------------------------------------
      {"H100-SXM", 989.4, 989.4, 67.0, 80, 105, 700,
       "NVIDIA H100 Tensor Core GPU datasheet / H100 whitepaper (SXM5): dense FP16 and BF16 tensor 989.4 "
       "(1979 with sparsity), FP32 67, 80 GB HBM3, max TDP 700 W; idle 15% of TDP per paper Sect. 6.7",
       12.29, "AWS EC2 on-demand list price, us-east-1, 2024: p5.48xlarge $98.32/h for 8 H100 SXM"},
      {"H100-PCIe", 756.0, 756.0, 51.0, 80, 52.5, 350,
       "NVIDIA H100 Tensor Core GPU datasheet (PCIe): dense FP16 and BF16 tensor 756 (1513 with sparsity), "
       "FP32 51, 80 GB HBM2e, max TDP 350 W; idle 15% of TDP per paper Sect. 6.7",
       2.49, "Lambda on-demand list price, 2024: 1x H100 PCIe $2.49/h"},
      // ---- Ampere data centre --------------------------------------------------
      {"A100-SXM-80GB", 312.0, 312.0, 19.5, 80, 60, 400,
       "NVIDIA A100 datasheet (2021): dense FP16 and BF16 tensor 312 (624 with sparsity), FP32 19.5, "
       "80 GB HBM2e, max TDP 400 W; idle 60 W as measured and used in paper Sect. 6.7",
       5.12, "AWS EC2 on-demand list price, us-east-1, 2024: p4de.24xlarge $40.97/h for 8 A100 SXM 80GB"},
      {"A100-SXM-40GB", 312.0, 312.0, 19.5, 40, 60, 400,
       "NVIDIA A100 datasheet (2021): dense FP16 and BF16 tensor 312 (624 with sparsity), FP32 19.5, "
       "40 GB HBM2, max TDP 400 W; idle 15% of TDP per paper Sect. 6.7",
       4.1, "AWS EC2 on-demand list price, us-east-1, 2024: p4d.24xlarge $32.77/h for 8 A100 SXM 40GB"},
      {"A100-PCIe-40GB", 312.0, 312.0, 19.5, 40, 40, 250,
       "NVIDIA A100 40GB PCIe product brief / A100 datasheet (2021): dense FP16 and BF16 tensor 312 "
       "(624 with sparsity), FP32 19.5, 40 GB HBM2, TDP 250 W; idle 40 W as used in paper Sect. 6.7 "
       "(~15% of TDP)",
       1.29, "Lambda on-demand list price, 2024: 1x A100 PCIe 40GB $1.29/h"},
      {"A100-PCIe-80GB", 312.0, 312.0, 19.5, 80, 45, 300,
       "NVIDIA A100 datasheet (2021): dense FP16 and BF16 tensor 312 (624 with sparsity), FP32 19.5, "
       "80 GB HBM2e, max TDP 300 W; idle 15% of TDP per paper Sect. 6.7",
       1.64, "RunPod secure cloud list price, 2024: A100 PCIe 80GB about $1.64/h (approximate)"},
      {"A30", 165.0, 165.0, 10.3, 24, 25, 165,
       "NVIDIA A30 Tensor Core GPU datasheet (2021): dense FP16 and BF16 tensor 165 (330 with sparsity), "
       "FP32 10.3, 24 GB HBM2, max TDP 165 W; idle 25 W as used in paper Sect. 6.7 (~15% of TDP)",
       0.0, "no common public on-demand offer found (2024): give your own price"},
      {"A40", 149.7, 149.7, 37.4, 48, 45, 300,
       "NVIDIA A40 datasheet: dense FP16 and BF16 tensor 149.7 (299.4 with sparsity), FP32 37.4, "
       "48 GB GDDR6, max power 300 W; idle 15% of TDP per paper Sect. 6.7",
       0.4, "RunPod list price, 2024: A40 about $0.40/h (approximate)"},
      {"A10", 125.0, 125.0, 31.2, 24, 22.5, 150,
       "NVIDIA A10 Tensor Core GPU datasheet: dense FP16 and BF16 tensor 125 (250 with sparsity), "
       "FP32 31.2, 24 GB GDDR6, max TDP 150 W; idle 15% of TDP per paper Sect. 6.7",
       0.75, "Lambda on-demand list price, 2024: 1x A10 $0.75/h"},
      // ---- Ada Lovelace data centre ------------------------------------------
      {"L4", 121.0, 121.0, 30.3, 24, 10.8, 72,
       "NVIDIA L4 Tensor Core GPU datasheet: dense FP16 and BF16 tensor 121 (242 with sparsity), "
       "FP32 30.3, 24 GB GDDR6, max TDP 72 W; idle 15% of TDP per paper Sect. 6.7",
       0.8, "AWS EC2 on-demand list price, us-east-1, 2024: g6.xlarge $0.805/h for 1 L4"},
      {"L40S", 362.05, 362.05, 91.6, 48, 52.5, 350,
       "NVIDIA L40S datasheet: dense FP16 and BF16 tensor 362.05 (733 with sparsity), FP32 91.6, "
       "48 GB GDDR6, max power 350 W; idle 15% of TDP per paper Sect. 6.7",
       1.86, "AWS EC2 on-demand list price, us-east-1, 2024: g6e.xlarge $1.861/h for 1 L40S"},
      // ---- Turing ---------------------------------------------------------------
      {"T4", 65.0, 0.0, 8.1, 16, 10.5, 70,
       "NVIDIA T4 Tensor Core GPU datasheet: mixed-precision (FP16 multiply, FP32 accumulate) tensor 65, "
       "no BF16, FP32 8.1, 16 GB GDDR6, 70 W; idle 15% of TDP per paper Sect. 6.7",
       0.53, "AWS EC2 on-demand list price, us-east-1, 2024: g4dn.xlarge $0.526/h for 1 T4"},
      {"RTX-2080-Ti", 53.8, 0.0, 13.4, 11, 37.5, 250,
       "NVIDIA Turing architecture whitepaper (RTX 2080 Ti reference clocks): FP16 tensor with FP32 "
       "accumulate 53.8 (107.6 with FP16 accumulate), no BF16, FP32 13.4, 11 GB GDDR6, 250 W; "
       "idle 15% of TDP per paper Sect. 6.7",
       0.15, "vast.ai marketplace listings, 2024: RTX 2080 Ti about $0.15/h (approximate)"},
      // ---- Volta ----------------------------------------------------------------
      {"V100-16GB", 125.0, 0.0, 15.7, 16, 45, 300,
       "NVIDIA Tesla V100 datasheet (SXM2): mixed-precision tensor 125, no BF16, FP32 15.7, "
       "16 GB HBM2, 300 W; idle 15% of TDP per paper Sect. 6.7",
       3.06, "AWS EC2 on-demand list price, us-east-1, 2024: p3.2xlarge $3.06/h for 1 V100 SXM2 16GB"},
      {"V100-32GB", 125.0, 0.0, 15.7, 32, 45, 300,
       "NVIDIA Tesla V100 datasheet (SXM2): mixed-precision tensor 125, no BF16, FP32 15.7, "
       "32 GB HBM2, 300 W; idle 15% of TDP per paper Sect. 6.7",
       3.9, "AWS EC2 on-demand list price, us-east-1, 2024: p3dn.24xlarge $31.21/h for 8 V100 SXM2 32GB"},
      {"V100-PCIe-16GB", 112.0, 0.0, 14.0, 16, 37.5, 250,
       "NVIDIA Tesla V100 datasheet (PCIe): mixed-precision tensor 112, no BF16, FP32 14, "
       "16 GB HBM2, 250 W; idle 15% of TDP per paper Sect. 6.7",
       0.0, "no common public on-demand offer of the PCIe card found (2024): give your own price"},
      {"V100-PCIe-32GB", 112.0, 0.0, 14.0, 32, 37.5, 250,
       "NVIDIA Tesla V100 datasheet (PCIe): mixed-precision tensor 112, no BF16, FP32 14, "
       "32 GB HBM2, 250 W; idle 15% of TDP per paper Sect. 6.7",
       0.0, "no common public on-demand offer of the PCIe card found (2024): give your own price"},
      // ---- GeForce Ampere / Ada --------------------------------------------------
      {"RTX-3090", 71.0, 71.0, 35.6, 24, 52.5, 350,
       "NVIDIA Ampere GA102 whitepaper (RTX 3090): FP16 tensor with FP32 accumulate 71 (142 with FP16 "
       "accumulate; dense), BF16 tensor 71, FP32 35.6, 24 GB GDDR6X, 350 W; idle 15% of TDP per paper "
       "Sect. 6.7",
       0.22, "RunPod community cloud list price, 2024: RTX 3090 about $0.22/h (approximate)"},
      {"RTX-4090", 165.2, 165.2, 82.6, 24, 67.5, 450,
       "NVIDIA Ada Lovelace AD102 whitepaper (RTX 4090): FP16 tensor with FP32 accumulate 165.2 (330.3 "
       "with FP16 accumulate; dense), BF16 tensor 165.2, FP32 82.6, 24 GB GDDR6X, 450 W; idle 15% of TDP "
       "per paper Sect. 6.7",
       0.4, "RunPod community cloud / vast.ai listings, 2024: RTX 4090 about $0.40/h (approximate)"},
  };
}

// Lower-case, with ' ', '_' and '-' dropped: "A100_SXM 80GB" -> "a100sxm80gb".
std::string normalise(std::string_view name) {
  std::string key;
  key.reserve(name.size());
  for (char c : name) {
    if (c == ' ' || c == '_' || c == '-') continue;
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    key.push_back(c);
  }
  return key;
}

}  // namespace

const std::vector<CatalogueEntry>& gpu_catalogue() {
  static const std::vector<CatalogueEntry> catalogue = build_catalogue();
  return catalogue;
}

const CatalogueEntry* find_catalogue_entry(std::string_view type) {
  const std::string key = normalise(type);
  if (key.empty()) return nullptr;
  for (const CatalogueEntry& entry : gpu_catalogue()) {
    if (normalise(entry.name) == key) return &entry;
  }
  return nullptr;
}

}  // namespace geotrain
