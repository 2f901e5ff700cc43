#pragma once
// A plan of data-parallel replicas as the simulation runs it (simulator.md,
// replicas.md): one pipeline per replica on its own m_r micro-batches, every
// forward, backward and send priced by the replica model's own figures (so
// a send across a site pipe with capacity_gbps costs its share of the pipe,
// as the analytic T_iter charges it), and after the last replica drains the
// largest data-parallel sync, then the cross-replica sync over sync_every.
//
// The simulation runs the replicas' pipelines side by side on one clock. A
// transfer waits only for its own directed GPU link, as in one pipeline: the
// pipe's sharing is already in each send's price (min(bandwidth, capacity /
// sends crossing it)), so it is not charged a second time by queueing.
#include <optional>
#include <vector>

#include "model/network.hpp"
#include "model/problem.hpp"
#include "model/replica_plan.hpp"
#include "sim/timing.hpp"

namespace geotrain {

// `links`: the problem's resolve_links, resolved once. The plan must be valid
// (parse_replica_plan checks it): R >= 1 replicas of the same Q stages.
PipelineTimings replica_timings(const Problem& problem, const std::vector<std::optional<ResolvedLink>>& links,
                                const ReplicaPlan& plan);

}  // namespace geotrain
