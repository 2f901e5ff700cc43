#pragma once
// Megatron-Core arguments that reproduce a plan: the parallel degrees, the
// plan's non-uniform layer split as --pipeline-model-parallel-layout, the
// model and batch figures, the run's length (--train-iters, from
// training.iterations) and a stated placeholder learning rate and stand-in
// data, so that pretrain_gpt.py starts. Megatron-Core has one tensor degree
// and one data degree for the whole pipeline; a plan whose stages differ in
// either is refused with the reason (engine_space.hpp's rules), and the
// nearest uniform plan is named instead.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "launch/plan_shape.hpp"
#include "model/group_plan.hpp"
#include "model/problem.hpp"

namespace geotrain {

// --train-iters when the problem file has no training.iterations (stated as a
// placeholder in the notes).
constexpr std::int64_t kPlaceholderTrainIters = 1000;
constexpr double kPlaceholderLearningRate = 1e-4;

struct MegatronArguments {
  bool expressible = false;
  std::vector<std::pair<std::string, std::string>> arguments;  // {"--num-layers", "12"}; value empty for a switch
  std::vector<std::string> cannot;   // "cannot express because ..." when not expressible
  std::vector<std::string> notes;    // what the arguments assume
};

// The problem file has no attention head count, which Megatron needs: a head
// size of 128 (else 64) is the common choice, with a count t divides.
std::int64_t assumed_attention_heads(std::int64_t hidden_size, int tensor_parallel);

MegatronArguments megatron_arguments(const Problem& problem, const GroupPlan& plan);

// Megatron-Core's custom layout for the plan: stages split by `|`, `E` the
// embedding (first stage), `t*N` N decoder layers, `L` the loss (last stage),
// e.g. "Et*4|t*8,L" for a 4 + 8 split.
std::string pipeline_layout(const GroupPlan& plan);

// Decoder layers per stage of a layout string, reading what Megatron-Core
// reads: `|` between stages, `t` a decoder layer, `x*N` and `(...)*N`
// repetition, `E` and `L` once each (first and last), commas ignored.
// Throws InputError on anything else. The tests read pipeline_layout's
// output back with it.
std::vector<int> layout_decoder_layers(const std::string& layout);

// Arguments as one shell word list: "--tensor-model-parallel-size 2 \\\n  --...".
std::string render_arguments(const MegatronArguments& megatron);

}  // namespace geotrain
