#include "launch/flashflex_args.hpp"

#include <algorithm>
#include <map>

#include "launch/plan_shape.hpp"
#include "launch/torchrun_lines.hpp"
#include "search/replicas/engine_replicas.hpp"
#include "search/space/engine_space.hpp"

namespace geotrain {

namespace {

const char* precision_word(Precision p) {
  switch (p) {
    case Precision::fp16: return "fp16";
    case Precision::bf16: return "bf16";
    case Precision::fp32: return "fp32";
  }
  return "fp32";
}

std::string numbers(const std::vector<std::int64_t>& values) {
  std::string out;
  for (std::int64_t v : values) out += (out.empty() ? "" : " ") + std::to_string(v);
  return out;
}

// One replica's pipelines: its groups and its share of the micro-batches.
struct PipelineSet {
  const GroupPlan* stages;
  std::int64_t micro_batches;
  std::int64_t samples;  // per iteration, over the set's d pipelines
};

// The ranks in FlashFlex's order (pipeline by pipeline, stage by stage,
// tensor rank by tensor rank), each on the machine and device the rank map
// gives its GPU.
void place_ranks(FlashFlexLaunch& out, const std::vector<PipelineSet>& sets, const RankMap& map) {
  std::map<int, const RankEntry*> by_gpu;
  for (const RankEntry& e : map.ranks) by_gpu[e.gpu] = &e;
  std::map<std::string, int> machine_of_host;
  int pipeline = 0;
  for (const PipelineSet& set : sets) {
    const GroupPlan& plan = *set.stages;
    for (int j = 0; j < plan_shape(plan).data_parallel; ++j, ++pipeline) {
      std::vector<std::vector<int>> pipeline_devices;
      for (std::size_t q = 0; q < plan.size(); ++q) {
        const int t = plan[q].tensor_parallel;
        std::vector<int> stage_devices;
        for (int i = 0; i < t; ++i) {
          const int gpu = plan[q].gpus[static_cast<std::size_t>(j * t + i)];
          const RankEntry& e = *by_gpu.at(gpu);
          auto [it, fresh] = machine_of_host.emplace(e.host, static_cast<int>(out.machines.size()));
          if (fresh) out.machines.push_back({e.host, e.node});
          out.ranks.push_back(FlashFlexRank{static_cast<int>(out.ranks.size()), gpu, pipeline, static_cast<int>(q), i,
                                            it->second, e.host, e.node, e.device});
          stage_devices.push_back(it->second);
        }
        pipeline_devices.push_back(std::move(stage_devices));
      }
      out.devices_id.push_back(std::move(pipeline_devices));
    }
  }
}

// Each set's d pipelines: its tensor degrees, layers, B_r / d samples in m_r micro-batches.
void add_pipelines(FlashFlexLaunch& out, const std::vector<PipelineSet>& sets) {
  for (const PipelineSet& set : sets) {
    const int d = plan_shape(*set.stages).data_parallel;
    std::vector<int> degrees, layers;
    for (const GroupStage& s : *set.stages) degrees.push_back(s.tensor_parallel), layers.push_back(s.layers);
    for (int j = 0; j < d; ++j) {
      out.hetero_configs.push_back(degrees);
      out.layer_partitions.push_back(layers);
      out.global_batch_sizes.push_back(set.samples / d);
      out.micro_batches.push_back(set.micro_batches);
    }
  }
}

}  // namespace

std::string python_list(const std::vector<std::vector<int>>& lists) {
  std::string out = "[";
  for (std::size_t k = 0; k < lists.size(); ++k) {
    out += k ? ", [" : "[";
    for (std::size_t i = 0; i < lists[k].size(); ++i) out += (i ? ", " : "") + std::to_string(lists[k][i]);
    out += "]";
  }
  return out + "]";
}

namespace {

// The arguments and notes every launch shares, after the pipelines' own.
void finish_launch(FlashFlexLaunch& out, const Problem& problem);

}  // namespace

FlashFlexLaunch flashflex_launch(const Problem& problem, const GroupPlan& plan, const RankMap& map) {
  FlashFlexLaunch out;
  out.cannot = engine_plan_faults(Engine::flashflex, problem, plan);
  if (!out.cannot.empty() || plan.empty()) return out;
  out.expressible = true;
  const ModelConfig& m = problem.model;
  const int d = plan_shape(plan).data_parallel;
  // Each pipeline takes B / d samples in M micro-batches of u / d: the plan's shards.
  const std::vector<PipelineSet> sets = {PipelineSet{&plan, m.micro_batches(), m.global_batch_size}};
  add_pipelines(out, sets);
  place_ranks(out, sets, map);
  out.notes.push_back(std::to_string(d) + " pipeline(s) of " + std::to_string(plan.size()) +
                      " stages, one per data shard of the plan: each takes " + std::to_string(m.global_batch_size / d) +
                      " samples per iteration in " + std::to_string(m.micro_batches()) + " micro-batches of " +
                      std::to_string(m.micro_batch_size / d) + ".");
  finish_launch(out, problem);
  return out;
}

FlashFlexLaunch flashflex_replica_launch(const Problem& problem, const ReplicaPlan& plan, const RankMap& map) {
  FlashFlexLaunch out;
  out.cannot = engine_replica_faults(Engine::flashflex, problem, plan);
  if (!out.cannot.empty() || plan.empty()) return out;
  out.expressible = true;
  std::vector<PipelineSet> sets;
  for (const Replica& r : plan)
    sets.push_back(PipelineSet{&r.stages, r.micro_batches, r.micro_batches * problem.model.micro_batch_size});
  add_pipelines(out, sets);
  place_ranks(out, sets, map);
  std::string shares;
  for (std::size_t r = 0; r < plan.size(); ++r) {
    const int d = plan_shape(plan[r].stages).data_parallel;
    shares += (r ? "; " : "") + std::string("replica ") + std::to_string(r) + ": " + std::to_string(d) +
              " pipeline(s) of " + std::to_string(plan[r].micro_batches * problem.model.micro_batch_size / d) +
              " samples in " + std::to_string(plan[r].micro_batches) + " micro-batches of " +
              std::to_string(problem.model.micro_batch_size / d);
  }
  out.notes.push_back(std::to_string(plan.size()) + " replicas as " + std::to_string(out.hetero_configs.size()) +
                      " FlashFlex pipelines, one per data shard of each replica (" + shares +
                      "); FlashFlex averages the gradients of all of them every step, as the plan's "
                      "cross-replica all-reduce does.");
  finish_launch(out, problem);
  return out;
}

namespace {

void finish_launch(FlashFlexLaunch& out, const Problem& problem) {
  const ModelConfig& m = problem.model;
  out.model = flashflex_model_for(m.hidden_size);
  const std::int64_t iterations = problem.training.iterations.value_or(kPlaceholderRunIters);
  auto add = [&](const char* flag, const std::string& value) { out.arguments.emplace_back(flag, value); };
  add("--model_size", out.model->size);
  add("--overwrite_config", "1");
  add("--hidden_size", std::to_string(m.hidden_size));
  add("--vocab_size", std::to_string(m.vocab_size));
  add("--total-layer-num", std::to_string(m.num_layers));
  add("--hetero_configs", python_list(out.hetero_configs));
  add("--layer_partitions", python_list(out.layer_partitions));
  add("--global_bsz_size", numbers(out.global_batch_sizes));
  add("--chunks", numbers(out.micro_batches));
  add("--pipeline-type", "1F1B");
  add("--mixed_precision", precision_word(m.precision));
  if (m.precision == Precision::fp16) add("--fp16", "");
  if (m.precision == Precision::bf16) add("--bf16", "");
  add("--use-flash-attn", "");
  add("--accum-iter", "1");
  add("--run-iter", std::to_string(iterations));

  out.notes.push_back("The model is FlashFlex's " + std::string(out.model->size) + " config (" +
                      std::to_string(out.model->attention_heads) +
                      " attention heads, which every tensor degree divides) with the plan's hidden size and "
                      "vocabulary (--overwrite_config 1).");
  if (m.seq_length != 4096)
    out.notes.push_back("FlashFlex trains at sequence length 4096 whatever it is told (hexiscale/process_args.py, "
                        "update_args: args.seq_length = 4096); the plan is for " +
                        std::to_string(m.seq_length) + ": change that line.");
  out.notes.push_back(problem.training.iterations
                          ? "--run-iter " + std::to_string(iterations) + " is the problem's training.iterations."
                          : "--run-iter " + std::to_string(iterations) +
                                " is a placeholder: the problem file has no training.iterations.");
  out.notes.push_back("--pipeline-type 1F1B: the schedule the plan's memory was priced for (FlashFlex's default, "
                      "Gpipe, keeps every micro-batch's activations).");
  out.notes.push_back("FlashFlex's own llama/generate_hetero_scripts.py takes devices_id (each GPU's machine, "
                      "given here) but numbers a machine's CUDA devices 0, 1, ... in rank order and always writes "
                      "--fp16; the launch lines here put each rank on the GPU the plan chose instead.");
  out.notes.push_back("Run from FlashFlex's root: sh flashflex_launch.sh MACHINE on each machine, MACHINE as the "
                      "script's comments number them; the stand-in data is FlashFlex's random DatasetForLlama.");
}

}  // namespace

std::string flashflex_script(const FlashFlexLaunch& launch, int rendezvous_port) {
  std::string args;
  for (const auto& [flag, value] : launch.arguments)
    // The lists go to Python's eval as one word; the batch figures are one word each (nargs '+').
    args += " \\\n    " + flag + (value.empty() ? "" : " " + (value.find('[') != std::string::npos ? shell_word(value) : value));
  std::string text = "#!/bin/sh\n# GeoTrain launch lines for FlashFlex (llama_train.py; checked against commit 5ee1726).\n"
                     "# On machine k run: sh flashflex_launch.sh k   (from FlashFlex's root)\n"
                     "set -eu\n"
                     "rank() {  # rank RANK CUDA_DEVICE\n"
                     "  MASTER_ADDR=" + shell_word(launch.machines.front().host) +
                     " MASTER_PORT=" + std::to_string(rendezvous_port) +
                     " WORLD_SIZE=" + std::to_string(launch.ranks.size()) +
                     " RANK=$1 CUDA_VISIBLE_DEVICES=$2 python3 llama_train.py" + args + " &\n}\n"
                     "case \"${1:?usage: sh flashflex_launch.sh MACHINE}\" in\n";
  for (std::size_t k = 0; k < launch.machines.size(); ++k) {
    std::string lines;
    for (const FlashFlexRank& r : launch.ranks)
      if (r.machine == static_cast<int>(k))
        lines += "    rank " + std::to_string(r.rank) + " " + std::to_string(r.device) + "  # pipeline " +
                 std::to_string(r.pipeline) + ", stage " + std::to_string(r.stage + 1) + ", tensor rank " +
                 std::to_string(r.tensor_rank) + "\n";
    std::string host = launch.machines[k].host, node = launch.machines[k].node;
    for (std::string* s : {&host, &node})
      for (char& c : *s)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    text += "  " + std::to_string(k) + ")  # host " + host + " (node " + node + ")\n" + lines + "    ;;\n";
  }
  text += "  *) echo \"machine must be 0 to " + std::to_string(launch.machines.size() - 1) + "\" >&2; exit 2 ;;\nesac\nwait\n";
  return text;
}

GroupPlan flashflex_nearest_plan(const GroupPlan& plan, const Problem& problem) {
  const FlashFlexModel* model = flashflex_model_for(problem.model.hidden_size);
  const int d = plan_shape(plan).data_parallel;
  GroupPlan out;
  for (const GroupStage& s : plan) {
    int t = s.tensor_parallel;
    while (t > 1 && (!model || model->attention_heads % t != 0 || s.tensor_parallel % t != 0)) --t;
    GroupStage cut{{}, t, s.layers};
    for (int j = 0; j < d; ++j)
      for (int i = 0; i < t; ++i) cut.gpus.push_back(s.gpus[static_cast<std::size_t>(j * s.tensor_parallel + i)]);
    out.push_back(std::move(cut));
  }
  return out;
}

}  // namespace geotrain
