#pragma once
// The training engine a plan is made for (search.engine): "any" plans in the
// whole space, as always; a named engine plans only what that engine can
// launch (core/search/space/engine_space.hpp says what each can express).
#include <optional>
#include <string>

namespace geotrain {

enum class Engine { any, megatron_core, deepspeed, torch, flashflex };

constexpr Engine kEngines[] = {Engine::any, Engine::megatron_core, Engine::deepspeed, Engine::torch, Engine::flashflex};

inline const char* engine_name(Engine engine) {
  switch (engine) {
    case Engine::any: return "any";
    case Engine::megatron_core: return "megatron-core";
    case Engine::deepspeed: return "deepspeed";
    case Engine::torch: return "torch";
    case Engine::flashflex: return "flashflex";
  }
  return "any";
}

inline std::optional<Engine> engine_from_name(const std::string& name) {
  for (Engine e : kEngines)
    if (name == engine_name(e)) return e;
  return std::nullopt;
}

// "\"any\", \"megatron-core\", ..." for messages.
inline std::string engine_names() {
  std::string text;
  for (Engine e : kEngines) text += (text.empty() ? "\"" : ", \"") + std::string(engine_name(e)) + "\"";
  return text;
}

}  // namespace geotrain
