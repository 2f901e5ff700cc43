#include "measure/nccl_all_reduce.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "model/input_error.hpp"

namespace geotrain::measure {

namespace {

constexpr std::size_t kMaxRanks = 4096;

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

std::optional<int> small_integer(std::string_view word) {
  const auto x = decimal(word);
  if (!x || *x < 0 || *x > 1e6 || *x != static_cast<int>(*x)) return std::nullopt;
  return static_cast<int>(*x);
}

// "#  Rank  3 Group  0 Pid  12345 on node-1 device  3 [0000:07:00] NVIDIA A100-SXM4-80GB"
// (older: "#   Rank  3 Pid  12345 on node-1 device  3 [0x07] Tesla V100-SXM2-16GB").
NcclRank read_rank(const std::string& file, const Line& line, const std::vector<std::string_view>& w) {
  const auto at = [&](std::string_view key) { return std::find(w.begin(), w.end(), key) - w.begin(); };
  const std::size_t rank = at("Rank"), on = at("on"), device = at("device");
  NcclRank r;
  const auto number = rank + 1 < w.size() ? small_integer(w[rank + 1]) : std::nullopt;
  const auto dev = device + 1 < w.size() ? small_integer(w[device + 1]) : std::nullopt;
  if (!number || on + 1 >= w.size() || !dev || on > device)
    throw InputError(at_line(file, line.number, "a rank line must read \"# Rank N ... on HOST device D ...\""));
  r.rank = *number, r.host = printable(w[on + 1]), r.device = *dev;
  // The GPU's name follows the bus id in brackets.
  const std::size_t close = line.text.find(']');
  if (close != std::string_view::npos) r.gpu_name = printable(trim(line.text.substr(close + 1)));
  return r;
}

struct Columns {
  std::size_t size = 0, redop = 0, time = 0, busbw = 0, wrong = 0;
  bool has_redop = false, has_wrong = false;
  std::size_t count = 0;  // words a row needs at least
};

std::optional<Columns> read_header(const std::vector<std::string_view>& w) {
  const auto first = [&](std::string_view key) {
    return static_cast<std::size_t>(std::find(w.begin(), w.end(), key) - w.begin());
  };
  Columns c;
  c.size = first("size"), c.time = first("time"), c.busbw = first("busbw"), c.redop = first("redop");
  if (c.time == w.size()) c.time = first("cputime");
  if (c.size == w.size() || c.time == w.size() || c.busbw == w.size()) return std::nullopt;
  c.has_redop = c.redop < w.size();
  c.wrong = std::min(first("#wrong"), first("error"));
  c.has_wrong = c.wrong < w.size() && c.wrong > c.busbw;
  c.count = std::max({c.size, c.time, c.busbw, c.has_wrong ? c.wrong : 0}) + 1;
  return c;
}

NcclRow read_row(const std::string& file, const Line& line, const std::vector<std::string_view>& w, const Columns& c) {
  if (w.size() < c.count)
    throw InputError(at_line(file, line.number, "a result row with " + std::to_string(w.size()) + " columns, " +
                                                    std::to_string(c.count) + " needed (a line cut short?)"));
  if (c.has_redop && w[c.redop] == "none")
    throw InputError(at_line(file, line.number, "no reduction (redop none): this is not all_reduce_perf's output"));
  if (c.has_wrong) {
    const auto wrong = decimal(w[c.wrong]);
    if (wrong && *wrong != 0)
      throw InputError(at_line(file, line.number, std::string(w[c.wrong]) + " wrong results: nccl-tests found the "
                                                  "all-reduce broken, not a figure to plan with"));
  }
  NcclRow row;
  row.line = line.number;
  const auto bytes = decimal(w[c.size]), time = decimal(w[c.time]), busbw = decimal(w[c.busbw]);
  if (!bytes || *bytes <= 0 || *bytes > 1e15)
    throw InputError(at_line(file, line.number, "size must be a number of bytes, got " + quote_text(w[c.size])));
  if (!time || *time <= 0 || *time > 1e12)
    throw InputError(at_line(file, line.number, "time must be a positive number of microseconds, got " + quote_text(w[c.time])));
  if (!busbw || *busbw < 0 || *busbw > 1e6)
    throw InputError(at_line(file, line.number, "busbw must be a number of GB/s from 0 to 1e6, got " + quote_text(w[c.busbw])));
  row.bytes = *bytes, row.time_us = *time, row.busbw_gbytes_per_s = *busbw;
  return row;
}

void check_program(const std::string& file, const Line& line, std::string_view text) {
  const std::string_view key = "# Collective test starting: ";
  if (!starts_with(text, key)) return;
  const std::string_view program = trim(text.substr(key.size()));
  if (program.rfind("all_reduce_perf", 0) != 0)
    throw InputError(at_line(file, line.number, "this is " + quote_text(program) + ", not all_reduce_perf"));
}

void check_summary(const std::string& file, const Line& line, std::string_view text) {
  if (starts_with(text, "# Out of bounds values") && text.find("FAILED") != std::string_view::npos)
    throw InputError(at_line(file, line.number, "nccl-tests reports wrong results (" + std::string(trim(text.substr(2))) +
                                                    "): not a figure to plan with"));
}

}  // namespace

NcclAllReduce parse_nccl_all_reduce(const MeasuredFile& file) {
  NcclAllReduce out;
  std::optional<Columns> columns;
  std::map<int, std::size_t> rank_line;
  for (const Line& line : split_lines(file.text)) {
    const std::string_view text = trim(line.text);
    if (text.empty()) continue;
    check_program(file.name, line, text);
    check_summary(file.name, line, text);
    const auto w = words(text);
    if (text.front() == '#') {
      if (w.size() > 1 && w[1] == "Rank") {
        NcclRank r = read_rank(file.name, line, w);
        auto [it, fresh] = rank_line.emplace(r.rank, line.number);
        if (!fresh)
          throw InputError(at_line(file.name, line.number, "rank " + std::to_string(r.rank) + " again (first on line " +
                                                               std::to_string(it->second) + ")"));
        if (out.ranks.size() >= kMaxRanks) throw InputError(at_line(file.name, line.number, "more than 4096 ranks"));
        out.ranks.push_back(std::move(r));
      } else if (!columns) {
        columns = read_header(std::vector<std::string_view>(w.begin() + 1, w.end()));
      }
      continue;
    }
    if (!columns || !decimal(w.front())) continue;  // mpirun chatter, warnings
    out.rows.push_back(read_row(file.name, line, w, *columns));
  }
  if (!columns)
    throw InputError(at_file(file.name, "no \"# size count type ... busbw\" header: not nccl-tests output"));
  if (out.rows.empty()) throw InputError(at_file(file.name, "a header and no result rows (the run stopped early?)"));
  if (out.ranks.empty()) throw InputError(at_file(file.name, "no \"# Rank ...\" lines: which GPUs ran it is unknown"));
  std::sort(out.ranks.begin(), out.ranks.end(), [](const NcclRank& a, const NcclRank& b) { return a.rank < b.rank; });
  for (std::size_t i = 0; i < out.ranks.size(); ++i)
    if (out.ranks[i].rank != static_cast<int>(i))
      throw InputError(at_file(file.name, "rank " + std::to_string(i) + " is missing from the \"# Rank\" lines"));
  return out;
}

}  // namespace geotrain::measure
