#include "api/launch_request.hpp"

#include "api/api.hpp"
#include "api/replica_launch.hpp"
#include "launch/deepspeed_config.hpp"
#include "launch/engine_versions.hpp"
#include "launch/flashflex_args.hpp"
#include "launch/megatron_args.hpp"
#include "launch/plan_shape.hpp"
#include "launch/rank_map.hpp"
#include "launch/torch_pipeline_script.hpp"
#include "launch/torchrun_lines.hpp"
#include "model/input_error.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"
#include "model/replica_plan_json.hpp"
#include "search/space/engine_space.hpp"

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

json versions_json(const EngineVersions& v) {
  return {{"minimum", v.minimum}, {"why_minimum", v.why_minimum}, {"checked_against", v.checked}};
}

// The nearest plan an engine can run, with its figures, so the user sees the
// price; and how to get the best plan it can run.
json nearest_plan(const LaunchInputs& in, Engine engine) {
  // Replicas joined into data parallelism are priced by the replica model, not as one pipeline.
  if (in.merged_replicas)
    return {{"why", "the replicas run as one pipeline with data parallelism across them; a nearest plan is not "
                    "offered for them: plan again for this engine, or with search.replicas 1"}};
  const PlanShape shape = plan_shape(in.plan);
  const int t = engine == Engine::megatron_core ? shape.tensor_parallel : 1;
  const GroupPlan nearest = engine == Engine::flashflex ? flashflex_nearest_plan(in.plan, in.problem)
                                                        : uniform_subplan(in.plan, t, shape.data_parallel);
  const json plan = plan_to_json(nearest, in.problem);
  const json figures = evaluate_request(in.problem_text, plan.dump());
  const int d = shape.data_parallel;
  const std::string why =
      engine == Engine::flashflex
          ? "every stage keeps its layers on its first " + std::to_string(d) +
                " data shard(s), each of the largest tensor degree the config's heads allow"
      : t == 1 && d == 1 ? "every stage keeps its layers on the first GPU of its group"
                         : "every stage keeps its layers on its first " + std::to_string(d) + " data shard(s) of " +
                               std::to_string(t) + " tensor-parallel GPU(s)";
  json out = {{"why", why},
          {"stages", plan["stages"]},
          {"iteration_ms", figures["iteration_ms"]},
          {"energy_j", figures["energy_j"]},
          {"feasible", figures["feasible"]}};
  const bool runs = engine_plan_faults(engine, in.problem, nearest).empty();
  out["runs"] = runs;
  const std::string again = std::string("search.engine \"") + engine_name(engine) + "\"";
  if (!runs)
    out["hint"] = "the engine cannot run this one either: plan again with " + again + " for the best plan it can run";
  else if (!figures.value("feasible", false))
    out["hint"] = "it does not fit in memory: plan again with " + again + " for the best plan this engine can run";
  else
    out["hint"] = "plan again with " + again + " for the best plan this engine can run";
  return out;
}

json strings(const std::vector<std::string>& list) { return json(list); }

