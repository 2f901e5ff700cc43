#pragma once
// One torchrun command per launch group of a rank map (rank_map.hpp), run on
// that group's machine. torchrun's static rendezvous (--master-addr on the
// first group's host, --node-rank = the group's index) numbers ranks group by
// group, so with CUDA_VISIBLE_DEVICES listing the group's devices in
// LOCAL_RANK order, process LOCAL_RANK k of group g is global rank
// first_rank(g) + k on device devices[k]: the GPU the plan chose.
#include <string>
#include <vector>

#include "launch/rank_map.hpp"

namespace geotrain {

constexpr int kRendezvousPort = 29500;

struct TorchrunLine {
  int node_rank = 0;
  std::string node;
  std::string host;
  int first_rank = 0;
  int last_rank = 0;
  std::string command;  // CUDA_VISIBLE_DEVICES=... torchrun ... PROGRAM
};

// A word the shell passes through unchanged: as is when plain, else single-quoted.
std::string shell_word(const std::string& text);

// `program` is what torchrun starts, e.g. "pretrain_gpt.py $MEGATRON_ARGS".
std::vector<TorchrunLine> torchrun_lines(const RankMap& map, const std::string& program);

}  // namespace geotrain
