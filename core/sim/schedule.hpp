#pragma once
// What a simulated iteration is: when every operation and transfer ran, and
// per stage how long it was busy, when its warm-up ended and its cool-down
// began (simulator.md, "Command and report").
#include <cstdint>
#include <vector>

namespace geotrain {

// Blocking: the sender is busy until its send has arrived (the analytic
// model's assumption, the default). Overlapped: the send runs while the
// sender goes on with its next operation (asynchronous point-to-point).
enum class SendMode { blocking, overlapped };

enum class EventKind : std::uint8_t { forward, send_forward, backward, send_backward };

const char* event_kind_name(EventKind kind);  // "F", "send_f", "B", "send_b"

struct ScheduleEvent {
  int replica = 0;
  int stage = 0;
  std::int64_t micro_batch = 0;
  EventKind kind = EventKind::forward;
  double start_s = 0, end_s = 0;  // a transfer starts when its link is free, not when it is ready
};

struct StageSchedule {
  // Running operations and, with blocking sends, sending them on (waiting
  // for a busy link included): the stage can do nothing else meanwhile.
  double busy_s = 0;
  double compute_s = 0;         // its forwards and backwards alone
  double end_s = 0;             // its last operation's end, or its send's
  double warmup_end_s = 0;      // its first backward starts: only forwards before
  double cooldown_start_s = 0;  // its last forward ends: only backwards after
  int max_in_flight = 0;        // micro-batches forward-done and not yet backward-done, at most
  // When events are kept only for the first and last micro-batches
  // (SimulationOptions::event_head): the operations of the others, merged.
  double merged_start_s = 0, merged_end_s = 0, merged_busy_s = 0;
};

struct ReplicaSchedule {
  double makespan_s = 0;          // from the iteration's start to its last operation's (or send's) end
  double warmup_end_s = 0;        // the pipeline is full: the last stage starts its first backward
  double cooldown_start_s = 0;    // no micro-batch left to enter: the first stage ends its last forward
  std::vector<StageSchedule> stages;
};

struct Schedule {
  double start_s = 0;          // when the iteration began (replays run iterations back to back)
  double pipelines_s = 0;      // max_r makespan_r
  double iteration_s = 0;      // T_sim = max_r makespan_r + the syncs after the drain
  std::vector<ReplicaSchedule> replicas;
  // Every operation and transfer (SimulationOptions::record_events), replica
  // by replica, stage by stage, micro-batch by micro-batch, in kind order.
  std::vector<ScheduleEvent> events;
  std::int64_t event_head = -1;  // as the options asked: -1 when every micro-batch's events are kept
};

}  // namespace geotrain