json megatron_part(const LaunchInputs& in) {
  const MegatronArguments m = megatron_arguments(in.problem, in.plan);
  const EngineVersions versions = megatron_core_versions();
  json out = {{"expressible", m.expressible}, {"versions", versions_json(versions)}};
  if (!m.expressible) {
    out["cannot"] = strings(m.cannot);
    out["nearest_plan"] = nearest_plan(in, Engine::megatron_core);
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
  out["text"] = launch_script("# Megatron-Core " + versions.minimum + " or later (" + versions.why_minimum +
                                  "); checked against core_v0.13.0 and core_v0.19.0.\n",
                              lines);
  return out;
}

json torch_part(const LaunchInputs& in) {
  const TorchPipelineScript t = torch_pipeline_script(in.problem, in.plan, in.map);
  json out = {{"expressible", t.expressible},
              {"pytorch_version", std::string(kTorchPipeliningVersion) + "+"},
              {"versions", versions_json(torch_versions())}};
  if (!t.expressible) {
    out["cannot"] = strings(t.cannot);
    out["nearest_plan"] = nearest_plan(in, Engine::torch);
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
  json out = {{"expressible", ds.expressible}, {"versions", versions_json(deepspeed_versions())}};
  if (!ds.expressible) {
    out["cannot"] = strings(ds.cannot);
    out["nearest_plan"] = nearest_plan(in, Engine::deepspeed);
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

// An expressible FlashFlex launch as the bundle gives it.
json flashflex_json(const FlashFlexLaunch& f, const Problem& problem) {
  json out = {{"expressible", true}, {"versions", versions_json(flashflex_versions())}};
  json args = json::array();
  for (const auto& [flag, value] : f.arguments) args.push_back(value.empty() ? flag : flag + " " + value);
  json ranks = json::array();
  for (const FlashFlexRank& r : f.ranks)
    ranks.push_back({{"rank", r.rank},
                     {"gpu", problem.gpus[static_cast<std::size_t>(r.gpu)].id},
                     {"pipeline", r.pipeline},
                     {"stage", r.stage},
                     {"tensor_rank", r.tensor_rank},
                     {"machine", r.machine},
                     {"host", r.host},
                     {"device", r.device}});
  out["model_size"] = f.model->size;
  out["hetero_configs"] = f.hetero_configs;
  out["layer_partitions"] = f.layer_partitions;
  out["global_bsz_size"] = f.global_batch_sizes;
  out["chunks"] = f.micro_batches;
  out["devices_id"] = f.devices_id;
  out["arguments"] = args;
  out["ranks"] = ranks;
  out["notes"] = strings(f.notes);
  out["file_name"] = "flashflex_launch.sh";
  out["text"] = flashflex_script(f, kRendezvousPort);
  return out;
}

json flashflex_part(const LaunchInputs& in) {
  const FlashFlexLaunch f = flashflex_launch(in.problem, in.plan, in.map);
  if (f.expressible) return flashflex_json(f, in.problem);
  return {{"expressible", false},
          {"versions", versions_json(flashflex_versions())},
          {"cannot", strings(f.cannot)},
          {"nearest_plan", nearest_plan(in, Engine::flashflex)}};
}

// Replicas that differ run on FlashFlex as pipelines of their own (flashflex_args.hpp).
json flashflex_replica_part(const Problem& problem, const ReplicaPlan& plan) {
  GroupPlan every_stage;  // places each GPU; the ranks' order is FlashFlex's own
  for (const Replica& r : plan) every_stage.insert(every_stage.end(), r.stages.begin(), r.stages.end());
  const FlashFlexLaunch f = flashflex_replica_launch(problem, plan, build_rank_map(problem, every_stage));
  if (f.expressible) return flashflex_json(f, problem);
  return {{"expressible", false}, {"versions", versions_json(flashflex_versions())}, {"cannot", strings(f.cannot)}};
}

// Replicas that cannot join into data parallelism: the data-parallel targets say why
// (with the plan itself); FlashFlex may still run them as pipelines of their own.
json replicas_beyond_engines(const Problem& problem, const ReplicaPlan& plan, const std::vector<std::string>& cannot,
                             const std::string& target) {
  json out = {{"problem", problem.name}, {"target", target}};
  out["replicas"] = replica_plan_to_json(plan, problem)["replicas"];
  out["world_size"] = gpu_count(plan);
  for (const char* part : {"megatron", "torch", "deepspeed"})
    if (target == "all" || target == part) out[part] = {{"expressible", false}, {"cannot", cannot}};
  if (target == "all" || target == "flashflex") out["flashflex"] = flashflex_replica_part(problem, plan);
  return out;
}

}  // namespace

json launch_request(const std::string& problem_text, const std::string& plan_text, const std::string& target) {
  if (target != "all" && target != "megatron" && target != "torch" && target != "deepspeed" && target != "flashflex")
    throw InputError("target: must be one of megatron, torch, deepspeed, flashflex, all, got \"" + target + "\"");
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
  if (target == "all" || target == "flashflex") out["flashflex"] = flashflex_part(in);
  return out;
}

}  // namespace geotrain
