#pragma once
// The event-level simulation of 1F1B pipelines (simulator.md): every forward,
// backward and transfer of every micro-batch of every replica, under the
// contract's timing rules. A discrete-event simulation over a binary heap;
// every array is sized once, so an iteration allocates nothing (a replay or
// a robustness study runs many on one Simulator).
//
// Timing rules, as the contract states them:
// - an operation starts when its stage has finished the previous operation
//   in its 1F1B order (and, with blocking sends, that operation's send) and
//   its input has arrived;
// - a directed link carries one transfer at a time, in the order transfers
//   become ready, ties broken by lower stage, then lower micro-batch, then
//   lower replica; a transfer that waits for its link starts when it frees.
#include <cstdint>
#include <vector>

#include "sim/conditions.hpp"
#include "sim/one_f_one_b.hpp"
#include "sim/schedule.hpp"
#include "sim/timing.hpp"

namespace geotrain {

struct SimulationOptions {
  SendMode sends = SendMode::blocking;
  bool record_events = false;
  // With record_events: keep the events of micro-batches k < event_head and
  // k >= m - event_head only (the rest merged per stage); negative: all.
  std::int64_t event_head = -1;
};

// Throws std::invalid_argument naming the first bad figure: every duration
// finite and >= 0, every forward and backward and every send > 0, links and
// devices in range, at least one stage and one micro-batch per replica.
void validate_timings(const PipelineTimings& timings);

class Simulator {
 public:
  // Keeps a reference to `timings` (validated here), which must outlive it.
  explicit Simulator(const PipelineTimings& timings);

  // One iteration starting at start_s, under `conditions` (nullptr: the
  // planned figures throughout). The schedule stays valid until the next run.
  const Schedule& run(const SimulationOptions& options, const Conditions* conditions = nullptr,
                      double start_s = 0);

 private:
  enum class Happening : std::uint8_t { operation_done, transfer_ready, transfer_done };
  struct Pending {
    double time;
    std::int64_t micro_batch;
    int stage;    // global index over every replica's stages
    int local;    // its place in its pipeline
    int replica;
    std::uint8_t rank;  // 0 completions, 1 transfers becoming ready: after every completion at the same time
    Happening what;
    Pass pass;
  };
  struct StageState {
    int replica, local, count;  // its replica, its place there, that pipeline's stage count
    std::int64_t micro_batches, warmup;
    std::int64_t next_op;
    std::int64_t forwards_arrived, backwards_arrived;  // inputs arrive in micro-batch order
    bool busy;
    double op_start, op_end;
    int in_flight;
    std::int64_t event_base;  // its first slot in the events array
  };
  // The heap's order (a min-heap on it): time, then rank, then a link's
  // ties: lower stage, lower micro-batch, lower replica.
  static bool later(const Pending& a, const Pending& b);
  void push(const Pending& p);
  void reset(const SimulationOptions& options, double start_s);
  void try_start(int stage, double now);
  void operation_done(const Pending& p);
  void transfer_ready(const Pending& p);
  void transfer_done(const Pending& p);
  double operation_end(const StageTiming& timing, Pass pass, double start) const;
  bool recorded(const StageState& s, std::int64_t k) const;
  void record(const StageState& s, std::int64_t k, EventKind kind, double start, double end);
  void merge(StageSchedule& out, double start, double end, double busy);
  const StageTiming& timing_of(const StageState& s) const {
    return timings_.replicas[static_cast<std::size_t>(s.replica)].stages[static_cast<std::size_t>(s.local)];
  }

  const PipelineTimings& timings_;
  SimulationOptions options_;
  const Conditions* conditions_ = nullptr;
  std::vector<StageState> stages_;
  std::vector<Pending> heap_;
  std::vector<double> link_free_;
  std::vector<char> link_private_;  // one sender: its transfers need no ordering by the heap
  Schedule schedule_;
};

// One iteration, from t = 0.
Schedule simulate(const PipelineTimings& timings, const SimulationOptions& options = {},
                  const Conditions* conditions = nullptr);

}  // namespace geotrain
