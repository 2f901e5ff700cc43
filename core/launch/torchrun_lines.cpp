#include "launch/torchrun_lines.hpp"

#include <cctype>

namespace geotrain {

std::string shell_word(const std::string& text) {
  bool plain = !text.empty();
  for (unsigned char c : text)
    if (!std::isalnum(c) && c != '.' && c != '_' && c != '-' && c != ':') plain = false;
  if (plain) return text;
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::vector<TorchrunLine> torchrun_lines(const RankMap& map, const std::string& program) {
  std::vector<TorchrunLine> lines;
  if (map.launch_groups.empty()) return lines;
  const std::string& rendezvous_host = map.launch_groups.front().host;
  const int groups = static_cast<int>(map.launch_groups.size());
  for (int g = 0; g < groups; ++g) {
    const LaunchGroup& group = map.launch_groups[g];
    std::string devices;
    for (int d : group.devices) devices += (devices.empty() ? "" : ",") + std::to_string(d);
    const int count = static_cast<int>(group.devices.size());
    TorchrunLine line{g, group.node, group.host, group.first_rank, group.first_rank + count - 1, ""};
    line.command = "CUDA_VISIBLE_DEVICES=" + devices + " torchrun --nnodes=" + std::to_string(groups) +
                   " --node-rank=" + std::to_string(g) + " --nproc-per-node=" + std::to_string(count) +
                   " --master-addr=" + shell_word(rendezvous_host) + " --master-port=" + std::to_string(kRendezvousPort) + " " +
                   program;
    lines.push_back(line);
  }
  return lines;
}

}  // namespace geotrain
