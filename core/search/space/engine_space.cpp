#include "search/space/engine_space.hpp"

#include <algorithm>
#include <set>

#include "launch/flashflex_models.hpp"
#include "launch/plan_shape.hpp"
#include "model/input_error.hpp"

namespace geotrain {

namespace {

bool shared_tensor(Engine e) { return e == Engine::megatron_core; }

std::string degree_name(bool tensor) { return tensor ? "tensor_parallel" : "data_parallel"; }

std::string no_flashflex_config(std::int64_t hidden_size) {
  std::string configs;
  for (const FlashFlexModel& m : kFlashFlexModels)
    configs += (configs.empty() ? "" : ", ") + std::string(m.size) + " " + std::to_string(m.attention_heads);
  return "FlashFlex takes the attention head count from its llama configs (" + configs +
         " heads) and none divides model.hidden_size " + std::to_string(hidden_size);
}

}  // namespace

EngineSpace::EngineSpace(const Problem& problem) : engine_(problem.search.engine) {
  if (engine_ == Engine::flashflex)
    if (const FlashFlexModel* m = flashflex_model_for(problem.model.hidden_size)) heads_ = m->attention_heads;
}

bool EngineSpace::allows_shape(const GroupShape& shape) const {
  switch (engine_) {
    case Engine::any:
    case Engine::megatron_core: return true;
    case Engine::deepspeed:
    case Engine::torch: return shape.tensor_parallel == 1;
    case Engine::flashflex: return heads_ > 0 && heads_ % shape.tensor_parallel == 0;
  }
  return true;
}

std::pair<int, int> EngineSpace::shared_degrees(const GroupShape& shape) const {
  if (engine_ == Engine::any) return {0, 0};
  return {shared_tensor(engine_) ? shape.tensor_parallel : 0, shape.data_parallel()};
}

std::pair<int, int> EngineSpace::choice_degrees(const std::vector<PoolNode>& nodes, const ShapeChoice& choice) const {
  for (std::size_t n = 0; n < nodes.size(); ++n)
    if (choice[n] != 0) return shared_degrees(nodes[n].shapes[static_cast<std::size_t>(choice[n])]);
  return shared_degrees(GroupShape{});
}

bool EngineSpace::allows_choice(const std::vector<PoolNode>& nodes, const ShapeChoice& choice) const {
  if (any()) return true;
  const auto degrees = choice_degrees(nodes, choice);
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const GroupShape& shape = nodes[n].shapes[static_cast<std::size_t>(choice[n])];
    if (!allows_shape(shape)) return false;
    if (choice[n] != 0 && shared_degrees(shape) != degrees) return false;
  }
  return true;
}

GroupLayout EngineSpace::devices(const std::vector<PoolNode>& nodes, const ShapeChoice& choice) const {
  GroupLayout all = layout_of_choice(nodes, choice);
  if (any()) return all;
  const auto degrees = choice_degrees(nodes, choice);
  GroupLayout kept;
  for (DeviceGroup& g : all)
    if (shared_degrees(GroupShape{g.size(), g.tensor_parallel}) == degrees) kept.push_back(std::move(g));
  return kept;
}

bool EngineSpace::restricts(const std::vector<PoolNode>& nodes, const Problem& problem) const {
  if (any()) return false;
  const int most = most_stages(problem.model);
  if (most >= 0 && most < std::min<std::int64_t>(static_cast<std::int64_t>(problem.gpus.size()), problem.model.num_layers))
    return true;
  if (heads_ == 0 && engine_ == Engine::flashflex) return true;
  if (problem.search.parallelism != Parallelism::hybrid) return false;
  std::set<std::pair<int, int>> degrees;
  for (const PoolNode& node : nodes)
    for (const GroupShape& shape : node.shapes) {
      if (!allows_shape(shape)) return true;
      degrees.insert(shared_degrees(shape));
    }
  return degrees.size() > 1;
}

int EngineSpace::most_stages(const ModelConfig& model) const {
  if (engine_ != Engine::torch) return -1;
  return static_cast<int>(std::min<std::int64_t>(model.micro_batches(), kMaxGpus));
}

std::string engine_refusal(const Problem& problem) {
  if (problem.search.engine != Engine::flashflex || flashflex_model_for(problem.model.hidden_size)) return "";
  return "search.engine \"flashflex\": " + no_flashflex_config(problem.model.hidden_size) +
         ", so no plan of this model runs on it";
}

