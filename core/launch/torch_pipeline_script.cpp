#include "launch/torch_pipeline_script.hpp"

#include "launch/megatron_args.hpp"
#include "launch/plan_shape.hpp"
#include "search/space/engine_space.hpp"

namespace geotrain {

namespace {

// Text for a Python string literal: the ids come from the problem file, so
// quotes, backslashes and control characters are escaped.
std::string python_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c < 0x20 || c == 0x7f) {
      const char* hex = "0123456789abcdef";
      out += "\\x", out += hex[c >> 4], out += hex[c & 15];
    } else out += static_cast<char>(c);
  }
  return out + "\"";
}

std::string python_int_list(const std::vector<int>& values) {
  std::string out = "[";
  for (std::size_t k = 0; k < values.size(); ++k) out += (k ? ", " : "") + std::to_string(values[k]);
  return out + "]";
}

std::string rank_table(const Problem& problem, const RankMap& map) {
  std::string out = "RANKS = [  # global rank -> (stage, data rank, GPU id, host, CUDA device, LOCAL_RANK)\n";
  for (const RankEntry& e : map.ranks)
    out += "    (" + std::to_string(e.stage) + ", " + std::to_string(e.data_rank) + ", " +
           python_string(problem.gpus[e.gpu].id) + ", " + python_string(e.host) + ", " + std::to_string(e.device) +
           ", " + std::to_string(e.local_rank) + "),  # rank " + std::to_string(e.rank) + "\n";
  return out + "]\n";
}

const char* kHeader = R"(# GeoTrain launch template for torch.distributed.pipelining.
# Targets the PyTorch 2.4 API (PipelineStage, Schedule1F1B); checked against the 2.4 and main sources.
# Start it with the bundle's torchrun lines, one per machine. The model below is a stand-in GPT of the
# problem's size with random tokens: replace Block, make_batch and the optimizer with your own.
# Gradients: 2.4's schedules sum the micro-batches' gradients; later releases divide them by
# n_microbatches unless scale_grads=False. This script passes scale_grads=False where it exists and
# divides each micro-batch's loss by MICRO_BATCHES itself: the mean over the batch on every version.
import inspect
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed.pipelining import PipelineStage, Schedule1F1B

)";

const char* kBody = R"(

class Block(nn.Module):
    """One decoder layer (pre-norm attention and MLP); replace with your model's block."""

    def __init__(self):
        super().__init__()
        self.norm1 = nn.LayerNorm(HIDDEN)
        self.attn = nn.MultiheadAttention(HIDDEN, HEADS, batch_first=True)
        self.norm2 = nn.LayerNorm(HIDDEN)
        self.mlp = nn.Sequential(nn.Linear(HIDDEN, 4 * HIDDEN), nn.GELU(), nn.Linear(4 * HIDDEN, HIDDEN))

    def forward(self, x):
        mask = torch.triu(torch.ones(x.shape[1], x.shape[1], dtype=torch.bool, device=x.device), 1)
        h = self.norm1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.norm2(x))


class StageModule(nn.Module):
    """The layers of one pipeline stage: the embedding on the first, the LM head on the last."""

    def __init__(self, stage):
        super().__init__()
        self.first, self.last = stage == 0, stage == len(STAGE_LAYERS) - 1
        self.embed = nn.Embedding(VOCAB, HIDDEN) if self.first else None
        self.blocks = nn.ModuleList(Block() for _ in range(STAGE_LAYERS[stage]))
        self.norm = nn.LayerNorm(HIDDEN) if self.last else None
        self.head = nn.Linear(HIDDEN, VOCAB, bias=False) if self.last else None

    def forward(self, x):
        if self.embed is not None:
            x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        if self.head is not None:
            x = self.head(self.norm(x))
        return x


def loss_fn(logits, target):
    """A micro-batch's share of the batch's mean loss (the schedule sums them; see the header)."""
    return F.cross_entropy(logits.reshape(-1, VOCAB).float(), target.reshape(-1)) / MICRO_BATCHES


def make_batch(step, data_rank, device):
    """Random tokens, the same on the first and last stage of a pipeline; replace with your data."""
    generator = torch.Generator().manual_seed(step * 1000 + data_rank)
    tokens = torch.randint(0, VOCAB, (MICRO_BATCH * MICRO_BATCHES, SEQ + 1), generator=generator)
    return tokens[:, :-1].to(device), tokens[:, 1:].to(device)


