#pragma once
// Measured link figures into the problem's network, at the level they
// describe and no wider: a figure for one host never changes another's links.
//
// Figures are gathered per ordered GPU pair (nvidia-smi topo, all_reduce_perf;
// a later file's figure for a pair wins, all_reduce_perf's over topo's) or
// per site pair (iperf3 and ping between sites). Then:
//  - when every pair of GPUs sharing a node has a figure, the figure most of
//    them have becomes network.intra_node;
//  - when every pair of GPUs on different nodes of site S has one
//    (all_reduce_perf over all of S's nodes), the most common becomes
//    network.site_links S -> S;
//  - every other pair figure is a network.links entry (which wins over both);
//  - site pairs update (or add) their network.site_links entry.
// An entry that exists is updated; a new one takes the figure it lacks (a
// pair measured for bandwidth only, say) from the link the pair uses today,
// marked "assumed: as network.inter_site"; with none, the import is refused.
// A measured bandwidth is what was achieved, so an updated entry's util
// becomes 1.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "measure/problem_document.hpp"

namespace geotrain::measure {

struct Measured {
  double value = 0;
  std::string source;  // "imported: ..." or "assumed: ..."
  std::string file;    // named in refusals
};

struct LinkFigure {
  std::optional<Measured> bandwidth_gbps, latency_ms;
  std::optional<Measured> latency_if_new;  // iperf3's round trip: only for an entry that has no latency yet
};

class LinkFigures {
 public:
  // Between two GPUs (indices into gpus[]); each figure replaces the pair's earlier one.
  void gpu_pair(std::size_t from, std::size_t to, const LinkFigure& figure);
  // Between two sites, in one direction.
  void site_pair(const std::string& from, const std::string& to, const LinkFigure& figure,
                 std::vector<std::string>& warnings);

  // Writes everything into `doc`; throws InputError naming the file of a new
  // entry that lacks a figure and has no link to take it from.
  void apply(Document& doc, ChangeLog& log) const;

 private:
  std::map<std::pair<std::size_t, std::size_t>, LinkFigure> gpu_pairs_;
  std::map<std::pair<std::string, std::string>, LinkFigure> site_pairs_;
};

}  // namespace geotrain::measure
