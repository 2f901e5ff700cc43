#pragma once
// Bad input: every problem found, each naming its field, e.g.
// "gpus[3].compute_util: must be in (0, 1], got 1.5".
#include <stdexcept>
#include <string>
#include <vector>

namespace geotrain {

class InputError : public std::runtime_error {
 public:
  explicit InputError(std::vector<std::string> messages)
      : std::runtime_error(join(messages)), messages_(std::move(messages)) {}
  explicit InputError(const std::string& message) : InputError(std::vector<std::string>{message}) {}
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  static std::string join(const std::vector<std::string>& messages) {
    std::string text;
    for (const auto& m : messages) text += (text.empty() ? "" : "\n") + m;
    return text;
  }
  std::vector<std::string> messages_;
};

// A request that is well formed but cannot be met (no feasible plan, a search
// space beyond a method's limit, an exhausted budget).
class PlanningError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace geotrain
