#pragma once
// FlashFlex (Relaxed-System-Lab/FlashFlex, also published as HexiScale) builds
// its model from one of four llama configs (--model_size, llama/llama-config/
// */params.json): the attention head count always comes from the config, even
// with --overwrite_config 1, which replaces only the hidden size, layer count,
// vocabulary and positions (llama/llama_config_utils.py). Its validate_args
// asserts num_heads % tp_size == 0 for every stage (hexiscale/process_args.py).
#include <cstdint>

namespace geotrain {

struct FlashFlexModel {
  const char* size;  // --model_size
  std::int64_t hidden_size;
  int attention_heads;
  int layers;
};

constexpr FlashFlexModel kFlashFlexModels[] = {
    {"llama-7b", 4096, 32, 32}, {"llama-13b", 5120, 40, 40}, {"llama-30b", 6656, 52, 60}, {"llama-70b", 8192, 64, 80}};

// The config a plan of hidden size H runs on: the one of that hidden size,
// else (with --overwrite_config 1) the one with the most heads that divide H,
// so that every head has H / heads dimensions. Null when no head count divides H.
inline const FlashFlexModel* flashflex_model_for(std::int64_t hidden_size) {
  const FlashFlexModel* best = nullptr;
  for (const FlashFlexModel& m : kFlashFlexModels) {
    if (m.hidden_size == hidden_size) return &m;
    if (hidden_size % m.attention_heads == 0 && (!best || m.attention_heads > best->attention_heads)) best = &m;
  }
  return best;
}

}  // namespace geotrain
