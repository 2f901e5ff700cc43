#include "sim/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace geotrain {

const char* event_kind_name(EventKind kind) {
  switch (kind) {
    case EventKind::forward: return "F";
    case EventKind::send_forward: return "send_f";
    case EventKind::backward: return "B";
    case EventKind::send_backward: return "send_b";
  }
  return "";
}

namespace {

constexpr int kKinds = 4;  // event slots per micro-batch and stage, in EventKind order

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("simulation: " + what);
}

bool positive(double x) { return std::isfinite(x) && x > 0; }
bool non_negative(double x) { return std::isfinite(x) && x >= 0; }

void validate_send(const SendTiming& send, const std::string& where, bool expected, std::size_t links) {
  require(send.exists() == expected, where + (expected ? " is missing" : " must not exist"));
  if (!expected) return;
  require(static_cast<std::size_t>(send.link) < links, where + ".link out of range");
  require(non_negative(send.latency_s) && non_negative(send.transfer_s) && positive(send.total_s()),
          where + " must take a finite, positive time");
}

}  // namespace

void validate_timings(const PipelineTimings& timings) {
  require(!timings.replicas.empty(), "no pipeline");
  require(non_negative(timings.after_drain_s), "after_drain_s must be finite and >= 0");
  for (std::size_t r = 0; r < timings.replicas.size(); ++r) {
    const PipelineTiming& p = timings.replicas[r];
    const std::string name = "replica " + std::to_string(r);
    require(!p.stages.empty(), name + " has no stage");
    require(p.micro_batches >= 1, name + " has no micro-batch");
    for (std::size_t q = 0; q < p.stages.size(); ++q) {
      const StageTiming& s = p.stages[q];
      const std::string where = name + " stage " + std::to_string(q);
      require(non_negative(s.forward_compute_s) && non_negative(s.backward_compute_s) && non_negative(s.tensor_s),
              where + ": durations must be finite and >= 0");
      require(positive(s.forward_s()) && positive(s.backward_s()), where + ": forward and backward must take time");
      require(s.device >= 0 && static_cast<std::size_t>(s.device) < std::max<std::size_t>(1, timings.devices.size()),
              where + ": device out of range");
      validate_send(s.forward, where + " forward send", q + 1 < p.stages.size(), timings.links.size());
      validate_send(s.backward, where + " backward send", q > 0, timings.links.size());
    }
  }
}

Simulator::Simulator(const PipelineTimings& timings) : timings_(timings) {
  validate_timings(timings);
  std::size_t pending = 0;
  for (int r = 0; r < timings.replica_count(); ++r) {
    const PipelineTiming& p = timings.replicas[static_cast<std::size_t>(r)];
    const int count = p.stage_count();
    for (int q = 0; q < count; ++q) {
      StageState s{};
      s.replica = r, s.local = q, s.count = count;
      s.micro_batches = p.micro_batches;
      s.warmup = warmup_forwards(count, q, p.micro_batches);
      stages_.push_back(s);
      // At most one operation per stage is running, and a boundary holds at
      // most Q - q transfers (1F1B's bound on micro-batches in flight).
      pending += 1 + 2 * static_cast<std::size_t>(count - q + 1);
    }
  }
  heap_.reserve(pending);
  link_free_.assign(timings.links.size(), 0.0);
  // A link only one stage sends on (in one direction) serves its transfers in
  // the order that stage produces them, which is the ready order: they skip
  // the heap's ordering of ready transfers (a third of the events).
  std::vector<int> senders(timings.links.size(), 0);
  for (const PipelineTiming& p : timings.replicas)
    for (const StageTiming& st : p.stages)
      for (const SendTiming* send : {&st.forward, &st.backward})
        if (send->exists()) ++senders[static_cast<std::size_t>(send->link)];
  link_private_.resize(senders.size());
  for (std::size_t l = 0; l < senders.size(); ++l) link_private_[l] = senders[l] == 1;
  schedule_.replicas.resize(timings.replicas.size());
  for (std::size_t r = 0; r < timings.replicas.size(); ++r) schedule_.replicas[r].stages.resize(timings.replicas[r].stages.size());
}

bool Simulator::later(const Pending& a, const Pending& b) {
  if (a.time != b.time) return a.time > b.time;
  if (a.rank != b.rank) return a.rank > b.rank;
  if (a.local != b.local) return a.local > b.local;
  if (a.micro_batch != b.micro_batch) return a.micro_batch > b.micro_batch;
  return a.replica > b.replica;
}

void Simulator::push(const Pending& p) {
  heap_.push_back(p);
  std::push_heap(heap_.begin(), heap_.end(), later);
}

