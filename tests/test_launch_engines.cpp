// Launch bundles (issue 12): what each engine is told. Megatron-Core's
// arguments and its layout string read back into the plan's layer counts,
// the refusals of mixed plans with their nearest uniform plan, DeepSpeed's
// stage boundaries and batch figures, and the api entry's errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/launch_request.hpp"
#include "launch/deepspeed_config.hpp"
#include "launch/megatron_args.hpp"
#include "launch/plan_shape.hpp"
#include "launch/rank_map.hpp"
#include "launch/torch_pipeline_script.hpp"
#include "model/input_error.hpp"
#include "model/plan_json.hpp"
#include "model/problem_json.hpp"

namespace geotrain {
namespace {

using json = nlohmann::json;

// n0 = a0..a3 (site A), n1 = b0..b3 (site A), x alone on site B; L = 12, u = 4, B = 16 (M = 4), bf16.
const char* kPool = R"({
  "name": "engines",
  "model": {"hidden_size": 1024, "num_layers": 12, "seq_length": 512, "vocab_size": 1000,
            "micro_batch_size": 4, "global_batch_size": 16, "precision": "bf16"},
  "gpus": [
    {"id": "a0", "site": "A", "node": "n0", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "a1", "site": "A", "node": "n0", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "a2", "site": "A", "node": "n0", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "a3", "site": "A", "node": "n0", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "b0", "site": "A", "node": "n1", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "b1", "site": "A", "node": "n1", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "b2", "site": "A", "node": "n1", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "b3", "site": "A", "node": "n1", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250},
    {"id": "x", "site": "B", "peak_tflops": 100, "memory_gib": 80, "idle_w": 50, "active_w": 250}
  ],
  "network": {"default": {"bandwidth_gbps": 10, "latency_ms": 1}}
})";

Problem pool() { return parse_problem_text(kPool).problem; }
GroupPlan plan_of(const Problem& problem, const char* text) { return parse_group_plan(json::parse(text), problem); }

std::vector<std::string> flags(const MegatronArguments& m) {
  std::vector<std::string> out;
  for (const auto& [flag, value] : m.arguments) out.push_back(value.empty() ? flag : flag + " " + value);
  return out;
}

TEST(LaunchMegatron, UniformGroupsGiveTheDegreesLayoutAndPerShardMicroBatch) {
  // Two stages of t = 2, d = 2: Megatron's micro-batch is per data-parallel
  // rank, u / d = 4 / 2 = 2; the global batch stays 16 (= 2 * d 2 * M 4).
  // Heads: 1024 / 128 = 8, divisible by t = 2.
  const Problem p = pool();
  const MegatronArguments m = megatron_arguments(p, plan_of(p, R"({"stages": [
      {"gpus": ["a0", "a1", "a2", "a3"], "tensor_parallel": 2, "layers": 5},
      {"gpus": ["b0", "b1", "b2", "b3"], "tensor_parallel": 2, "layers": 7}]})"));
  ASSERT_TRUE(m.expressible);
  EXPECT_EQ(flags(m), (std::vector<std::string>{
                          "--tensor-model-parallel-size 2", "--sequence-parallel",
                          "--pipeline-model-parallel-size 2", "--pipeline-model-parallel-layout 'Et*5|t*7,L'",
                          "--num-layers 12", "--hidden-size 1024", "--num-attention-heads 8", "--seq-length 512",
                          "--max-position-embeddings 512", "--micro-batch-size 2", "--global-batch-size 16",
                          "--bf16", "--train-iters 1000", "--lr 0.0001", "--mock-data",
                          "--tokenizer-type NullTokenizer", "--vocab-size 1000"}));
  EXPECT_NE(m.notes[0].find("Data-parallel size 2 is WORLD_SIZE / (tensor * pipeline) = 8 / (2 * 2)"),
            std::string::npos);
}

TEST(LaunchMegatron, OneStageHasNoLayoutAndOneLayerStagesWriteABareT) {
  const Problem p = pool();
  const MegatronArguments single = megatron_arguments(p, plan_of(p, R"({"stages": [{"gpu": "x", "layers": 12}]})"));
  for (const std::string& f : flags(single)) EXPECT_EQ(f.find("layout"), std::string::npos) << f;
  EXPECT_EQ(pipeline_layout(plan_of(p, R"({"stages": [{"gpu": "a0", "layers": 1}, {"gpu": "a1", "layers": 10},
                                                      {"gpu": "x", "layers": 1}]})")),
            "Et|t*10|t,L");
}