def main():
    dist.init_process_group("nccl")
    rank, local_rank = dist.get_rank(), int(os.environ["LOCAL_RANK"])
    assert dist.get_world_size() == len(RANKS), "start every torchrun line of the bundle"
    stage, data_rank, gpu_id, host, device_index, expected_local_rank = RANKS[rank]
    assert local_rank == expected_local_rank, f"rank {rank} ({gpu_id}) was started by the wrong torchrun line"
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")
    assert visible[local_rank] == str(device_index), f"rank {rank} ({gpu_id}) must run on device {device_index}"
    device = torch.device("cuda", local_rank)
    torch.cuda.set_device(device)

    # Every rank creates every group in the same order, as torch.distributed requires.
    pipeline_groups = [dist.new_group([STAGE_FIRST_RANK[q] + j for q in range(len(STAGE_LAYERS))])
                       for j in range(DATA_SHARDS)]
    data_groups = [dist.new_group([STAGE_FIRST_RANK[q] + j for j in range(DATA_SHARDS)])
                   for q in range(len(STAGE_LAYERS))]

    module = StageModule(stage).to(device=device, dtype=DTYPE)
    if stage == 0:  # a stage's example input: token ids on the first, activations after
        example = torch.zeros(MICRO_BATCH, SEQ, dtype=torch.long, device=device)
    else:
        example = torch.zeros(MICRO_BATCH, SEQ, HIDDEN, dtype=DTYPE, device=device)
    # The stage's output (activations, logits on the last), given so that PipelineStage (as in 2.4)
    # runs no shape-inference forward on empty_like copies of the token ids.
    width = VOCAB if stage == len(STAGE_LAYERS) - 1 else HIDDEN
    output = torch.zeros(MICRO_BATCH, SEQ, width, dtype=DTYPE, device=device)
    pipeline_stage = PipelineStage(module, stage, len(STAGE_LAYERS), device, input_args=(example,),
                                   output_args=(output,), group=pipeline_groups[data_rank])
    scaling = {"scale_grads": False} if "scale_grads" in inspect.signature(Schedule1F1B).parameters else {}
    schedule = Schedule1F1B(pipeline_stage, n_microbatches=MICRO_BATCHES, loss_fn=loss_fn, **scaling)
    optimizer = torch.optim.AdamW(module.parameters(), lr=1e-4)

    for step in range(STEPS):
        tokens, labels = make_batch(step, data_rank, device)
        optimizer.zero_grad(set_to_none=True)
        last = stage == len(STAGE_LAYERS) - 1
        losses = []
        targets = {"target": labels, "losses": losses} if last else {}
        if stage == 0:  # the first stage feeds the tokens (and, in a one-stage plan, is also the last)
            schedule.step(tokens, **targets)
        else:
            schedule.step(**targets)
        if last and data_rank == 0:
            print(f"step {step}: loss {torch.stack(losses).float().sum().item():.4f}", flush=True)
        if DATA_SHARDS > 1:  # average the gradients of this stage's data shards
            for parameter in module.parameters():
                if parameter.grad is not None:
                    dist.all_reduce(parameter.grad, group=data_groups[stage])
                    parameter.grad /= DATA_SHARDS
        optimizer.step()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
)";

const char* torch_dtype(Precision p) {
  switch (p) {
    case Precision::fp16: return "torch.float16";
    case Precision::bf16: return "torch.bfloat16";
    case Precision::fp32: return "torch.float32";
  }
  return "torch.float32";
}

}  // namespace

TorchPipelineScript torch_pipeline_script(const Problem& problem, const GroupPlan& plan, const RankMap& map) {
  TorchPipelineScript out;
  out.cannot = engine_plan_faults(Engine::torch, problem, plan);
  if (!out.cannot.empty()) return out;
  const PlanShape shape = plan_shape(plan);
  out.expressible = true;

  const ModelConfig& m = problem.model;
  const int d = shape.data_parallel;
  std::vector<int> layers, first_rank;
  for (const GroupStage& s : plan) layers.push_back(s.layers), first_rank.push_back(0);
  for (const RankEntry& e : map.ranks)
    if (e.data_rank == 0 && e.tensor_rank == 0) first_rank[e.stage] = e.rank;
  const std::int64_t heads = assumed_attention_heads(m.hidden_size, 1);

  std::string settings = "# The plan (from GeoTrain, problem " + python_string(problem.name) + ")\n";
  settings += "STAGE_LAYERS = " + python_int_list(layers) + "  # decoder layers per stage, first stage first\n";
  settings += "STAGE_FIRST_RANK = " + python_int_list(first_rank) + "\n";
  settings += "DATA_SHARDS = " + std::to_string(d) + "  # parallel pipelines; each takes micro_batch / shards\n";
  settings += "MICRO_BATCHES = " + std::to_string(m.micro_batches()) + "  # global batch / micro-batch\n";
  settings += "MICRO_BATCH = " + std::to_string(m.micro_batch_size / d) + "  # samples per micro-batch per pipeline\n";
  settings += "HIDDEN, HEADS, SEQ, VOCAB = " + std::to_string(m.hidden_size) + ", " + std::to_string(heads) + ", " +
              std::to_string(m.seq_length) + ", " + std::to_string(m.vocab_size) + "  # HEADS assumed\n";
  settings += std::string("DTYPE = ") + torch_dtype(m.precision) + "\n";
  settings += "STEPS = 10\n";
  settings += rank_table(problem, map);
  out.script = std::string(kHeader) + settings + kBody;
  return out;
}

}  // namespace geotrain
