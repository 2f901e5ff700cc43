#include "measure/nvidia_topo.hpp"

#include <optional>

#include "model/input_error.hpp"

namespace geotrain::measure {

namespace {

constexpr int kMaxGpusPerHost = 64;
constexpr int kMaxNvlinks = 64;  // a pair bonds at most 18 today
const char* const kPcie[] = {"SYS", "SOC", "NODE", "PHB", "PXB", "PIX"};

// Drops ANSI escape sequences ("\x1b[4m"): older drivers underline the header.
std::string without_escapes(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !((text[i] >= '@' && text[i] <= '~'))) ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

// "GPU12" -> 12; empty for anything else.
std::optional<int> gpu_number(std::string_view word) {
  if (word.size() < 4 || word.substr(0, 3) != "GPU") return std::nullopt;
  int n = 0;
  for (char c : word.substr(3)) {
    if (c < '0' || c > '9' || n > kMaxGpusPerHost) return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

// NV#: the count; a PCIe path: 0; anything else: empty.
std::optional<int> cell_links(std::string_view cell) {
  for (const char* p : kPcie)
    if (cell == p) return 0;
  if (cell.size() < 3 || cell.substr(0, 2) != "NV") return std::nullopt;
  int n = 0;
  for (char c : cell.substr(2)) {
    if (c < '0' || c > '9' || n > kMaxNvlinks) return std::nullopt;
    n = n * 10 + (c - '0');
  }
  if (n < 1 || n > kMaxNvlinks) return std::nullopt;
  return n;
}

// The header's device columns: GPU0 GPU1 ... NIC0 ..., up to the affinity columns.
std::size_t device_columns(const std::vector<std::string_view>& header) {
  std::size_t n = 0;
  while (n < header.size() && header[n] != "CPU" && header[n] != "NUMA" && header[n] != "GPU") ++n;
  return n;
}

}  // namespace

TopoMatrix parse_nvidia_topo(const MeasuredFile& file) {
  const auto lines = split_lines(file.text);
  std::vector<std::string> clean;
  clean.reserve(lines.size());
  for (const Line& l : lines) clean.push_back(without_escapes(l.text));
  std::size_t header = lines.size();
  for (std::size_t i = 0; i < clean.size() && header == lines.size(); ++i) {
    const auto w = words(clean[i]);
    if (!w.empty() && w.front() == "GPU0") header = i;
  }
  if (header == lines.size())
    throw InputError(at_file(file.name, "no header line starting with GPU0: not the output of nvidia-smi topo -m"));
  const auto head = words(clean[header]);
  const std::size_t columns = device_columns(head);
  TopoMatrix m;
  m.header_line = lines[header].number;
  while (m.gpus < static_cast<int>(columns) && gpu_number(head[m.gpus]) == m.gpus) ++m.gpus;
  if (m.gpus > kMaxGpusPerHost)
    throw InputError(at_line(file.name, m.header_line, "more than " + std::to_string(kMaxGpusPerHost) + " GPUs in one host"));
  m.nvlinks.assign(static_cast<std::size_t>(m.gpus * m.gpus), 0);
  std::vector<std::size_t> row_line(static_cast<std::size_t>(m.gpus), 0);
  for (std::size_t i = header + 1; i < clean.size(); ++i) {
    const auto w = words(clean[i]);
    if (w.empty() || w.front() == "Legend:") {
      if (!w.empty()) break;
      continue;
    }
    const auto row = gpu_number(w.front());
    if (!row) continue;  // a NIC row
    const std::size_t number = lines[i].number;
    if (*row >= m.gpus) throw InputError(at_line(file.name, number, "row GPU" + std::to_string(*row) + " has no column"));
    if (row_line[*row])
      throw InputError(at_line(file.name, number, "row GPU" + std::to_string(*row) + " again (first on line " +
                                                      std::to_string(row_line[*row]) + ")"));
    if (w.size() < columns + 1)
      throw InputError(at_line(file.name, number, "row GPU" + std::to_string(*row) + " has " + std::to_string(w.size() - 1) +
                                                      " cells, the header " + std::to_string(columns) +
                                                      " columns (a line cut short?)"));
    row_line[*row] = number;
    for (int col = 0; col < m.gpus; ++col) {
      const std::string_view cell = w[static_cast<std::size_t>(col) + 1];
      if (col == *row) {
        if (cell != "X")
          throw InputError(at_line(file.name, number, "GPU" + std::to_string(col) + " to itself must read X, got " + quote_text(cell)));
        continue;
      }
      const auto links = cell_links(cell);
      if (!links)
        throw InputError(at_line(file.name, number, "GPU" + std::to_string(*row) + " to GPU" + std::to_string(col) +
                                                        ": unknown connection " + quote_text(cell) +
                                                        " (expected NV#, SYS, NODE, PHB, PXB or PIX)"));
      m.nvlinks[static_cast<std::size_t>(*row * m.gpus + col)] = *links;
    }
  }
  for (int g = 0; g < m.gpus; ++g)
    if (!row_line[g])
      throw InputError(at_file(file.name, "no row for GPU" + std::to_string(g) + " (the file is cut short?)"));
  for (int a = 0; a < m.gpus; ++a)
    for (int b = a + 1; b < m.gpus; ++b)
      if (m.links(a, b) != m.links(b, a))
        throw InputError(at_line(file.name, row_line[b], "GPU" + std::to_string(b) + " to GPU" + std::to_string(a) + " has " +
                                                             std::to_string(m.links(b, a)) + " NVLinks, the other way " +
                                                             std::to_string(m.links(a, b)) + ": the matrix must be symmetric"));
  return m;
}

}  // namespace geotrain::measure