TEST(LaunchMegatron, LayoutReadsBackIntoThePlansLayerCounts) {
  const Problem p = pool();
  for (const char* text : {R"({"stages": [{"gpu": "a0", "layers": 12}]})",
                           R"({"stages": [{"gpu": "a0", "layers": 1}, {"gpu": "x", "layers": 11}]})",
                           R"({"stages": [{"gpu": "a0", "layers": 3}, {"gpu": "a1", "layers": 4},
                                          {"gpu": "b0", "layers": 1}, {"gpu": "x", "layers": 4}]})",
                           R"({"stages": [{"gpus": ["a0", "a1"], "tensor_parallel": 2, "layers": 2},
                                          {"gpus": ["b0", "b1"], "tensor_parallel": 2, "layers": 10}]})"}) {
    const GroupPlan plan = plan_of(p, text);
    std::vector<int> expected;
    for (const GroupStage& s : plan) expected.push_back(s.layers);
    EXPECT_EQ(layout_decoder_layers(pipeline_layout(plan)), expected) << pipeline_layout(plan);
  }
}

TEST(LaunchMegatron, LayoutReaderFollowsMegatronsGrammar) {
  // "(tt|)*2" unrolls to "tt|tt|": stages E+2, 2, 2, then L alone (an empty stage).
  EXPECT_EQ(layout_decoder_layers("Et*2|(tt|)*2,L"), (std::vector<int>{2, 2, 2, 0}));
  EXPECT_EQ(layout_decoder_layers("E|t*3|tt,L"), (std::vector<int>{0, 3, 2}));
  EXPECT_THROW(layout_decoder_layers("t*3|tL"), InputError);    // no E
  EXPECT_THROW(layout_decoder_layers("Et*3|Lt"), InputError);   // L not last
  EXPECT_THROW(layout_decoder_layers("Et*|tL"), InputError);    // no count
  EXPECT_THROW(layout_decoder_layers("Et*2|m,L"), InputError);  // MTP layers: not in GeoTrain's plans
}

TEST(LaunchMegatron, MixedDegreesAreRefusedWithTheReasonAndTheNearestUniformPlan) {
  // Stage 1: t = 2, d = 2; stage 2: t = 2, d = 1; stage 3: x, t = 1, d = 1.
  const Problem p = pool();
  const GroupPlan plan = plan_of(p, R"({"stages": [
      {"gpus": ["a0", "a1", "a2", "a3"], "tensor_parallel": 2, "layers": 4},
      {"gpus": ["b0", "b1"], "tensor_parallel": 2, "layers": 4}, {"gpu": "x", "layers": 4}]})");
  const MegatronArguments m = megatron_arguments(p, plan);
  EXPECT_FALSE(m.expressible);
  ASSERT_EQ(m.cannot.size(), 2u);
  EXPECT_EQ(m.cannot[0].rfind("cannot express because stage 1 has tensor_parallel 2, stage 3 has 1: Megatron-Core "
                              "uses one --tensor-model-parallel-size",
                              0),
            0u);
  EXPECT_EQ(m.cannot[1].rfind("cannot express because stage 1 has data_parallel 2, stage 2 has 1:", 0), 0u);
  // Smallest degrees t = 1, d = 1: each stage keeps gpus[0] and its layers.
  const PlanShape shape = plan_shape(plan);
  const GroupPlan nearest = uniform_subplan(plan, shape.tensor_parallel, shape.data_parallel);
  EXPECT_EQ(plan_to_json(nearest, p).dump(),
            R"({"stages":[{"gpu":"a0","layers":4},{"gpu":"b0","layers":4},{"gpu":"x","layers":4}]})");
  // t = 2 everywhere but d = 2 and 1: keep shard 0 of stage 1, (a0, a1).
  const GroupPlan tensor_only = plan_of(p, R"({"stages": [
      {"gpus": ["a0", "a1", "a2", "a3"], "tensor_parallel": 2, "layers": 6},
      {"gpus": ["b0", "b1"], "tensor_parallel": 2, "layers": 6}]})");
  const PlanShape s2 = plan_shape(tensor_only);
  EXPECT_EQ(s2.mixed.size(), 1u);
  EXPECT_EQ(plan_to_json(uniform_subplan(tensor_only, s2.tensor_parallel, s2.data_parallel), p)["stages"][0].dump(),
            R"({"gpus":["a0","a1"],"layers":6,"tensor_parallel":2})");
}

TEST(LaunchTorch, TensorParallelStagesAreRefusedAndPipelinesGetTheScript) {
  const Problem p = pool();
  const GroupPlan tensor = plan_of(p, R"({"stages": [{"gpus": ["a0", "a1"], "tensor_parallel": 2, "layers": 6},
                                                     {"gpus": ["b0", "b1"], "tensor_parallel": 2, "layers": 6}]})");
  const TorchPipelineScript refused = torch_pipeline_script(p, tensor, build_rank_map(p, tensor));
  EXPECT_FALSE(refused.expressible);
  ASSERT_EQ(refused.cannot.size(), 1u);
  EXPECT_EQ(refused.cannot[0].rfind("cannot express because stage 1 has tensor_parallel 2: the template", 0), 0u);

  // Two data shards per stage: two parallel pipelines (a0 -> b0, a1 -> b1),
  // each micro-batch u / d = 2 samples; M = 16 / 4 = 4 micro-batches.
  const GroupPlan shards = plan_of(p, R"({"stages": [{"gpus": ["a0", "a1"], "layers": 5},
                                                     {"gpus": ["b0", "b1"], "layers": 7}]})");
  const TorchPipelineScript script = torch_pipeline_script(p, shards, build_rank_map(p, shards));
  ASSERT_TRUE(script.expressible);
  for (const char* line : {"STAGE_LAYERS = [5, 7]", "STAGE_FIRST_RANK = [0, 2]", "DATA_SHARDS = 2",
                           "MICRO_BATCHES = 4", "MICRO_BATCH = 2", "DTYPE = torch.bfloat16",
                           "(1, 1, \"b1\", \"n1\", 1, 1),  # rank 3", "PyTorch 2.4 API", "Schedule1F1B(",
                           "PipelineStage("})
    EXPECT_NE(script.script.find(line), std::string::npos) << line;
}

