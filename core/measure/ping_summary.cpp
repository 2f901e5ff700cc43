#include "measure/ping_summary.hpp"

#include "model/derived_checks.hpp"
#include "model/input_error.hpp"

namespace geotrain::measure {

namespace {

const char* const kRttPrefixes[] = {"rtt min/avg/max/mdev = ", "round-trip min/avg/max/stddev = ",
                                    "round-trip min/avg/max/std-dev = ", "round-trip min/avg/max = "};

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

// "--- host ping statistics ---" -> "host".
std::optional<std::string> statistics_target(std::string_view line) {
  const std::string_view head = "--- ", tail = " ping statistics ---";
  if (!starts_with(line, head) || line.size() < head.size() + tail.size() ||
      line.substr(line.size() - tail.size()) != tail)
    return std::nullopt;
  return printable(line.substr(head.size(), line.size() - head.size() - tail.size()));
}

// "PING name (1.2.3.4) 56(84) bytes of data." -> "1.2.3.4".
std::string address_of(std::string_view line) {
  const std::size_t open = line.find('('), close = line.find(')');
  if (!starts_with(line, "PING ") || open == std::string_view::npos || close == std::string_view::npos || close < open)
    return "";
  return printable(line.substr(open + 1, close - open - 1));
}

void read_rtt(const std::string& file, const Line& line, std::string_view values, PingSummary& out) {
  // "a/b/c/d ms", possibly followed by ", pipe 2" or ", ipg/ewma ...".
  const std::size_t space = values.find(' ');
  const std::string_view numbers = values.substr(0, space);
  const std::string_view unit = space == std::string_view::npos ? "" : values.substr(space + 1, 2);
  if (unit != "ms") throw InputError(at_line(file, line.number, "the round-trip times must be in ms"));
  const auto parts = split_trimmed(numbers, '/');
  if (parts.size() < 3 || parts.size() > 4)
    throw InputError(at_line(file, line.number, "expected min/avg/max[/mdev] times, got " + quote_text(numbers)));
  double v[3];
  for (int i = 0; i < 3; ++i) {
    const auto x = decimal(parts[static_cast<std::size_t>(i)]);
    if (!x || *x < 0 || *x > NumberLimits::kMaxLatencyMs)
      throw InputError(at_line(file, line.number, "a round-trip time must be a number of ms from 0 to 1e6, got " +
                                                      quote_text(parts[static_cast<std::size_t>(i)])));
    v[i] = *x;
  }
  if (!(v[0] <= v[1] && v[1] <= v[2]))
    throw InputError(at_line(file, line.number, "min/avg/max are not in order: " + quote_text(numbers)));
  out.min_ms = v[0], out.avg_ms = v[1], out.max_ms = v[2];
  out.line = line.number;
}

}  // namespace

PingSummary parse_ping_summary(const MeasuredFile& file) {
  PingSummary out;
  std::size_t statistics_line = 0;
  bool no_replies = false;
  for (const Line& raw : split_lines(file.text)) {
    const std::string_view line = trim(raw.text);
    if (out.address.empty() && starts_with(line, "PING ")) out.address = address_of(line);
    if (auto target = statistics_target(line)) {
      if (statistics_line)
        throw InputError(at_line(file.name, raw.number, "a second ping summary (the first on line " +
                                                            std::to_string(statistics_line) + "); one ping per file"));
      statistics_line = raw.number;
      out.target = *target;
      continue;
    }
    if (line.find("100% packet loss") != std::string_view::npos || line.find(" 0 received,") != std::string_view::npos ||
        line.find(" 0 packets received") != std::string_view::npos)
      no_replies = true;
    for (const char* prefix : kRttPrefixes)
      if (starts_with(line, prefix)) {
        if (out.line)
          throw InputError(at_line(file.name, raw.number, "a second round-trip line (the first on line " +
                                                              std::to_string(out.line) + "); one ping per file"));
        read_rtt(file.name, raw, line.substr(std::string_view(prefix).size()), out);
      }
  }
  if (!out.line && no_replies) throw InputError(at_file(file.name, "ping got no replies (100% packet loss): no latency to read"));
  if (!out.line)
    throw InputError(at_file(file.name, "no \"rtt min/avg/max/mdev = ...\" line: not ping's summary, or cut short"));
  return out;
}

}  // namespace geotrain::measure
