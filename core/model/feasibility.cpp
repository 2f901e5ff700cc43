#include "model/feasibility.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "model/message_list.hpp"

namespace geotrain {

int max_layers_with_stages(const CostModel& model, int stage_count) {
  const int n = model.num_gpus();
  if (stage_count < 1 || stage_count > n || !model.allows_stage_count(stage_count)) return 0;
  // Best plan with Q stages: some GPU j is last; the other Q-1 are the largest
  // non-last capacities among the rest (each must hold >= 1 layer).
  std::vector<long long> caps(n);
  for (int g = 0; g < n; ++g) caps[g] = model.max_layers(g, stage_count, false);
  std::vector<long long> sorted = caps;
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  const int others = stage_count - 1;
  long long best = 0;
  for (int j = 0; j < n; ++j) {
    const long long last_cap = model.max_layers(j, stage_count, true);
    if (last_cap < 1) continue;
    // Top `others` capacities excluding j: take the top others+1 and drop j's
    // value once if it is among them.
    long long sum = 0;
    int taken = 0;
    bool skipped = false;
    for (int k = 0; k < n && taken < others; ++k) {
      if (!skipped && sorted[k] == caps[j]) {
        skipped = true;
        continue;
      }
      if (sorted[k] < 1) break;
      sum += sorted[k], ++taken;
    }
    if (taken == others) best = std::max(best, last_cap + sum);
  }
  return static_cast<int>(std::min<long long>(best, model.num_layers()));
}

bool any_feasible_plan(const CostModel& model) {
  const int max_stages = std::min(model.num_gpus(), model.num_layers());
  for (int q = 1; q <= max_stages; ++q)
    if (max_layers_with_stages(model, q) >= model.num_layers()) return true;
  return false;
}

namespace {

// "all 12 layers", "the 1 layer"
std::string all_layers(std::int64_t count) {
  return count == 1 ? std::string("the 1 layer") : "all " + std::to_string(count) + " layers";
}

// When the caller fixed the stage count, the reason is about that count.
std::string stage_count_reason(const CostModel& model) {
  const int fewest = model.fewest_stages(), most = std::min(model.most_stages(), kMaxGpus);
  char counts[64];
  if (fewest == most) std::snprintf(counts, sizeof counts, "%d stage%s", fewest, fewest == 1 ? "" : "s");
  else std::snprintf(counts, sizeof counts, "%d to %d stages", fewest, most);
  char text[400];
  if (fewest > std::min(model.num_gpus(), model.num_layers())) {
    std::snprintf(text, sizeof text,
                  "no plan has %s: each stage needs its own GPU and at least one layer, and the problem has %s "
                  "and %s",
                  counts, count_of(model.num_gpus(), "GPU").c_str(), count_of(model.num_layers(), "layer").c_str());
    return text;
  }
  int best_q = fewest, best_layers = 0;
  for (int q = fewest; q <= std::min({most, model.num_gpus(), model.num_layers()}); ++q) {
    const int held = max_layers_with_stages(model, q);
    if (held > best_layers) best_layers = held, best_q = q;
  }
  std::snprintf(text, sizeof text,
                "no feasible plan with %s: no such choice of GPUs holds %s in memory (Eq. 19); the most "
                "it can hold is %s (with %s)",
                counts, all_layers(model.num_layers()).c_str(), count_of(best_layers, "layer").c_str(),
                count_of(best_q, "stage").c_str());
  return text;
}

}  // namespace

std::string infeasibility_reason(const CostModel& model, const Problem& problem) {
  if (model.restricts_stage_count()) return stage_count_reason(model);
  const double gib = 1073741824.0;
  int best_q = 1, best_layers = 0;
  const int max_stages = std::min(model.num_gpus(), model.num_layers());
  for (int q = 1; q <= max_stages; ++q) {
    const int held = max_layers_with_stages(model, q);
    if (held > best_layers) best_layers = held, best_q = q;
  }
  double largest = 0;
  for (int g = 0; g < model.num_gpus(); ++g) largest = std::max(largest, model.memory_limit_bytes(g));
  char text[640];
  std::snprintf(text, sizeof text,
                "no feasible plan: no choice of GPUs holds %s in memory (Eq. 19). The most any plan "
                "can hold is %s (with %s). Each layer needs %.2f GiB of weights and optimizer state "
                "plus (Q + 1) x %.2f GiB of activations; the last stage also needs %.2f GiB for the LM head and "
                "logits. The largest usable GPU memory is %.2f GiB. Add GPUs or memory, or shrink the model, the "
                "micro-batch or the sequence.",
                all_layers(problem.model.num_layers).c_str(), count_of(best_layers, "layer").c_str(),
                count_of(best_q, "stage").c_str(),
                model.layer_param_bytes() / gib, model.layer_activation_bytes() / gib, model.head_memory_bytes() / gib,
                largest / gib);
  return text;
}

}  // namespace geotrain
