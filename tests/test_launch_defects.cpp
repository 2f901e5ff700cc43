// The launch bundles' defects found against the engines' own sources (issue
// 22), one test each: DeepSpeed's topology import, Megatron-Core's training
// length, learning rate and minimum version, and the torch template's
// micro-batch count, output_args and gradient scaling.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "api/launch_request.hpp"
#include "launch/deepspeed_config.hpp"
#include "launch/megatron_args.hpp"
#include "launch/rank_map.hpp"
#include "launch/torch_pipeline_script.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// Four GPUs on one site, L = 8, u = 2, B = 8 (M = 4), bf16.
const char* kPool = R"({
  "name": "defects",
  "model": {"hidden_size": 1024, "num_layers": 8, "seq_length": 512, "vocab_size": 1000,
            "micro_batch_size": 2, "global_batch_size": 8, "precision": "bf16"},
  "gpus": [
    {"id": "a", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "b", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "c", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "d", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "e", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250}
  ],
  "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}
})";

Problem pool(std::optional<std::int64_t> iterations = std::nullopt) {
  Problem p = parse_problem_text(kPool).problem;
  p.training.iterations = iterations;
  return p;
}

GroupPlan plan_of(const Problem& problem, const char* text) { return parse_group_plan(json::parse(text), problem); }

const char* kTwoStages = R"({"stages": [{"gpu": "a", "layers": 3}, {"gpu": "b", "layers": 5}]})";

std::string flag_value(const MegatronArguments& m, const std::string& flag) {
  for (const auto& [f, value] : m.arguments)
    if (f == flag) return value.empty() ? "(switch)" : value;
  return "";
}

TEST(LaunchDefects, DeepSpeedImportsTheTopologyFromWhereDeepSpeedDefinesIt) {
  // deepspeed/pipe/__init__.py exports only PipelineModule, LayerSpec and
  // TiedLayerSpec (v0.3.0 to v0.16.4); PipeDataParallelTopology lives in
  // deepspeed/runtime/pipe/topology.py.
  const Problem p = pool();
  const DeepSpeedPipeline ds = deepspeed_pipeline(p, plan_of(p, kTwoStages));
  ASSERT_TRUE(ds.expressible);
  EXPECT_NE(ds.module.find("from deepspeed.runtime.pipe.topology import PipeDataParallelTopology\n"), std::string::npos);
  const std::regex from_pipe(R"(from deepspeed\.pipe import ([A-Za-z, ]+))");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(ds.module, m, from_pipe));
  const std::set<std::string> exported{"PipelineModule", "LayerSpec", "TiedLayerSpec"};
  std::string names = m[1];
  for (std::size_t at = 0; at < names.size();) {
    std::size_t comma = names.find(',', at);
    if (comma == std::string::npos) comma = names.size();
    std::string name = names.substr(at, comma - at);
    name.erase(0, name.find_first_not_of(' '));
    EXPECT_TRUE(exported.count(name)) << name << " is not exported by deepspeed.pipe";
    at = comma + 1;
  }
}

TEST(LaunchDefects, MegatronTrainsForTrainingIterationsOrAStatedPlaceholder) {
  // Megatron-Core refuses to train without --train-iters (or --train-samples)
  // and --lr; training.iterations gives the first.
  const Problem with = pool(5000);
  const MegatronArguments m = megatron_arguments(with, plan_of(with, kTwoStages));
  ASSERT_TRUE(m.expressible);
  EXPECT_EQ(flag_value(m, "--train-iters"), "5000");
  EXPECT_FALSE(flag_value(m, "--lr").empty());
  bool lr_note = false;
  for (const std::string& note : m.notes) lr_note = lr_note || note.find("--lr") != std::string::npos;
  EXPECT_TRUE(lr_note) << "the learning rate is a placeholder and the bundle says so";

  const Problem without = pool();
  const MegatronArguments placeholder = megatron_arguments(without, plan_of(without, kTwoStages));
  EXPECT_EQ(flag_value(placeholder, "--train-iters"), std::to_string(kPlaceholderTrainIters));
  bool said = false;
  for (const std::string& note : placeholder.notes)
    said = said || (note.find("--train-iters") != std::string::npos && note.find("placeholder") != std::string::npos &&
                    note.find("training.iterations") != std::string::npos);
  EXPECT_TRUE(said) << "a placeholder is stated as one";
}

TEST(LaunchDefects, MegatronBundleStatesTheMinimumVersion) {
  // --pipeline-model-parallel-layout first appears in core_v0.13.0.
  const auto bundle = launch_request(kPool, kTwoStages, "megatron");
  EXPECT_EQ(bundle["megatron"]["versions"]["minimum"], "0.13.0");
  EXPECT_NE(bundle["megatron"]["text"].get<std::string>().find("Megatron-Core 0.13.0 or later"), std::string::npos);
}

TEST(LaunchDefects, TorchRefusesFewerMicroBatchesThanStages) {
  // M = 8 / 2 = 4 micro-batches; five stages: newer Schedule1F1B (torch main)
  // raises "Number of microbatches (4) must be greater than or equal to the
  // number of stages (5)".
  const Problem p = pool();
  const GroupPlan five = plan_of(p, R"({"stages": [{"gpu": "a", "layers": 2}, {"gpu": "b", "layers": 2},
      {"gpu": "c", "layers": 2}, {"gpu": "d", "layers": 1}, {"gpu": "e", "layers": 1}]})");
  const TorchPipelineScript t = torch_pipeline_script(p, five, build_rank_map(p, five));
  EXPECT_FALSE(t.expressible);
  ASSERT_EQ(t.cannot.size(), 1u);
  EXPECT_NE(t.cannot[0].find("5 stages and only 4 micro-batches"), std::string::npos) << t.cannot[0];
  const GroupPlan four = plan_of(p, R"({"stages": [{"gpu": "a", "layers": 2}, {"gpu": "b", "layers": 2},
      {"gpu": "c", "layers": 2}, {"gpu": "d", "layers": 2}]})");
  EXPECT_TRUE(torch_pipeline_script(p, four, build_rank_map(p, four)).expressible);
}

TEST(LaunchDefects, TorchPassesOutputArgsSoNoStageRunsAShapeInferenceForward) {
  // Without output_args, PipelineStage (as in 2.4) runs the stage's forward on
  // torch.empty_like copies of input_args: on stage 0 those are token ids of
  // arbitrary values, which the embedding may reject.
  const Problem p = pool();
  const GroupPlan plan = plan_of(p, kTwoStages);
  const TorchPipelineScript t = torch_pipeline_script(p, plan, build_rank_map(p, plan));
  ASSERT_TRUE(t.expressible);
  const std::size_t call = t.script.find("PipelineStage(module");
  ASSERT_NE(call, std::string::npos);
  const std::string args = t.script.substr(call, t.script.find(')', t.script.find("group=", call)) - call);
  EXPECT_NE(args.find("output_args="), std::string::npos) << args;
}

TEST(LaunchDefects, TorchSaysHowItScalesGradients) {
  // 2.4's schedules sum the micro-batches' gradients; later ones divide by
  // n_microbatches unless scale_grads=False. The template turns that off
  // where it exists and scales the loss itself, the same on every version.
  const Problem p = pool();
  const GroupPlan plan = plan_of(p, kTwoStages);
  const std::string script = torch_pipeline_script(p, plan, build_rank_map(p, plan)).script;
  for (const char* text : {"scale_grads", "/ MICRO_BATCHES", "2.4"})
    EXPECT_NE(script.find(text), std::string::npos) << text;
}

}  // namespace
}  // namespace geotrain
