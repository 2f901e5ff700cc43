#include "launch/megatron_args.hpp"

#include <cctype>

#include "model/input_error.hpp"
#include "search/space/engine_space.hpp"

namespace geotrain {

namespace {

// Single quotes: the layout's `*` and `|` must reach Megatron unexpanded by the shell.
std::string quoted(const std::string& text) { return "'" + text + "'"; }

// A number as Python and Megatron's argparse read it: 1e-4 as 0.0001.
std::string decimal(double value) {
  std::string text = std::to_string(value);
  while (text.size() > 1 && text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

}  // namespace

std::int64_t assumed_attention_heads(std::int64_t hidden_size, int tensor_parallel) {
  for (std::int64_t head_size : {128, 64}) {
    if (hidden_size % head_size == 0 && (hidden_size / head_size) % tensor_parallel == 0)
      return hidden_size / head_size;
  }
  return tensor_parallel;  // one head per tensor rank: always divides
}

std::string pipeline_layout(const GroupPlan& plan) {
  std::string layout;
  for (std::size_t q = 0; q < plan.size(); ++q) {
    if (q > 0) layout += "|";
    if (q == 0) layout += "E";
    layout += plan[q].layers == 1 ? "t" : "t*" + std::to_string(plan[q].layers);
    if (q + 1 == plan.size()) layout += ",L";
  }
  return layout;
}

std::vector<int> layout_decoder_layers(const std::string& layout) {
  // Unroll (...)*N and x*N first, as Megatron-Core does, then count.
  auto fail = [&](const std::string& why) { throw InputError("layout \"" + layout + "\": " + why); };
  std::string text;
  for (char c : layout)
    if (c != ',') text += c;
  auto repeat_count = [&](std::size_t& i) {
    std::size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (start == i || i - start > 6) fail("'*' must be followed by a count");
    return std::stoi(text.substr(start, i - start));
  };
  std::string flat;
  for (std::size_t i = 0; i < text.size();) {
    std::string unit;
    if (text[i] == '(') {
      std::size_t close = text.find(')', i);
      if (close == std::string::npos) fail("unclosed '('");
      unit = text.substr(i + 1, close - i - 1);
      i = close + 1;
      if (i >= text.size() || text[i] != '*') fail("'(...)' must be followed by '*N'");
    } else {
      unit = text.substr(i, 1);
      ++i;
    }
    int count = 1;
    if (i < text.size() && text[i] == '*') count = repeat_count(++i);
    for (int k = 0; k < count; ++k) flat += unit;
  }
  std::vector<int> layers(1, 0);
  int embeddings = 0, losses = 0;
  for (std::size_t i = 0; i < flat.size(); ++i) {
    const char c = flat[i];
    if (c == '|') layers.push_back(0);
    else if (c == 't') ++layers.back();
    else if (c == 'E') {
      if (i != 0) fail("E must come first");
      ++embeddings;
    } else if (c == 'L') {
      if (i + 1 != flat.size()) fail("L must come last");
      ++losses;
    } else fail(std::string("unknown symbol '") + c + "'");
  }
  if (embeddings != 1 || losses != 1) fail("needs one E and one L");
  return layers;
}

MegatronArguments megatron_arguments(const Problem& problem, const GroupPlan& plan) {
  MegatronArguments out;
  out.cannot = engine_plan_faults(Engine::megatron_core, problem, plan);
  if (!out.cannot.empty()) return out;
  const PlanShape shape = plan_shape(plan);
  out.expressible = true;
  const ModelConfig& m = problem.model;
  const int t = shape.tensor_parallel, d = shape.data_parallel, stages = static_cast<int>(plan.size());
  const std::int64_t heads = assumed_attention_heads(m.hidden_size, t);
  auto add = [&](const char* flag, const std::string& value) { out.arguments.emplace_back(flag, value); };
  add("--tensor-model-parallel-size", std::to_string(t));
  if (t > 1) add("--sequence-parallel", "");  // the cost model divides activations by t: sequence parallelism
  add("--pipeline-model-parallel-size", std::to_string(stages));
  if (stages > 1) add("--pipeline-model-parallel-layout", quoted(pipeline_layout(plan)));
  add("--num-layers", std::to_string(m.num_layers));
  add("--hidden-size", std::to_string(m.hidden_size));
  add("--num-attention-heads", std::to_string(heads));
  add("--seq-length", std::to_string(m.seq_length));
  add("--max-position-embeddings", std::to_string(m.seq_length));
  // Megatron's micro-batch is per data-parallel rank: each of the d shards takes u / d samples.
  add("--micro-batch-size", std::to_string(m.micro_batch_size / d));
  add("--global-batch-size", std::to_string(m.global_batch_size));
  if (m.precision == Precision::fp16) add("--fp16", "");
  if (m.precision == Precision::bf16) add("--bf16", "");
  // Megatron-Core refuses to train without a length and a learning rate.
  const std::int64_t iterations = problem.training.iterations.value_or(kPlaceholderTrainIters);
  add("--train-iters", std::to_string(iterations));
  add("--lr", decimal(kPlaceholderLearningRate));
  // Stand-in data of the plan's vocabulary, so that the plan can be timed as it is.
  add("--mock-data", "");
  add("--tokenizer-type", "NullTokenizer");
  add("--vocab-size", std::to_string(m.vocab_size));
  out.notes.push_back("Data-parallel size " + std::to_string(d) + " is WORLD_SIZE / (tensor * pipeline) = " +
                      std::to_string(gpu_count(plan)) + " / (" + std::to_string(t) + " * " + std::to_string(stages) +
                      "): Megatron-Core takes it from the torchrun lines, not from an argument.");
  out.notes.push_back("--num-attention-heads " + std::to_string(heads) +
                      " is assumed (the problem file has no head count); use your model's" +
                      (t > 1 ? ", divisible by " + std::to_string(t) : std::string()) + ".");
  out.notes.push_back("The plan assumed a vocabulary of " + std::to_string(m.vocab_size) +
                      " tokens; Megatron-Core takes it from your tokenizer and pads it "
                      "(--make-vocab-size-divisible-by), which changes the last stage's load slightly.");
  out.notes.push_back(problem.training.iterations
                          ? "--train-iters " + std::to_string(iterations) + " is the problem's training.iterations."
                          : "--train-iters " + std::to_string(iterations) +
                                " is a placeholder: the problem file has no training.iterations; set your run's "
                                "length.");
  out.notes.push_back("--lr " + decimal(kPlaceholderLearningRate) +
                      " is a placeholder (the plan does not depend on it): use your schedule's learning rate, "
                      "warm-up and decay.");
  out.notes.push_back("--mock-data with --tokenizer-type NullTokenizer trains on random tokens so that the plan runs "
                      "as it is: replace them with your --data-path and tokenizer.");
  return out;
}

std::string render_arguments(const MegatronArguments& megatron) {
  std::string text;
  for (std::size_t k = 0; k < megatron.arguments.size(); ++k) {
    const auto& [flag, value] = megatron.arguments[k];
    text += (k == 0 ? "" : " \\\n  ") + flag + (value.empty() ? "" : " " + value);
  }
  return text;
}

}  // namespace geotrain