TEST(LaunchDeepSpeed, PartsCountTheEmbeddingAndHeadAsLayerSpecs) {
  // Layers 3, 4, 5 over specs [embedding, 12 blocks, head] (14 specs):
  // stage 0 = specs 0..3 (embedding + 3), stage 1 = 4..7, stage 2 = 8..13 (5 + head).
  const Problem p = pool();
  const DeepSpeedPipeline ds = deepspeed_pipeline(
      p, plan_of(p, R"({"stages": [{"gpu": "a0", "layers": 3}, {"gpu": "a1", "layers": 4}, {"gpu": "x", "layers": 5}]})"));
  ASSERT_TRUE(ds.expressible);
  EXPECT_EQ(ds.parts, (std::vector<int>{0, 4, 8, 14}));
  // train_batch_size = micro 4 * accumulation 4 * data 1 = 16.
  EXPECT_EQ(ds.config["train_micro_batch_size_per_gpu"], 4);
  EXPECT_EQ(ds.config["gradient_accumulation_steps"], 4);
  EXPECT_EQ(ds.config["bf16"]["enabled"], true);
  EXPECT_NE(ds.module.find("PLAN_PARTS = [0, 4, 8, 14]"), std::string::npos);
}

TEST(LaunchDeepSpeed, DataShardsDivideTheMicroBatchAndMixedShardsAreRefused) {
  // d = 2: micro per GPU 4 / 2 = 2, accumulation M = 4, 2 * 4 * 2 = 16 = B.
  const Problem p = pool();
  const DeepSpeedPipeline ds = deepspeed_pipeline(
      p, plan_of(p, R"({"stages": [{"gpus": ["a0", "a1"], "layers": 6}, {"gpus": ["b0", "b1"], "layers": 6}]})"));
  ASSERT_TRUE(ds.expressible);
  EXPECT_EQ(ds.config["train_micro_batch_size_per_gpu"], 2);
  EXPECT_EQ(ds.config["train_batch_size"], 16);
  const DeepSpeedPipeline mixed =
      deepspeed_pipeline(p, plan_of(p, R"({"stages": [{"gpus": ["a0", "a1"], "layers": 6}, {"gpu": "x", "layers": 6}]})"));
  EXPECT_FALSE(mixed.expressible);
  ASSERT_EQ(mixed.cannot.size(), 1u);
  EXPECT_EQ(mixed.cannot[0],
            "cannot express because stage 1 has data_parallel 2, stage 2 has 1: DeepSpeed's PipeDataParallelTopology "
            "has one data-parallel size for every stage");
}

TEST(LaunchRequest, BundleCarriesRankMapTargetsAndNearestPlans) {
  const char* mixed = R"({"stages": [{"gpus": ["a0", "a1"], "tensor_parallel": 2, "layers": 6}, {"gpu": "x", "layers": 6}]})";
  const auto bundle = launch_request(kPool, mixed, "all");
  EXPECT_EQ(bundle["world_size"], 3);
  EXPECT_EQ(bundle["rank_map"][2]["gpu"], "x");
  EXPECT_EQ(bundle["rank_map"][1]["tensor_rank"], 1);
  EXPECT_FALSE(bundle["megatron"]["expressible"].get<bool>());
  EXPECT_EQ(bundle["megatron"]["nearest_plan"]["stages"].dump(), R"([{"gpu":"a0","layers":6},{"gpu":"x","layers":6}])");
  EXPECT_TRUE(bundle["megatron"]["nearest_plan"]["iteration_ms"].is_number());
  const auto only_torch = launch_request(kPool, R"({"stages": [{"gpu": "x", "layers": 12}]})", "torch");
  EXPECT_TRUE(only_torch.contains("torch"));
  EXPECT_FALSE(only_torch.contains("megatron"));
  EXPECT_TRUE(only_torch["torch"]["expressible"].get<bool>());
  try {
    launch_request(kPool, R"({"stages": [{"gpu": "x", "layers": 12}]})", "jax");
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "target: must be one of megatron, torch, deepspeed, flashflex, all, got \"jax\"");
  }
  EXPECT_THROW(launch_request(kPool, R"({"stages": [{"gpu": "nope", "layers": 12}]})", "all"), InputError);
}

}  // namespace
}  // namespace geotrain
