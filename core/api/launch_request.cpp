#include "api/launch_request.hpp"

#include "api/api.hpp"
#include "api/replica_launch.hpp"
#include "launch/deepspeed_config.hpp"
#include "launch/megatron_args.hpp"
#include "launch/plan_shape.hpp"
#include "launch/rank_map.hpp"
#include "launch/torch_pipeline_script.hpp"
#include "launch/torchrun_lines.hpp"
#include "model/input_error.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"
#include "model/replica_plan_json.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

struct LaunchInputs {
  std::string problem_text;
  Problem problem;
  GroupPlan plan;
  RankMap map;
  bool merged_replicas = false;  // plan joins identical replicas (replica_launch.hpp)
};

json rank_map_to_json(const LaunchInputs& in) {
  json ranks = json::array();
  for (const RankEntry& e : in.map.ranks)
    ranks.push_back({{"rank", e.rank},
                     {"gpu", in.problem.gpus[e.gpu].id},
                     {"pipeline_rank", e.stage},
                     {"tensor_rank", e.tensor_rank},
                     {"data_rank", e.data_rank},
                     {"node", e.node},
                     {"site", e.site},
                     {"host", e.host},
                     {"device", e.device},
                     {"node_rank", e.launch_group},
                     {"local_rank", e.local_rank}});
  return ranks;
}

json torchrun_to_json(const std::vector<TorchrunLine>& lines) {
  json out = json::array();
  for (const TorchrunLine& l : lines)
    out.push_back({{"node_rank", l.node_rank},
                   {"node", l.node},
                   {"host", l.host},
                   {"ranks", l.first_rank == l.last_rank ? std::to_string(l.first_rank)
                                                          : std::to_string(l.first_rank) + "-" + std::to_string(l.last_rank)},
                   {"command", l.command}});
  return out;
}

// Text for a shell comment: names come from the problem file, so no line breaks.
std::string comment_text(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return text;
}

// A shell script: one torchrun line per machine, each to run on the machine its comment names.
std::string launch_script(const std::string& preamble, const std::vector<TorchrunLine>& lines) {
  std::string text = "#!/bin/sh\n# GeoTrain launch lines: run each line on the machine its comment names.\n" + preamble;
  for (const TorchrunLine& l : lines)
    text += "\n# node " + comment_text(l.node) + " (host " + comment_text(l.host) + "), " +
            (l.first_rank == l.last_rank ? "rank " + std::to_string(l.first_rank)
                                         : "ranks " + std::to_string(l.first_rank) + "-" + std::to_string(l.last_rank)) +
            "\n" + l.command + "\n";
  return text;
}

// The nearest plan an engine can run, with its figures, so the user sees the price.
json nearest_plan(const LaunchInputs& in, int tensor_parallel) {
  // Replicas joined into data parallelism are priced by the replica model, not as one pipeline.
  if (in.merged_replicas)
    return {{"why", "the replicas run as one pipeline with data parallelism across them; a nearest plan is not "
                    "offered for them: plan again for this engine, or with search.replicas 1"}};
  const PlanShape shape = plan_shape(in.plan);
  const GroupPlan nearest = uniform_subplan(in.plan, std::min(tensor_parallel, shape.tensor_parallel), shape.data_parallel);
  const json plan = plan_to_json(nearest, in.problem);
  const json figures = evaluate_request(in.problem_text, plan.dump());
  const int t = nearest.front().tensor_parallel, d = shape.data_parallel;
  const std::string why = t == 1 && d == 1
                              ? "every stage keeps its layers on the first GPU of its group"
                              : "every stage keeps its layers on its first " + std::to_string(d) + " data shard(s) of " +
                                    std::to_string(t) + " tensor-parallel GPU(s)";
  json out = {{"why", why},
          {"stages", plan["stages"]},
          {"iteration_ms", figures["iteration_ms"]},
          {"energy_j", figures["energy_j"]},
          {"feasible", figures["feasible"]}};
  if (!figures.value("feasible", false))
    out["hint"] = "it does not fit in memory: plan again in the shape this engine runs (for one GPU per stage, "
                  "search.parallelism \"pipeline\")";
  return out;
}

json strings(const std::vector<std::string>& list) { return json(list); }

json megatron_part(const LaunchInputs& in) {
  const MegatronArguments m = megatron_arguments(in.problem, in.plan);
  json out = {{"expressible", m.expressible}};
  if (!m.expressible) {
    out["cannot"] = strings(m.cannot);
    out["nearest_plan"] = nearest_plan(in, 1 << 30);
    return out;
  }
  json args = json::array();
  for (const auto& [flag, value] : m.arguments) args.push_back(value.empty() ? flag : flag + " " + value);
  // Arguments inline in every line: each machine's command stands alone when copied.
  const auto lines = torchrun_lines(in.map, "pretrain_gpt.py \\\n  " + render_arguments(m));
  out["arguments"] = args;
  if (in.plan.size() > 1) out["pipeline_layout"] = pipeline_layout(in.plan);
  out["notes"] = strings(m.notes);
  out["torchrun"] = torchrun_to_json(lines);
  out["file_name"] = "megatron_launch.sh";
  out["text"] = launch_script("", lines);
  return out;
}

