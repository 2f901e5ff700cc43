#include "search/memetic/chromosome.hpp"

#include <algorithm>

namespace geotrain {

int stage_boundaries(const int* genes, int num_layers, int* out) {
  int count = 0;
  for (int b = 1; b < num_layers; ++b)
    if (genes[b] != genes[b - 1]) out[count++] = b;
  return count;
}

int stage_count(const int* genes, int num_layers) {
  int count = num_layers > 0 ? 1 : 0;
  for (int b = 1; b < num_layers; ++b) count += genes[b] != genes[b - 1];
  return count;
}

Plan decode_genes(const int* genes, int num_layers) {
  Plan plan;
  for (int l = 0; l < num_layers; ++l) {
    if (l == 0 || genes[l] != genes[l - 1]) plan.push_back(Stage{genes[l], 0});
    ++plan.back().layers;
  }
  return plan;
}

std::vector<int> encode_plan(const Plan& plan) {
  std::vector<int> genes;
  for (const Stage& s : plan) genes.insert(genes.end(), static_cast<std::size_t>(s.layers), s.gpu);
  return genes;
}

const std::vector<Stage>& stages_of(Chromosome& c) {
  if (c.stages.empty() && !c.genes.empty()) c.stages = decode_genes(c.genes), forget_parent_view(c);
  return c.stages;
}

void index_stages(const Stage* stages, const int* starts, int count, int num_layers, int num_gpus,
                  std::uint64_t* cut_bits, std::uint64_t* gpu_bits, int* stage_of_gpu) {
  std::fill_n(cut_bits, cut_words(num_layers), std::uint64_t{0});
  std::fill_n(gpu_bits, gpu_words(num_gpus), std::uint64_t{0});
  for (int q = 0; q < count; ++q) {
    const int gpu = stages[q].gpu;
    gpu_bits[gpu / kWordBits] |= std::uint64_t{1} << (gpu % kWordBits);
    stage_of_gpu[gpu] = q;
    if (q > 0) cut_bits[starts[q] / kWordBits] |= std::uint64_t{1} << (starts[q] % kWordBits);
  }
}

const std::vector<StageSums>& sums_of(Chromosome& c, const CostModel& model) {
  const std::vector<Stage>& stages = stages_of(c);
  if (c.sums.size() != stages.size()) {
    const int count = static_cast<int>(stages.size());
    c.sums.resize(stages.size());
    stage_sums(model, stages.data(), count, c.sums.data());
    c.starts.resize(stages.size() + 1);
    c.starts[0] = 0;
    for (int q = 0; q < count; ++q) c.starts[q + 1] = c.starts[q] + stages[q].layers;
    c.cut_bits.resize(static_cast<std::size_t>(cut_words(model.num_layers())));
    c.gpu_bits.resize(static_cast<std::size_t>(gpu_words(model.num_gpus())));
    c.stage_of_gpu.resize(static_cast<std::size_t>(model.num_gpus()));
    index_stages(stages.data(), c.starts.data(), count, model.num_layers(), model.num_gpus(), c.cut_bits.data(),
                 c.gpu_bits.data(), c.stage_of_gpu.data());
  }
  return c.sums;
}

void write_genes(Chromosome& c) {
  int layers = 0;
  for (const Stage& s : c.stages) layers += s.layers;
  c.genes.resize(static_cast<std::size_t>(layers));
  int* genes = c.genes.data();
  for (const Stage& s : c.stages) genes = std::fill_n(genes, s.layers, s.gpu);
  c.genes_stale = false;
}

void assign_stages(Chromosome& c, const Stage* stages, int count) {
  c.stages.assign(stages, stages + count);
  forget_parent_view(c);
  write_genes(c);
}

void replace_stages(Chromosome& c, const Stage* stages, int count) {
  forget_parent_view(c);
  if (c.genes_stale) return c.stages.assign(stages, stages + count);
  const Stage* old = c.stages.data();
  const int old_count = static_cast<int>(c.stages.size());
  auto same = [](const Stage& a, const Stage& b) { return a.gpu == b.gpu && a.layers == b.layers; };
  int front = 0, from = 0;  // equal leading stages, and the layers they hold
  while (front < count && front < old_count && same(stages[front], old[front])) from += stages[front++].layers;
  int back = count, old_back = old_count;  // equal trailing stages start at back (old_back before)
  while (back > front && old_back > front && same(stages[back - 1], old[old_back - 1])) --back, --old_back;
  int* genes = c.genes.data() + from;
  for (int q = front; q < back; ++q) genes = std::fill_n(genes, stages[q].layers, stages[q].gpu);
  c.stages.assign(stages, stages + count);
}

void ContiguityCheck::restart() {
  std::fill(stamp_.begin(), stamp_.end(), 0u);
  epoch_ = 1;
}

bool is_contiguous(const std::vector<int>& genes, int num_gpus) {
  for (int g : genes)
    if (g < 0 || g >= num_gpus) return false;
  ContiguityCheck check(num_gpus);
  return check(genes.data(), static_cast<int>(genes.size()));
}

bool is_valid(const CostModel& model, const std::vector<int>& genes) {
  if (static_cast<int>(genes.size()) != model.num_layers() || genes.empty()) return false;
  return is_contiguous(genes, model.num_gpus()) && model.evaluate_genes(genes.data()).feasible;
}

OperatorContext::OperatorContext(const CostModel& model) : model_(model), contiguity_(model.num_gpus()) {
  const std::size_t size = static_cast<std::size_t>(std::max(model.num_layers(), model.num_gpus()) + 1);
  for (std::vector<int>* buffer : {&scratch_.genes_a, &scratch_.genes_b, &scratch_.positions, &scratch_.stage_gpu,
                                   &scratch_.stage_layers, &scratch_.stage_capacity, &scratch_.gpus,
                                   &scratch_.starts_a, &scratch_.starts_b})
    buffer->assign(size, 0);
  for (std::vector<Stage>* buffer : {&scratch_.stages_a, &scratch_.stages_b, &scratch_.stages_child})
    buffer->assign(size, Stage{});
  for (std::vector<StageSums>* buffer : {&scratch_.sums_a, &scratch_.sums_b}) buffer->assign(size, StageSums{});
  scratch_.stage_time.assign(size, 0.0);
  scratch_.stage_fixed.assign(size, 0.0);
  const std::size_t gpus = static_cast<std::size_t>(model.num_gpus());
  scratch_.stage_of_gpu_a.assign(gpus, 0);
  scratch_.stage_of_gpu_b.assign(gpus, 0);
  for (std::vector<std::uint64_t>* buffer : {&scratch_.gpu_bits_a, &scratch_.gpu_bits_b})
    buffer->assign(static_cast<std::size_t>(gpu_words(model.num_gpus())), 0);
  for (std::vector<std::uint64_t>* buffer : {&scratch_.cut_words, &scratch_.bad_cut_words_1, &scratch_.bad_cut_words_2,
                                             &scratch_.cut_bits_a, &scratch_.cut_bits_b})
    buffer->assign(static_cast<std::size_t>(cut_words(model.num_layers())), 0);
  max_layers_rows_.resize(static_cast<std::size_t>(std::min(model.num_layers(), model.num_gpus()) + 1));
}

void OperatorContext::fill_max_layers_row(int stage_count) {
  std::vector<int>& row = max_layers_rows_[static_cast<std::size_t>(stage_count)];
  row.resize(static_cast<std::size_t>(2 * model_.num_gpus()));
  for (int g = 0; g < model_.num_gpus(); ++g) {
    row[static_cast<std::size_t>(2 * g)] = model_.max_layers(g, stage_count, false);
    row[static_cast<std::size_t>(2 * g + 1)] = model_.max_layers(g, stage_count, true);
  }
}

const std::vector<std::vector<int>>& OperatorContext::site_devices() {
  if (!site_devices_.empty() || model_.num_gpus() == 0) return site_devices_;
  site_devices_.resize(static_cast<std::size_t>(model_.num_sites()));
  for (int g = 0; g < model_.num_gpus(); ++g) site_devices_[static_cast<std::size_t>(model_.site_of(g))].push_back(g);
  for (std::vector<int>& devices : site_devices_)
    std::stable_sort(devices.begin(), devices.end(),
                     [&](int a, int b) { return model_.layer_compute_s(a) < model_.layer_compute_s(b); });
  return site_devices_;
}

}  // namespace geotrain