void Simulator::reset(const SimulationOptions& options, double start_s) {
  options_ = options;
  heap_.clear();
  std::fill(link_free_.begin(), link_free_.end(), start_s);
  schedule_.start_s = start_s;
  schedule_.event_head = options.record_events ? options.event_head : -1;
  std::int64_t slots = 0;
  for (StageState& s : stages_) {
    s.next_op = 0;
    s.forwards_arrived = s.backwards_arrived = 0;
    s.busy = false;
    s.op_start = s.op_end = start_s;
    s.in_flight = 0;
    s.event_base = slots;
    const std::int64_t kept = options.event_head < 0 ? s.micro_batches : std::min(s.micro_batches, 2 * options.event_head);
    if (options.record_events) slots += kept * kKinds;
    StageSchedule& out = schedule_.replicas[static_cast<std::size_t>(s.replica)].stages[static_cast<std::size_t>(s.local)];
    out = StageSchedule{};
    out.end_s = start_s;
    out.merged_start_s = INFINITY, out.merged_end_s = -INFINITY;
  }
  // Slots of sends that do not exist stay marked (NaN) and are dropped at the end.
  schedule_.events.assign(static_cast<std::size_t>(slots), ScheduleEvent{0, 0, 0, EventKind::forward, NAN, NAN});
}

bool Simulator::recorded(const StageState& s, std::int64_t k) const {
  if (!options_.record_events) return false;
  const std::int64_t head = options_.event_head;
  return head < 0 || k < head || k >= s.micro_batches - head;
}

void Simulator::record(const StageState& s, std::int64_t k, EventKind kind, double start, double end) {
  const std::int64_t head = options_.event_head;
  const std::int64_t index = head < 0 || k < head ? k : std::min(s.micro_batches, 2 * head) - (s.micro_batches - k);
  schedule_.events[static_cast<std::size_t>(s.event_base + index * kKinds + static_cast<int>(kind))] =
      ScheduleEvent{s.replica, s.local, k, kind, start, end};
}

void Simulator::merge(StageSchedule& out, double start, double end, double busy) {
  out.merged_start_s = std::min(out.merged_start_s, start);
  out.merged_end_s = std::max(out.merged_end_s, end);
  out.merged_busy_s += busy;
}

double Simulator::operation_end(const StageTiming& t, Pass pass, double start) const {
  const double compute = pass == Pass::forward ? t.forward_compute_s : t.backward_compute_s;
  if (!conditions_ || conditions_->devices.empty()) return start + compute + t.tensor_s;
  // A slower GPU slows the stage's compute; its tensor all-reduces follow at link speed.
  return finish_time(conditions_->devices[static_cast<std::size_t>(t.device)], start, compute) + t.tensor_s;
}

void Simulator::try_start(int stage, double now) {
  StageState& s = stages_[static_cast<std::size_t>(stage)];
  if (s.busy || s.next_op == 2 * s.micro_batches) return;
  const Operation op = operation_at(s.next_op, s.warmup, s.micro_batches);
  // F(q,k) needs stage q-1's activation; B(q,k) needs F(q,k), earlier in the
  // same order, and stage q+1's gradient.
  const bool ready = op.pass == Pass::forward ? s.local == 0 || s.forwards_arrived > op.micro_batch
                                              : s.local == s.count - 1 || s.backwards_arrived > op.micro_batch;
  if (!ready) return;
  s.busy = true;
  ++s.next_op;
  s.op_start = now;
  StageSchedule& out = schedule_.replicas[static_cast<std::size_t>(s.replica)].stages[static_cast<std::size_t>(s.local)];
  if (op.pass == Pass::forward) {
    out.max_in_flight = std::max(out.max_in_flight, ++s.in_flight);
  } else if (op.micro_batch == 0) {
    out.warmup_end_s = now;
  }
  push(Pending{operation_end(timing_of(s), op.pass, now), op.micro_batch, stage, s.local, s.replica, 0,
               Happening::operation_done, op.pass});
}