json torch_part(const LaunchInputs& in) {
  const TorchPipelineScript t = torch_pipeline_script(in.problem, in.plan, in.map);
  json out = {{"expressible", t.expressible}, {"pytorch_version", std::string(kTorchPipeliningVersion) + "+"}};
  if (!t.expressible) {
    out["cannot"] = strings(t.cannot);
    out["nearest_plan"] = nearest_plan(in, 1);
    return out;
  }
  const auto lines = torchrun_lines(in.map, "geotrain_pipeline.py");
  out["torchrun"] = torchrun_to_json(lines);
  out["file_name"] = "geotrain_pipeline.py";
  out["text"] = t.script;
  out["launch_text"] = launch_script("", lines);
  return out;
}

json deepspeed_part(const LaunchInputs& in) {
  const DeepSpeedPipeline ds = deepspeed_pipeline(in.problem, in.plan);
  json out = {{"expressible", ds.expressible}};
  if (!ds.expressible) {
    out["cannot"] = strings(ds.cannot);
    out["nearest_plan"] = nearest_plan(in, 1);
    return out;
  }
  const auto lines = torchrun_lines(in.map, "train.py --deepspeed --deepspeed_config ds_config.json");
  out["parts"] = ds.parts;
  out["config"] = ds.config;
  out["torchrun"] = torchrun_to_json(lines);
  out["file_name"] = "deepspeed_pipeline.py";
  out["text"] = ds.module;
  out["launch_text"] = launch_script("", lines);
  return out;
}

// A replica plan no target runs: every target says why, with the plan itself.
json replicas_beyond_engines(const Problem& problem, const ReplicaPlan& plan, const std::vector<std::string>& cannot,
                             const std::string& target) {
  json out = {{"problem", problem.name}, {"target", target}};
  out["replicas"] = replica_plan_to_json(plan, problem)["replicas"];
  out["world_size"] = gpu_count(plan);
  for (const char* part : {"megatron", "torch", "deepspeed"})
    if (target == "all" || target == part) out[part] = {{"expressible", false}, {"cannot", cannot}};
  return out;
}

}  // namespace

json launch_request(const std::string& problem_text, const std::string& plan_text, const std::string& target) {
  if (target != "all" && target != "megatron" && target != "torch" && target != "deepspeed")
    throw InputError("target: must be one of megatron, torch, deepspeed, all, got \"" + target + "\"");
  LaunchInputs in;
  in.problem_text = problem_text;
  in.problem = parse_problem_text(problem_text).problem;
  const nlohmann::json plan_document = parse_json_text(plan_text, "plan");
  // A plan at the u "auto" chose runs at that u.
  if (const std::int64_t u = parse_plan_micro_batch_size(plan_document, in.problem)) in.problem.model.micro_batch_size = u;
  std::optional<json> replica_plan;
  if (has_replicas(plan_document)) {
    const ReplicaPlan replicas = parse_replica_plan(plan_document, in.problem);
    if (replicas.size() > 1) {
      MergedReplicas merged = merge_identical_replicas(in.problem, replicas);
      if (!merged.cannot.empty()) return replicas_beyond_engines(in.problem, replicas, merged.cannot, target);
      replica_plan = replica_plan_to_json(replicas, in.problem)["replicas"];
      in.problem = std::move(merged.problem);
      in.plan = std::move(merged.plan);
      in.merged_replicas = true;
    } else {
      in.plan = replicas.front().stages;
    }
  } else {
    in.plan = parse_group_plan(plan_document, in.problem);
  }
  in.map = build_rank_map(in.problem, in.plan);

  json out = {{"problem", in.problem.name}, {"target", target}};
  if (replica_plan) {
    out["replicas"] = *replica_plan;
    out["replica_note"] = std::to_string(replica_plan->size()) +
                          " identical replicas run as one pipeline whose stage groups join every replica's: "
                          "data-parallel size " + std::to_string(replica_plan->size()) + " x each stage's data shards";
  }
  out["plan"] = plan_to_json(in.plan, in.problem)["stages"];
  out["world_size"] = in.map.world_size();
  out["assumptions"] = strings(in.map.assumptions);
  out["rank_map"] = rank_map_to_json(in);
  if (target == "all" || target == "megatron") out["megatron"] = megatron_part(in);
  if (target == "all" || target == "torch") out["torch"] = torch_part(in);
  if (target == "all" || target == "deepspeed") out["deepspeed"] = deepspeed_part(in);
  return out;
}

}  // namespace geotrain
