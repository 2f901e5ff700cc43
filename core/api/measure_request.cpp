#include "api/measure_request.hpp"

#include "model/input_error.hpp"
#include "model/json_fields.hpp"
#include "model/json_text.hpp"
#include "model/message_list.hpp"

namespace geotrain {

using json = nlohmann::ordered_json;

namespace {

json changes_json(const std::vector<measure::Change>& changes) {
  json list = json::array();
  for (const auto& c : changes) {
    json item = {{"path", c.path}, {"what", c.what}, {"before", c.before}, {"after", c.after}};
    if (!c.source.empty()) item["source"] = c.source;
    list.push_back(item);
  }
  return list;
}

void add_warnings(json& out, const std::vector<std::string>& warnings) {
  out["warnings"] = cap_messages(warnings);
}

const nlohmann::json& list_at(const nlohmann::json& doc, const char* what) {
  if (!doc.is_array()) throw InputError(std::string(what) + ": must be a list, got " + FieldReader::describe(doc));
  return doc;
}

}  // namespace

json import_request(const std::string& problem_text, const std::vector<measure::MeasuredFile>& files,
                    const measure::ImportOptions& options) {
  measure::ImportResult r = measure::import_measurements(problem_text, files, options);
  json reports = json::array();
  for (const auto& f : r.files) reports.push_back({{"name", f.name}, {"format", f.format}, {"summary", f.summary}});
  json out = {{"problem", std::move(r.problem)}, {"changes", changes_json(r.changes)}, {"files", reports}};
  add_warnings(out, r.warnings);
  return out;
}

json import_request_json(const std::string& problem_text, const std::string& files_json,
                         const std::string& options_json) {
  FieldReader reader;
  std::vector<measure::MeasuredFile> files;
  const nlohmann::json list = parse_json_document(files_json, "files");
  for (std::size_t i = 0; i < list_at(list, "files").size(); ++i) {
    const std::string p = index_path("files", i);
    if (!reader.open_object(list[i], p, {"name", "text"})) continue;
    auto name = reader.string(list[i], p, "name", true);
    auto text = reader.string(list[i], p, "text", true);
    if (name && text) files.push_back({*name, *text});
  }
  measure::ImportOptions options;
  if (!options_json.empty()) {
    const nlohmann::json o = parse_json_document(options_json, "options");
    if (reader.open_object(o, "options", {"host", "site"})) {
      options.host = reader.string(o, "options", "host", false).value_or("");
      options.site = reader.string(o, "options", "site", false).value_or("");
    }
  }
  if (!reader.errors().empty()) throw InputError(reader.errors());
  return import_request(problem_text, files, options);
}

json calibrate_request(const std::string& problem_text, const std::vector<measure::MeasuredRun>& runs) {
  measure::Calibration c = measure::calibrate(problem_text, runs);
  json types = json::array(), fitted_runs = json::array();
  for (const auto& t : c.types)
    types.push_back({{"type", t.type},
                     {"gpus", t.gpus},
                     {"compute_util_before", {t.before_min, t.before_max}},
                     {"compute_util", t.after},
                     {"bound", t.bound.empty() ? json(nullptr) : json(t.bound)}});
  for (const auto& r : c.runs)
    fitted_runs.push_back({{"name", r.name},
                           {"how", r.how},
                           {"measured_ms", r.measured_ms},
                           {"model_ms_before", r.before_ms},
                           {"model_ms", r.after_ms},
                           {"error", r.error()}});
  json fit = {{"method", c.method},          {"rms_error", c.rms_error}, {"determined", c.determined},
              {"evaluations", c.evaluations}, {"types", types},           {"runs", fitted_runs}};
  json out = {{"problem", std::move(c.problem)}, {"fit", fit}, {"changes", changes_json(c.changes)}};
  add_warnings(out, c.warnings);
  return out;
}

json calibrate_request_json(const std::string& problem_text, const std::string& runs_json) {
  FieldReader reader;
  std::vector<measure::MeasuredRun> runs;
  const nlohmann::json list = parse_json_document(runs_json, "runs");
  for (std::size_t i = 0; i < list_at(list, "runs").size(); ++i) {
    const std::string p = index_path("runs", i);
    const nlohmann::json& o = list[i];
    if (!reader.open_object(o, p, {"name", "plan", "iteration_ms", "log", "log_name"})) continue;
    const std::string name = reader.string(o, p, "name", false).value_or("run " + std::to_string(i + 1));
    if (!o.contains("plan")) {
      reader.error(p + ".plan", "required");
      continue;
    }
    const std::string plan = o["plan"].is_string() ? o["plan"].get<std::string>() : o["plan"].dump();
    const auto ms = reader.number(o, p, "iteration_ms", false, Range::positive);
    const auto log = reader.string(o, p, "log", false);
    if (ms.has_value() == log.has_value()) {
      reader.error(p, "give either iteration_ms or log (a Megatron-LM log's text)");
      continue;
    }
    if (ms) {
      runs.push_back({name, plan, *ms, "given"});
    } else {
      const std::string log_name = reader.string(o, p, "log_name", false).value_or(name + " log");
      runs.push_back(measure::run_from_megatron_log(name, plan, {log_name, *log}));
    }
  }
  if (!reader.errors().empty()) throw InputError(reader.errors());
  return calibrate_request(problem_text, runs);
}

}  // namespace geotrain
