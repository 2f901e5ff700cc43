#pragma once
// Plan files with replicas (replicas.md):
//   {"replicas": [{"micro_batches": 80, "stages": [...]}, {"micro_batches": 48, "stages": [...]}]}
// and, as before, {"stages": [...]}: one replica with every micro-batch.
#include <nlohmann/json.hpp>

#include "model/problem.hpp"
#include "model/replica_plan.hpp"

namespace geotrain {

// Whether the document lists replicas (else it is one pipeline's stages).
bool has_replicas(const nlohmann::json& document);

// Reads either form. Each replica's stages obey parse_group_plan's rules;
// across replicas: the same stage count and layers per stage, no GPU twice,
// micro_batches integers >= 1 summing to M = B / u (of `problem`, whose u is
// the plan's). Throws InputError listing every fault, each naming its field.
ReplicaPlan parse_replica_plan(const nlohmann::json& document, const Problem& problem);

// {"replicas": [{"micro_batches", "stages"}]}; stages as plan_to_json writes them.
nlohmann::json replica_plan_to_json(const ReplicaPlan& plan, const Problem& problem);

}  // namespace geotrain
