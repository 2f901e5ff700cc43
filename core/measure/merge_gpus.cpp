#include "measure/merge_gpus.hpp"

#include <set>

#include "measure/gpu_names.hpp"
#include "model/json_fields.hpp"

namespace geotrain::measure {

namespace {

constexpr double kIdleShareOfPower = 0.15;  // the paper's rule for idle power (Sect. 6.7)

std::string fresh_id(const PoolIndex& pool, const std::string& wanted) {
  if (!pool.gpu(wanted)) return wanted;
  for (int n = 2;; ++n)
    if (!pool.gpu(wanted + "-" + std::to_string(n))) return wanted + "-" + std::to_string(n);
}

// A GPU of the host for CSV index k: by device, else by the id import gives it.
const PoolGpu* matching(const PoolIndex& pool, const std::vector<std::size_t>& on_host, const std::string& host,
                        int index) {
  for (std::size_t i : on_host)
    if (pool.gpus[i].device == index) return &pool.gpus[i];
  const PoolGpu* by_id = pool.gpu(host + "-g" + std::to_string(index));
  return by_id && by_id->device < 0 ? by_id : nullptr;
}

// compute_util of a GPU of the same type, and which.
std::optional<std::pair<double, std::string>> util_of_type(const Document& doc, const PoolIndex& pool,
                                                           const std::string& type) {
  for (const PoolGpu& g : pool.gpus) {
    const Document& o = doc["gpus"][g.index];
    if (g.type == type && o.contains("compute_util") && o["compute_util"].is_number())
      return std::pair{o["compute_util"].get<double>(), g.id};
  }
  return std::nullopt;
}

struct RowFigures {
  std::string type;  // catalogue name, or the driver's when the catalogue lacks it
  bool in_catalogue;
  std::string memory_source, power_source;
};

RowFigures figures_of(const GpuImport& from, const SmiGpu& row) {
  RowFigures f;
  f.type = catalogue_type_of(row.name);
  f.in_catalogue = !f.type.empty();
  if (!f.in_catalogue) f.type = row.name;
  f.memory_source = imported(from.file, row.line, "nvidia-smi memory.total " + number_text(row.memory_mib) + " MiB");
  if (row.power_limit_w)
    f.power_source = imported(from.file, row.line, "nvidia-smi power.limit " + number_text(*row.power_limit_w) + " W");
  return f;
}

const std::string kIdleRule = "assumed: 15% of power.limit, the paper's rule (Sect. 6.7)";

// `before`: the pool as the file found it, so that a GPU this file retyped lends no utilisation.
void add_gpu(Document& doc, const PoolIndex& before, const GpuImport& from, const SmiGpu& row, ChangeLog& log,
             std::vector<std::string>& warnings) {
  const PoolIndex pool = PoolIndex::of(doc);
  const RowFigures f = figures_of(from, row);
  Document g = {{"id", fresh_id(pool, from.host + "-g" + std::to_string(row.index))}, {"type", f.type}};
  if (!from.site.empty()) g["site"] = from.site;
  g["node"] = from.host, g["host"] = from.host, g["device"] = row.index;
  Document sources = Document::object();
  if (auto util = util_of_type(doc, before, f.type)) {
    g["compute_util"] = util->first;
    sources["compute_util"] = "assumed: as " + util->second + ", a GPU of the same type";
  }
  g["memory_gib"] = row.memory_mib / 1024.0;
  sources["memory_gib"] = f.memory_source;
  if (row.power_limit_w) {
    g["active_w"] = *row.power_limit_w;
    sources["active_w"] = f.power_source;
    if (!f.in_catalogue) g["idle_w"] = kIdleShareOfPower * *row.power_limit_w, sources["idle_w"] = kIdleRule;
  }
  g["sources"] = sources;
  if (!f.in_catalogue)
    warnings.push_back(from.file + " line " + std::to_string(row.line) + ": " + row.name +
                       " is not in the GPU catalogue: give " + g["id"].get<std::string>() + " its peak_tflops");
  log.append(doc["gpus"], "gpus", std::move(g));
}

void update_gpu(Document& doc, const PoolGpu& found, const GpuImport& from, const SmiGpu& row, ChangeLog& log,
                std::vector<std::string>& warnings) {
  const RowFigures f = figures_of(from, row);
  Document& g = doc["gpus"][found.index];
  const std::string path = index_path("gpus", found.index);
  if (found.type != f.type) {
    // The old type's figures written into the file would now win over the new type's catalogue ones.
    if (!found.type.empty())
      for (const char* key : {"peak_tflops", "idle_w"}) log.erase(g, path, key);
    else if (g.contains("peak_tflops"))
      warnings.push_back(path + " (" + found.id + ") keeps its own peak_tflops; nvidia-smi calls it " + row.name);
    log.set(g, path, "type", f.type);
  }
  if (!from.site.empty()) log.set(g, path, "site", from.site);
  if (!g.contains("node")) log.set(g, path, "node", from.host);
  log.set(g, path, "host", from.host);
  log.set(g, path, "device", row.index);
  log.set(g, path, "memory_gib", row.memory_mib / 1024.0, f.memory_source);
  if (row.power_limit_w) {
    log.set(g, path, "active_w", *row.power_limit_w, f.power_source);
    if (!f.in_catalogue && !g.contains("idle_w")) log.set(g, path, "idle_w", kIdleShareOfPower * *row.power_limit_w, kIdleRule);
  }
}

}  // namespace

void merge_gpu_inventory(Document& doc, const GpuImport& from, const std::vector<SmiGpu>& rows, ChangeLog& log,
                         std::vector<std::string>& warnings) {
  if (!doc.contains("gpus") || !doc["gpus"].is_array()) doc["gpus"] = Document::array();
  const PoolIndex before = PoolIndex::of(doc);
  const std::vector<std::size_t> on_host = before.on_host(from.host);
  std::set<std::size_t> listed;
  for (const SmiGpu& row : rows) {
    const PoolIndex pool = PoolIndex::of(doc);
    if (const PoolGpu* found = matching(pool, on_host, from.host, row.index)) {
      listed.insert(found->index);
      update_gpu(doc, *found, from, row, log, warnings);
    } else {
      add_gpu(doc, before, from, row, log, warnings);
    }
  }
  for (std::size_t i : on_host)
    if (!listed.count(i))
      warnings.push_back(from.file + ": " + index_path("gpus", i) + " (" + before.gpus[i].id + ") is on host " + from.host +
                         " but not in the file; kept");
}

}  // namespace geotrain::measure
