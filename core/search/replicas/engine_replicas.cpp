#include "search/replicas/engine_replicas.hpp"

#include "search/space/engine_space.hpp"

namespace geotrain {

namespace {

std::string replica_text(std::size_t r) { return "replicas[" + std::to_string(r) + "]"; }

// Identical replicas: the same share and, stage by stage, the same group shape as replicas[0].
std::vector<std::string> differences_from_first(const ReplicaPlan& plan) {
  std::vector<std::string> out;
  const Replica& first = plan.front();
  for (std::size_t r = 1; r < plan.size(); ++r) {
    if (plan[r].micro_batches != first.micro_batches)
      out.push_back("cannot express because " + replica_text(r) + " takes " + std::to_string(plan[r].micro_batches) +
                    " micro-batches and replicas[0] " + std::to_string(first.micro_batches) +
                    ": data parallelism gives every replica the same share");
    for (std::size_t q = 0; q < first.stages.size() && q < plan[r].stages.size(); ++q) {
      const GroupStage &a = first.stages[q], &b = plan[r].stages[q];
      if (a.size() != b.size() || a.tensor_parallel != b.tensor_parallel)
        out.push_back("cannot express because " + replica_text(r) + ".stages[" + std::to_string(q) + "] is " +
                      std::to_string(b.size()) + " GPUs at tensor_parallel " + std::to_string(b.tensor_parallel) +
                      ", replicas[0]'s " + std::to_string(a.size()) + " at " + std::to_string(a.tensor_parallel) +
                      ": data parallelism runs the same groups everywhere");
    }
  }
  return out;
}

}  // namespace

bool engine_joins_replicas(Engine engine) {
  return engine == Engine::megatron_core || engine == Engine::deepspeed || engine == Engine::torch;
}

std::vector<std::string> engine_replica_setting_faults(Engine engine, const Problem& problem) {
  std::vector<std::string> out;
  if (engine == Engine::any) return out;
  if (problem.training.sync_every != 1)
    out.push_back("cannot express because training.sync_every is " + std::to_string(problem.training.sync_every) +
                  ": the engines average gradients every step; local SGD (an outer step every H) needs an outer "
                  "loop such as DiLoCo's, which no bundle generates");
  if (problem.training.sync_compression != 1)
    out.push_back("cannot express because of training.sync_compression: the engines send gradients whole; "
                  "compression is not generated");
  return out;
}

GroupPlan join_replicas(const ReplicaPlan& plan) {
  GroupPlan out;
  if (plan.empty()) return out;
  for (std::size_t q = 0; q < plan.front().stages.size(); ++q) {
    GroupStage joined{{}, plan.front().stages[q].tensor_parallel, plan.front().stages[q].layers};
    for (const Replica& r : plan) joined.gpus.insert(joined.gpus.end(), r.stages[q].gpus.begin(), r.stages[q].gpus.end());
    out.push_back(std::move(joined));
  }
  return out;
}

std::vector<std::string> engine_replica_faults(Engine engine, const Problem& problem, const ReplicaPlan& plan) {
  if (engine == Engine::any || plan.empty()) return {};
  if (plan.size() == 1) return engine_plan_faults(engine, problem, plan.front().stages);
  std::vector<std::string> out = engine_replica_setting_faults(engine, problem);
  if (!engine_joins_replicas(engine)) {
    for (std::size_t r = 0; r < plan.size(); ++r) {
      ModelConfig own = problem.model;  // the replica's pipelines take its share of the micro-batches
      own.global_batch_size = plan[r].micro_batches * problem.model.micro_batch_size;
      for (const std::string& fault : engine_plan_faults(engine, own, plan[r].stages))
        out.push_back(replica_text(r) + ": " + fault);
    }
    return out;
  }
  const std::vector<std::string> differences = differences_from_first(plan);
  out.insert(out.end(), differences.begin(), differences.end());
  if (!differences.empty()) return out;
  ModelConfig joined = problem.model;  // one micro-batch of every replica at once: u' = R u, M' = m
  joined.micro_batch_size = problem.model.micro_batch_size * static_cast<std::int64_t>(plan.size());
  const std::vector<std::string> faults = engine_plan_faults(engine, joined, join_replicas(plan));
  out.insert(out.end(), faults.begin(), faults.end());
  return out;
}

}  // namespace geotrain
