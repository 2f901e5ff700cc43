#include "launch/rank_map.hpp"

#include <map>
#include <set>

#include "model/input_error.hpp"

namespace geotrain {

namespace {

std::string gpu_path(int index, const char* field) { return "gpus[" + std::to_string(index) + "]." + field; }

// The address of each node: the one its GPUs name (they must agree), else
// the node's own name, which the bundle then says it assumed.
std::map<std::string, std::string> node_hosts(const Problem& problem, std::vector<std::string>& errors) {
  std::map<std::string, std::string> host;
  std::map<std::string, int> named_by;
  for (int i = 0; i < static_cast<int>(problem.gpus.size()); ++i) {
    const Gpu& g = problem.gpus[i];
    if (g.host.empty()) continue;
    auto [it, inserted] = named_by.emplace(g.node_name(), i);
    if (inserted) host[g.node_name()] = g.host;
    else if (host[g.node_name()] != g.host)
      errors.push_back(gpu_path(i, "host") + ": node \"" + g.node_name() + "\" is host \"" + host[g.node_name()] +
                       "\" (" + gpu_path(it->second, "host") + "); one node is one machine, got \"" + g.host + "\"");
  }
  return host;
}

// Local CUDA index of every GPU: the file's `device`, else the GPU's position
// among its node's GPUs in file order. Two GPUs of a node on one index is an error.
std::vector<int> local_devices(const Problem& problem, std::vector<std::string>& errors) {
  const int n = static_cast<int>(problem.gpus.size());
  std::vector<int> device(n, 0);
  std::map<std::string, int> position;
  std::map<std::pair<std::string, int>, int> owner;
  for (int i = 0; i < n; ++i) {
    const Gpu& g = problem.gpus[i];
    const int in_file_order = position[g.node_name()]++;
    device[i] = g.device >= 0 ? g.device : in_file_order;
    auto [it, inserted] = owner.emplace(std::make_pair(g.node_name(), device[i]), i);
    if (!inserted)
      errors.push_back(gpu_path(i, "device") + ": node \"" + g.node_name() + "\" already has device " +
                       std::to_string(device[i]) + " (" + problem.gpus[it->second].id + ")" +
                       (g.device >= 0 && problem.gpus[it->second].device >= 0
                            ? ""
                            : "; without `device` a GPU's index is its position in its node in file order, so give "
                              "every GPU of this node a device"));
  }
  return device;
}

void add_assumptions(const Problem& problem, const std::map<std::string, std::string>& hosts, const RankMap& map,
                     std::vector<std::string>& out) {
  std::vector<std::string> no_device, no_host, own_node;
  std::set<std::string> nodes_without_host;
  for (const RankEntry& e : map.ranks) {
    const Gpu& g = problem.gpus[e.gpu];
    if (g.device < 0) no_device.push_back(g.id);
    if (g.node.empty()) own_node.push_back(g.id);
    if (!hosts.count(e.node)) nodes_without_host.insert(e.node);
  }
  auto list = [](const auto& ids) {
    std::string text;
    for (const auto& id : ids) text += (text.empty() ? "" : ", ") + id;
    return text;
  };
  if (!own_node.empty())
    out.push_back("No gpus[].node for " + list(own_node) + ": each is assumed to be a machine of its own.");
  if (!no_device.empty())
    out.push_back("No gpus[].device for " + list(no_device) +
                  ": each GPU's CUDA index is assumed to be its position among its node's GPUs in file order.");
  if (!nodes_without_host.empty())
    out.push_back("No gpus[].host for node(s) " + list(nodes_without_host) +
                  ": the launch lines use the node name as its address; replace it with the machine's address.");
}

}  // namespace

RankMap build_rank_map(const Problem& problem, const GroupPlan& plan) {
  std::vector<std::string> errors;
  const auto hosts = node_hosts(problem, errors);
  const auto devices = local_devices(problem, errors);
  if (!errors.empty()) throw InputError(errors);

  RankMap map;
  for (int q = 0; q < static_cast<int>(plan.size()); ++q) {
    const GroupStage& stage = plan[q];
    for (int position = 0; position < stage.size(); ++position) {
      const int gpu = stage.gpus[position];
      const Gpu& g = problem.gpus[gpu];
      RankEntry e;
      e.rank = map.world_size();
      e.gpu = gpu;
      e.stage = q;
      e.tensor_rank = position % stage.tensor_parallel;
      e.data_rank = position / stage.tensor_parallel;
      e.node = g.node_name();
      e.site = g.site;
      auto host = hosts.find(e.node);
      e.host = host == hosts.end() ? e.node : host->second;
      e.device = devices[gpu];
      // A new torchrun agent whenever the node changes from the previous rank.
      if (map.launch_groups.empty() || map.launch_groups.back().node != e.node)
        map.launch_groups.push_back(LaunchGroup{e.node, e.host, e.rank, {}});
      LaunchGroup& group = map.launch_groups.back();
      e.launch_group = static_cast<int>(map.launch_groups.size()) - 1;
      e.local_rank = static_cast<int>(group.devices.size());
      group.devices.push_back(e.device);
      map.ranks.push_back(e);
    }
  }
  add_assumptions(problem, hosts, map, map.assumptions);
  return map;
}

}  // namespace geotrain
