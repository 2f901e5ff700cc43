// The fuzz smoke run of the default test command: fuzz_problem.cpp's entry
// point, built with the main tree's compiler (no clang, no sanitizers), fed the
// examples and a fixed number of mutants of them. A sanitizer build takes the
// 2-core machine about ten minutes, so the libFuzzer hunt (run.sh) is a long
// test; this run still catches crashes, aborts, stray exceptions and
// non-finite figures on hostile input in seconds, and the same seed always
// draws the same inputs, so a failure names an input that can be replayed.
//   geotrain_fuzz_replay RUNS SEED_FILE...
#include <cctype>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

// splitmix64: small, and the same sequence on every platform.
struct Draws {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

// Tokens the parsers and the model's checks must refuse or survive.
const char* const kHostileTokens[] = {
    "0",     "-0",       "-1",      "1e308", "-1e308", "1e-320", "1e400", "NaN",  "Infinity", "null",
    "true",  "\"\"",     "\"auto\"", "[]",   "{}",     "[0]",    "2147483648", "9007199254740993",
    "0.5",   "\"g0\"",   "\"\\u0000\"", "-2147483649", "1e15", "\"flashflex\"", "\"megatron-core\""};

std::string with_hostile_number(std::string input, Draws& draws) {
  // Replace one run of digits (a number's or a name's) with a hostile token.
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < input.size(); ++i)
    if (std::isdigit(static_cast<unsigned char>(input[i])) && (i == 0 || !std::isdigit(static_cast<unsigned char>(input[i - 1]))))
      starts.push_back(i);
  if (starts.empty()) return input;
  const std::size_t start = starts[draws.below(starts.size())];
  std::size_t end = start;
  while (end < input.size() && (std::isdigit(static_cast<unsigned char>(input[end])) || input[end] == '.' || input[end] == 'e'))
    ++end;
  const std::size_t n_tokens = sizeof(kHostileTokens) / sizeof(kHostileTokens[0]);
  return input.replace(start, end - start, kHostileTokens[draws.below(n_tokens)]);
}

std::string mutated(std::string input, const std::vector<std::string>& seeds, Draws& draws) {
  const int steps = 1 + static_cast<int>(draws.below(4));
  for (int s = 0; s < steps; ++s) {
    const std::size_t at = draws.below(input.size() + 1);
    switch (draws.below(7)) {
      case 0: input = with_hostile_number(std::move(input), draws); break;
      case 1: input = with_hostile_number(std::move(input), draws); break;
      case 2:  // flip a byte
        if (!input.empty()) input[draws.below(input.size())] ^= static_cast<char>(1u << draws.below(8));
        break;
      case 3: input.erase(at, draws.below(64)); break;
      case 4: input.insert(at, input.substr(draws.below(input.size() + 1), draws.below(128))); break;
      case 5: input.resize(at); break;
      default: {  // splice another seed's text in
        const std::string& other = seeds[draws.below(seeds.size())];
        input.insert(at, other.substr(draws.below(other.size() + 1), draws.below(256)));
      }
    }
  }
  return input;
}

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The input being run, written out if it kills the process so it can be replayed.
const std::string* g_current = nullptr;

extern "C" void save_current_input(int signal_number) {
  if (g_current != nullptr) {
    const int fd = ::open("fuzz-replay-crash.bin", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      const ssize_t written = ::write(fd, g_current->data(), g_current->size());
      (void)written;
      ::close(fd);
    }
    const char message[] = "fuzz replay: the input that failed is in fuzz-replay-crash.bin\n";
    const ssize_t shown = ::write(2, message, sizeof(message) - 1);
    (void)shown;
  }
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

void run_one(const std::string& input) {
  g_current = &input;
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: geotrain_fuzz_replay RUNS SEED_FILE...\n");
    return 2;
  }
  const long runs = std::strtol(argv[1], nullptr, 10);
  for (int signal_number : {SIGABRT, SIGSEGV, SIGFPE, SIGBUS, SIGILL}) std::signal(signal_number, save_current_input);
  std::vector<std::string> seeds;
  const std::string plan = R"({"stages": [{"gpu": "g0", "layers": 2}, {"gpu": "g1", "layers": 10}]})";
  for (int i = 2; i < argc; ++i) {
    const std::string text = read_file(argv[i]);
    seeds.push_back(text);
    seeds.push_back(text + std::string(1, '\0') + plan);
  }
  for (const std::string& seed : seeds) run_one(seed);
  Draws draws{20261203};
  for (long r = 0; r < runs; ++r) {
    const std::string input = mutated(seeds[draws.below(seeds.size())], seeds, draws);
    run_one(input);
  }
  std::printf("fuzz replay: %zu seeds and %ld mutants, no crash, abort or stray exception\n", seeds.size(), runs);
  return 0;
}
