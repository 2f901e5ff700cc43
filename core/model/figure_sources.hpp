#pragma once
// Where a figure of a problem came from (issue 26): each GPU and each link
// declaration may carry `"sources": {"memory_gib": "imported: node1.csv line 2
// (nvidia-smi)", "compute_util": "calibrated: 1 run, fit within 0.0%"}`. A
// source is text that starts with its kind:
//   typed       written by a person (a figure without a source is taken as typed)
//   catalogue   the built-in GPU catalogue's figure
//   imported    read from a tool's output (`geotrain import`)
//   calibrated  fitted to measured runs (`geotrain calibrate`)
//   assumed     a documented rule stood in for a measurement
// optionally followed by ": " and a detail. Sources are notes for people: the
// model never reads them, so a problem's figures and plans are the same with
// or without them.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace geotrain {

struct Problem;
class FieldReader;

using FigureSources = std::map<std::string, std::string>;  // figure key -> "kind[: detail]"

constexpr std::size_t kMaxSourceChars = 500;  // one line of provenance, not a document

// The figures of a GPU and of a link that may carry a source.
const std::vector<std::string>& gpu_figure_keys();
const std::vector<std::string>& link_figure_keys();

// "imported" for "imported: a.csv line 2"; empty when the text starts with no known kind.
std::string source_kind(const std::string& source);

// Takes the `sources` objects out of a problem document: checked (errors and
// warnings on `r`, each naming its field) and returned, with the document
// left as if they were never there, so the rest of the parser needs not know
// of them. The document is copied only when it has some.
struct TakenSources {
  std::optional<nlohmann::json> stripped;  // the document without them; empty when it had none
  std::vector<FigureSources> gpus;                   // by index into gpus[]
  std::map<std::string, FigureSources> levels;       // "default", "intra_node", "intra_site", "inter_site"
  std::vector<FigureSources> site_links, links;      // by index into network.site_links[] / links[]

  const nlohmann::json& document_or(const nlohmann::json& original) const { return stripped ? *stripped : original; }
};
TakenSources take_figure_sources(const nlohmann::json& document, FieldReader& r);

// Puts them on the parsed problem (whose lists follow the document's order).
void attach_figure_sources(TakenSources&& taken, Problem& problem);

// Writes every source of `problem` back into its problem_to_json document.
void write_figure_sources(const Problem& problem, nlohmann::json& document);

}  // namespace geotrain
