#pragma once
// The Transformer being trained: the contract's model block.
#include <cstdint>
#include <string>

namespace geotrain {

enum class Precision { fp16, bf16, fp32 };

const char* precision_name(Precision precision);
// Bytes per element, the contract's kappa.
inline int bytes_per_element(Precision precision) { return precision == Precision::fp32 ? 4 : 2; }

struct ModelConfig {
  std::int64_t hidden_size = 0;        // H
  std::int64_t num_layers = 0;         // L
  std::int64_t seq_length = 0;         // T
  std::int64_t vocab_size = 0;         // V
  std::int64_t micro_batch_size = 0;   // u
  std::int64_t global_batch_size = 0;  // B, a multiple of u
  Precision precision = Precision::fp16;
  // model.num_attention_heads: 0 when the file leaves it out. Only tensor
  // degrees that divide it (and H) then split the attention heads evenly; a
  // file without it allows every degree, as before the field existed.
  std::int64_t num_attention_heads = 0;

  std::int64_t micro_batches() const { return global_batch_size / micro_batch_size; }  // M

  // Can t ranks share the model's layers? Megatron-style tensor parallelism
  // splits the heads (and H) evenly across the ranks.
  bool allows_tensor_parallel(std::int64_t t) const {
    return num_attention_heads <= 0 || (t >= 1 && num_attention_heads % t == 0 && hidden_size % t == 0);
  }
};

// Model constants the contract fixes rather than the file.
constexpr double kRetainedActivations = 10.0;  // alpha
constexpr double kBackwardFactor = 2.0;        // gamma

}  // namespace geotrain
