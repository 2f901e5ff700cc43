#pragma once
// The engine releases each launch target was checked against, read in the
// engines' own sources (docs/launch.md, "Versions checked"; every flag and API
// name the bundles use, with the file and version it came from, is listed in
// tests/fixtures/engines/*.json, which the tests hold the bundles to).
#include <string>
#include <vector>

namespace geotrain {

struct EngineVersions {
  std::string minimum;               // the oldest release the bundle runs on
  std::string why_minimum;           // what it needs from that release
  std::vector<std::string> checked;  // releases whose sources were read
};

inline EngineVersions megatron_core_versions() {
  return {"0.13.0",
          "--pipeline-model-parallel-layout first appears in core_v0.13.0, in megatron/training/arguments.py",
          {"core_v0.13.0", "core_v0.19.0"}};
}

inline EngineVersions deepspeed_versions() {
  return {"0.3.0",
          "PipelineModule, LayerSpec and PipeDataParallelTopology (deepspeed.runtime.pipe.topology) have the "
          "names used here since v0.3.0",
          {"v0.3.0", "v0.9.0", "v0.16.4"}};
}

inline EngineVersions torch_versions() {
  return {"2.4", "torch.distributed.pipelining (PipelineStage, Schedule1F1B) is public from 2.4",
          {"2.4", "main"}};
}

inline EngineVersions flashflex_versions() {
  return {"5ee1726",
          "the argument names of llama_train.py and llama/arguments.py at that commit (the repository, also "
          "published as HexiScale, has no releases)",
          {"5ee1726 (2025-03-13)"}};
}

}  // namespace geotrain
