#pragma once
// The problem document an import or a calibration edits: the user's own JSON
// (their key order, their omissions), changed field by field, each change
// logged with where its figure came from (model/figure_sources.hpp) so that
// a person can preview it before it is applied.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/network.hpp"

namespace geotrain::measure {

using Document = nlohmann::ordered_json;

struct Change {
  std::string path;    // "gpus[3].memory_gib", "network.site_links[2]"
  std::string what;    // "added", "changed", "removed"
  Document before, after;  // null when absent
  std::string source;  // the figure's source, when it has one
};

class ChangeLog {
 public:
  // object[key] = value, and object.sources[key] = source (none when source is empty).
  void set(Document& object, const std::string& path, const std::string& key, Document value,
           const std::string& source = "");
  // Removes object[key] and its source.
  void erase(Document& object, const std::string& path, const std::string& key);
  // A whole new object appended to `list`.
  void append(Document& list, const std::string& list_path, Document value);
  const std::vector<Change>& changes() const { return changes_; }
  std::vector<Change>& changes() { return changes_; }

 private:
  std::vector<Change> changes_;
};

// A GPU of the document, as far as naming goes.
struct PoolGpu {
  std::size_t index = 0;  // into gpus[]
  std::string id, type, host, node, site;
  int device = -1;
  std::string node_name() const { return node.empty() ? id : node; }
};

struct PoolIndex {
  std::vector<PoolGpu> gpus;  // gpus[k] is the document's gpus[k]

  static PoolIndex of(const Document& doc);
  // The GPUs of host `name`: those whose host is `name`, or whose node is
  // (a node is usually named after its machine).
  std::vector<std::size_t> on_host(const std::string& name) const;
  std::vector<std::size_t> on_node(const std::string& node) const;
  std::vector<std::size_t> on_site(const std::string& site) const;
  const PoolGpu* gpu(const std::string& id) const;
  bool has_site(const std::string& site) const;
};

// The network as the model reads it, taken leniently from the document
// (entries that are not well formed are skipped), to ask model/network.hpp
// which link a pair uses today.
NetworkSpec network_of(const Document& doc);

// The link GPU `from` to GPU `to` resolves to now (its declaration and where
// that is: "network.intra_site", ...); empty when none.
struct CurrentLink {
  LinkSpec link;
  std::string declared_at;
};
std::optional<CurrentLink> current_link(const NetworkSpec& network, const PoolGpu& from, const PoolGpu& to);
// The same for two sites, as any two GPUs of theirs on different nodes see it.
std::optional<CurrentLink> current_site_link(const NetworkSpec& network, const std::string& from_site,
                                             const std::string& to_site);

// "imported: node1.csv line 3 (nvidia-smi memory.total 81920 MiB)".
std::string imported(const std::string& file, std::size_t line, const std::string& detail);

// A number for sources and messages: integers whole ("8589934592"), others to 6 digits ("0.739891").
std::string number_text(double value);

// `value` rounded to `digits` significant digits: a figure derived from
// measurements printed to 4 or 5 digits claims no more.
double significant(double value, int digits = 6);

}  // namespace geotrain::measure
