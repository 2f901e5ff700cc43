#include "measure/pair_ends.hpp"

#include "measure/tool_text.hpp"
#include "model/input_error.hpp"

namespace geotrain::measure {

namespace {

std::string list(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& n : names) text += (text.empty() ? "" : ", ") + quote_text(n);
  return text.empty() ? "none" : text;
}

std::optional<PairEnd> first_known(const PoolIndex& pool, const std::vector<std::string>& names) {
  for (const auto& n : names)
    if (auto end = find_end(pool, n)) return end;
  return std::nullopt;
}

// Every cut of `stem` at a '-' whose two sides are both known names.
std::vector<PairEnds> stem_cuts(const PoolIndex& pool, const std::string& stem) {
  std::vector<PairEnds> cuts;
  for (std::size_t at = stem.find('-'); at != std::string::npos; at = stem.find('-', at + 1)) {
    auto from = find_end(pool, stem.substr(0, at)), to = find_end(pool, stem.substr(at + 1));
    if (from && to) cuts.push_back({*from, *to});
  }
  return cuts;
}

PairEnd need(const PoolIndex& pool, const std::string& file, const char* which, const std::vector<std::string>& names) {
  if (auto end = first_known(pool, names)) return *end;
  throw InputError(at_file(file, std::string("cannot tell ") + which + ": none of " + list(names) +
                                     " is a GPU id, host, node or site of the problem (name the file FROM-TO.ext, "
                                     "or give --host)"));
}

}  // namespace

std::optional<PairEnd> find_end(const PoolIndex& pool, const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (const PoolGpu* g = pool.gpu(name)) return PairEnd{name, g->site, {g->index}, PairEnd::Kind::gpu};
  if (auto on = pool.on_host(name); !on.empty()) {
    const std::string& site = pool.gpus[on.front()].site;
    return PairEnd{name, site, on, PairEnd::Kind::host};
  }
  if (pool.has_site(name)) return PairEnd{name, name, pool.on_site(name), PairEnd::Kind::site};
  return std::nullopt;
}

PairEnds pair_ends(const PoolIndex& pool, const std::string& file, const std::string& host_option,
                   const std::vector<std::string>& tool_from, const std::vector<std::string>& tool_to) {
  if (!host_option.empty()) return {need(pool, file, "the end it ran on", {host_option}), need(pool, file, "the end it reached", tool_to)};
  const std::string stem = file_stem(file);
  const auto cuts = stem_cuts(pool, stem);
  if (cuts.size() > 1)
    throw InputError(at_file(file, "the name " + quote_text(stem) + " can be cut into two known names in " +
                                       std::to_string(cuts.size()) + " ways (" + cuts[0].from.name + " | " +
                                       cuts[0].to.name + ", " + cuts[1].from.name + " | " + cuts[1].to.name +
                                       "); give --host FROM"));
  if (cuts.size() == 1) return cuts.front();
  std::vector<std::string> from = {stem};
  from.insert(from.end(), tool_from.begin(), tool_from.end());
  return {need(pool, file, "the end it ran on", from), need(pool, file, "the end it reached", tool_to)};
}

}  // namespace geotrain::measure
