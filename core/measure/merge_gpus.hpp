#pragma once
// One host's nvidia-smi --query-gpu CSV into the problem's GPU list.
//
// The host's GPUs are those whose `host` (or, without one, `node`) names it;
// the CSV's index k is the GPU with `device` k, or else the one with id
// HOST-gK. A GPU found is updated, a new one appended with id HOST-gK,
// node and host HOST, device K. For each: `type` becomes the catalogue's
// name for the card (gpu_names.hpp; the driver's own name when the catalogue
// lacks it), `memory_gib` memory.total / 1024, `active_w` power.limit. When
// the type changes, figures the file wrote for the old type (peak_tflops,
// idle_w) are removed so that the catalogue gives the new type's. A card the
// catalogue lacks gets idle_w = 15% of power.limit, the paper's rule
// (Sect. 6.7), marked "assumed". A new GPU takes compute_util from a GPU of
// the same type already in the problem, if there is one. GPUs of the host
// the CSV does not list are kept, with a warning.
#include <string>
#include <vector>

#include "measure/nvidia_smi_csv.hpp"
#include "measure/problem_document.hpp"

namespace geotrain::measure {

struct GpuImport {
  std::string file;   // for sources
  std::string host;   // --host or the file's stem
  std::string site;   // --site; empty: keep (new GPUs: no site)
};

void merge_gpu_inventory(Document& doc, const GpuImport& from, const std::vector<SmiGpu>& rows, ChangeLog& log,
                         std::vector<std::string>& warnings);

}  // namespace geotrain::measure