void limit_stage_counts(CostModel& model, const Problem& problem) {
  const int most = EngineSpace(problem).most_stages(problem.model);
  if (most < 0 || most >= model.most_stages()) return;
  if (model.fewest_stages() > most)
    throw PlanningError("search.engine \"torch\": Schedule1F1B needs at least as many micro-batches as stages, and " +
                        std::to_string(problem.model.micro_batches()) + " micro-batches allow at most " +
                        std::to_string(most) + " stages, fewer than the " + std::to_string(model.fewest_stages()) +
                        " asked for");
  model.set_stage_count_range(model.fewest_stages(), most);
}

std::vector<std::string> engine_plan_faults(Engine engine, const ModelConfig& model, const GroupPlan& plan) {
  std::vector<std::string> faults;
  if (engine == Engine::any || plan.empty()) return faults;
  const PlanShape shape = plan_shape(plan);
  auto stage_with_tensor = [&](auto allowed) -> int {
    for (std::size_t q = 0; q < plan.size(); ++q)
      if (!allowed(plan[q].tensor_parallel)) return static_cast<int>(q);
    return -1;
  };
  const std::string q_text = std::to_string(plan.size());
  switch (engine) {
    case Engine::any: break;
    case Engine::megatron_core:
      for (const std::string& difference : shape.mixed)
        faults.push_back("cannot express because " + difference +
                         ": Megatron-Core uses one --tensor-model-parallel-size and one data-parallel size "
                         "(WORLD_SIZE / (tensor * pipeline)) for every stage");
      break;
    case Engine::deepspeed:
    case Engine::torch: {
      for (const std::string& difference : shape.mixed) {
        if (difference.find(degree_name(true)) != std::string::npos) continue;  // said below, once per plan
        faults.push_back("cannot express because " + difference +
                         (engine == Engine::deepspeed
                              ? ": DeepSpeed's PipeDataParallelTopology has one data-parallel size for every stage"
                              : ": torch.distributed.pipelining sends each micro-batch from one rank to one rank, so "
                                "every stage needs the same number of GPUs for the template's parallel pipelines"));
      }
      const int q = stage_with_tensor([](int t) { return t == 1; });
      if (q >= 0)
        faults.push_back("cannot express because stage " + std::to_string(q + 1) + " has tensor_parallel " +
                         std::to_string(plan[q].tensor_parallel) +
                         (engine == Engine::deepspeed
                              ? ": DeepSpeed's PipelineModule has no tensor parallelism of its own (Megatron-DeepSpeed "
                                "adds it); use the Megatron-Core target"
                              : ": the template splits layers between stages only; tensor parallelism inside a stage "
                                "needs Megatron-Core (or torch.distributed.tensor.parallel, not generated here)"));
      if (engine == Engine::torch && static_cast<std::int64_t>(plan.size()) > model.micro_batches())
        faults.push_back("cannot express because the plan has " + q_text + " stages and only " +
                         std::to_string(model.micro_batches()) +
                         " micro-batches: newer Schedule1F1B (checked in torch main) refuses fewer micro-batches than stages");
      break;
    }
    case Engine::flashflex: {
      for (const std::string& difference : shape.mixed)
        if (difference.find(degree_name(false)) != std::string::npos)
          faults.push_back("cannot express because " + difference +
                           ": FlashFlex runs one pipeline per data shard, every pipeline with a single tensor group "
                           "per stage, so every stage needs the same number of data shards");
      const FlashFlexModel* m = flashflex_model_for(model.hidden_size);
      if (!m) {
        faults.push_back("cannot express because " + no_flashflex_config(model.hidden_size));
        break;
      }
      const int q = stage_with_tensor([&](int t) { return m->attention_heads % t == 0; });
      if (q >= 0)
        faults.push_back("cannot express because stage " + std::to_string(q + 1) + " has tensor_parallel " +
                         std::to_string(plan[q].tensor_parallel) + ", which does not divide the " +
                         std::to_string(m->attention_heads) + " attention heads of FlashFlex's " + m->size +
                         " config (its validate_args asserts num_heads % tp_size == 0)");
      break;
    }
  }
  return faults;
}

}  // namespace geotrain
