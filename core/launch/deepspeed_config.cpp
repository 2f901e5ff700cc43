#include "launch/deepspeed_config.hpp"

#include "launch/plan_shape.hpp"
#include "search/space/engine_space.hpp"

namespace geotrain {

namespace {

// The problem's name goes into a comment line: no line breaks.
std::string one_line(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return text;
}

std::string int_list(const std::vector<int>& values) {
  std::string out = "[";
  for (std::size_t k = 0; k < values.size(); ++k) out += (k ? ", " : "") + std::to_string(values[k]);
  return out + "]";
}

const char* kModule = R"(
from deepspeed.pipe import LayerSpec, PipelineModule
from deepspeed.runtime.pipe.topology import PipeDataParallelTopology


class PlanPipelineModule(PipelineModule):
    """PipelineModule cut at the plan's boundaries: partition_method has no given-split option."""

    def _partition_layers(self, method="uniform"):
        self.parts = list(PLAN_PARTS)
        stage = self._topo.get_coord(self.global_rank).pipe
        self._set_bounds(start=self.parts[stage], stop=self.parts[stage + 1])


def build_module(embedding_cls, block_cls, head_cls, loss_fn):
    """Layer specs: the embedding, one per decoder layer, the LM head; your classes."""
    layers = [LayerSpec(embedding_cls)] + [LayerSpec(block_cls) for _ in range(NUM_LAYERS)] + [LayerSpec(head_cls)]
    topology = PipeDataParallelTopology(num_pp=len(PLAN_PARTS) - 1, num_dp=DATA_SHARDS)
    return PlanPipelineModule(layers=layers, topology=topology, loss_fn=loss_fn)


# In your train.py, started by the bundle's torchrun lines:
#   deepspeed.init_distributed()
#   module = build_module(YourEmbedding, YourBlock, YourHead, your_loss)
#   engine, _, _, _ = deepspeed.initialize(model=module, model_parameters=module.parameters(),
#                                          config="ds_config.json")
#   for step in range(steps):
#       loss = engine.train_batch(data_iter=your_batches)  # gradient_accumulation_steps micro-batches
)";

}  // namespace

DeepSpeedPipeline deepspeed_pipeline(const Problem& problem, const GroupPlan& plan) {
  DeepSpeedPipeline out;
  out.cannot = engine_plan_faults(Engine::deepspeed, problem, plan);
  if (!out.cannot.empty()) return out;
  const PlanShape shape = plan_shape(plan);
  out.expressible = true;

  const ModelConfig& m = problem.model;
  const int d = shape.data_parallel;
  out.parts = {0};
  for (const GroupStage& s : plan) out.parts.push_back(out.parts.back() + s.layers);
  for (std::size_t k = 1; k < out.parts.size(); ++k) out.parts[k] += 1;  // the embedding is spec 0
  out.parts.back() += 1;                                                  // the head is the last spec
  // DeepSpeed: train_batch_size = micro-batch per GPU * accumulation steps * data-parallel size.
  out.config = {{"train_batch_size", m.global_batch_size},
                {"train_micro_batch_size_per_gpu", m.micro_batch_size / d},
                {"gradient_accumulation_steps", m.micro_batches()},
                {"pipeline", {{"activation_checkpoint_interval", 0}}},
                {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 1e-4}}}}}};
  if (m.precision == Precision::fp16) out.config["fp16"] = {{"enabled", true}};
  if (m.precision == Precision::bf16) out.config["bf16"] = {{"enabled", true}};
  out.module = "# GeoTrain: DeepSpeed pipeline module for the plan (problem \"" + one_line(problem.name) + "\").\n" +
               "PLAN_PARTS = " + int_list(out.parts) + "  # layer-spec boundaries: stage q owns [parts[q], parts[q+1])\n" +
               "NUM_LAYERS = " + std::to_string(m.num_layers) + "\n" + "DATA_SHARDS = " + std::to_string(d) + "\n" +
               kModule;
  return out;
}

}  // namespace geotrain
