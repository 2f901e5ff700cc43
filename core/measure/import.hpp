#pragma once
// `geotrain import`: tool outputs merged into a problem, all or nothing.
//
// Every file is read first; one that is not what it claims stops the import
// with a message naming it and its line, and nothing is changed. Then, in
// this order whatever the order of the files: GPU lists (nvidia-smi CSV),
// then node links (nvidia-smi topo -m, all_reduce_perf), then pairs (iperf3,
// ping), so that a pair file may name a host a CSV of the same import brings
// in. The merged problem must pass the planner's own validation, or the
// import is refused with its messages.
#include <string>
#include <vector>

#include "measure/problem_document.hpp"
#include "measure/tool_text.hpp"

namespace geotrain::measure {

struct ImportOptions {
  std::string host;  // every file's host; empty: each file's stem
  std::string site;  // the site of the GPUs a CSV brings; empty: as they are (new ones: none)
};

struct FileReport {
  std::string name, format, summary;
};

struct ImportResult {
  Document problem;
  std::vector<Change> changes;
  std::vector<std::string> warnings;
  std::vector<FileReport> files;
};

// `problem_text` may be any JSON object (a file with the model alone, say);
// empty, it starts a new problem: a placeholder model and network.default
// (both said so in the warnings) around the GPUs brought in.
// Throws InputError with every file's fault, or the merged problem's.
ImportResult import_measurements(const std::string& problem_text, const std::vector<MeasuredFile>& files,
                                 const ImportOptions& options);

}  // namespace geotrain::measure
