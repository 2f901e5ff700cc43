#pragma once
// What every parser of a tool's output shares: the file as numbered lines
// (a UTF-8 byte-order mark and CR line ends, as Windows editors and some
// terminals leave them, are dropped), strict numbers, and errors that name
// the file and the line.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace geotrain::measure {

// One tool output to import: its file name (for messages, and the host or
// pair it measured) and its text.
struct MeasuredFile {
  std::string name;
  std::string text;
};

constexpr std::size_t kMaxMeasuredFileBytes = 16u << 20;  // 16 MiB: a day of ping lines, not a disk image

struct Line {
  std::size_t number;    // 1-based
  std::string_view text;  // without its end
};

// The lines of `text`: "\r\n", "\n" and a lone "\r" end a line; a leading BOM is dropped.
std::vector<Line> split_lines(std::string_view text);

// Text without leading and trailing spaces and tabs.
std::string_view trim(std::string_view text);

// Pieces between `separator`s, each trimmed.
std::vector<std::string_view> split_trimmed(std::string_view text, char separator);

// Whitespace-separated words.
std::vector<std::string_view> words(std::string_view text);

// A finite decimal number written as tools print them ("81920", "400.00",
// "-1", "1.5e3"); nothing else (no "nan", "inf", hex, spaces, 1e400).
std::optional<double> decimal(std::string_view text);

// The 1-based line of the first byte that is not UTF-8 (0 when all is):
// every name read from a file ends up in JSON text, which must be UTF-8.
std::size_t first_non_utf8_line(std::string_view text);

// A name safe to print in messages and JSON: bytes that are not UTF-8, and
// control characters, become '?'.
std::string printable(std::string_view text);

// "node1.csv line 3: ..." (no line: "node1.csv: ...").
std::string at_line(const std::string& file, std::size_t line, const std::string& message);
std::string at_file(const std::string& file, const std::string& message);

// A word shown in a message: quoted, cut to 40 characters, control bytes as '?'.
std::string quote_text(std::string_view text);

// A file's name without its folders, printable: sources and messages never carry paths.
std::string base_name(const std::string& name);

// The file's stem: its name without folders and from the first '.' on
// ("logs/node-1.smi.csv" -> "node-1").
std::string file_stem(const std::string& name);

}  // namespace geotrain::measure