void Simulator::operation_done(const Pending& p) {
  StageState& s = stages_[static_cast<std::size_t>(p.stage)];
  StageSchedule& out = schedule_.replicas[static_cast<std::size_t>(s.replica)].stages[static_cast<std::size_t>(s.local)];
  const double took = p.time - s.op_start;
  out.busy_s += took;
  out.compute_s += took;
  out.end_s = std::max(out.end_s, p.time);
  s.op_end = p.time;
  const bool forward = p.pass == Pass::forward;
  if (forward && p.micro_batch == s.micro_batches - 1) out.cooldown_start_s = p.time;
  if (!forward) --s.in_flight;
  if (recorded(s, p.micro_batch)) record(s, p.micro_batch, forward ? EventKind::forward : EventKind::backward, s.op_start, p.time);
  else if (options_.record_events) merge(out, s.op_start, p.time, took);
  const SendTiming& send = forward ? timing_of(s).forward : timing_of(s).backward;
  if (send.exists()) {
    const Pending ready{p.time, p.micro_batch, p.stage, s.local, s.replica, 1, Happening::transfer_ready, p.pass};
    if (link_private_[static_cast<std::size_t>(send.link)]) transfer_ready(ready);
    else push(ready);
    if (options_.sends == SendMode::blocking) return;  // busy until the send has arrived
  }
  s.busy = false;
  try_start(p.stage, p.time);
}

void Simulator::transfer_ready(const Pending& p) {
  StageState& s = stages_[static_cast<std::size_t>(p.stage)];
  const bool forward = p.pass == Pass::forward;
  const SendTiming& send = forward ? timing_of(s).forward : timing_of(s).backward;
  double& free_at = link_free_[static_cast<std::size_t>(send.link)];
  const double begin = std::max(p.time, free_at);
  double end = begin + send.total_s();
  if (conditions_ && !conditions_->links.empty()) {
    const RateSteps& steps = conditions_->links[static_cast<std::size_t>(send.link)];
    end = finish_time(steps, begin + latency_at(steps, begin, send.latency_s), send.transfer_s);
  }
  free_at = end;
  if (recorded(s, p.micro_batch)) record(s, p.micro_batch, forward ? EventKind::send_forward : EventKind::send_backward, begin, end);
  push(Pending{end, p.micro_batch, p.stage, s.local, s.replica, 0, Happening::transfer_done, p.pass});
}

void Simulator::transfer_done(const Pending& p) {
  StageState& s = stages_[static_cast<std::size_t>(p.stage)];
  StageSchedule& out = schedule_.replicas[static_cast<std::size_t>(s.replica)].stages[static_cast<std::size_t>(s.local)];
  out.end_s = std::max(out.end_s, p.time);
  const bool forward = p.pass == Pass::forward;
  const int to = forward ? p.stage + 1 : p.stage - 1;  // a replica's stages are consecutive
  StageState& receiver = stages_[static_cast<std::size_t>(to)];
  if (forward) ++receiver.forwards_arrived;
  else ++receiver.backwards_arrived;
  try_start(to, p.time);
  if (options_.sends == SendMode::blocking) {
    const double blocked = p.time - s.op_end;
    out.busy_s += blocked;
    if (options_.record_events && !recorded(s, p.micro_batch)) merge(out, s.op_end, p.time, blocked);
    s.busy = false;
    try_start(p.stage, p.time);
  }
}

const Schedule& Simulator::run(const SimulationOptions& options, const Conditions* conditions, double start_s) {
  conditions_ = conditions && !conditions->empty() ? conditions : nullptr;
  reset(options, start_s);
  for (std::size_t s = 0; s < stages_.size(); ++s) try_start(static_cast<int>(s), start_s);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Pending p = heap_.back();
    heap_.pop_back();
    switch (p.what) {
      case Happening::operation_done: operation_done(p); break;
      case Happening::transfer_ready: transfer_ready(p); break;
      case Happening::transfer_done: transfer_done(p); break;
    }
  }
  for (const StageState& s : stages_)
    if (s.next_op != 2 * s.micro_batches) throw std::logic_error("simulation: a stage did not finish its 1F1B order");
  schedule_.pipelines_s = 0;
  for (std::size_t r = 0; r < schedule_.replicas.size(); ++r) {
    ReplicaSchedule& replica = schedule_.replicas[r];
    double end = start_s;
    for (const StageSchedule& st : replica.stages) end = std::max(end, st.end_s);
    replica.makespan_s = end - start_s;
    replica.warmup_end_s = replica.stages.back().warmup_end_s;
    replica.cooldown_start_s = replica.stages.front().cooldown_start_s;
    schedule_.pipelines_s = std::max(schedule_.pipelines_s, replica.makespan_s);
  }
  schedule_.iteration_s = schedule_.pipelines_s + timings_.after_drain_s;
  auto& events = schedule_.events;
  events.erase(std::remove_if(events.begin(), events.end(), [](const ScheduleEvent& e) { return std::isnan(e.start_s); }),
               events.end());
  return schedule_;
}

Schedule simulate(const PipelineTimings& timings, const SimulationOptions& options, const Conditions* conditions) {
  Simulator simulator(timings);
  return simulator.run(options, conditions);
}

}  // namespace geotrain
