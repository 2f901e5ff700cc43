// Replica plans on the engines (api/replica_launch.hpp): identical replicas
// join into data parallelism; replicas that differ, local SGD or compressed
// gradients are refused with the reason.
#include <gtest/gtest.h>

#include "api/launch_request.hpp"
#include "api/replica_launch.hpp"
#include "test_support.hpp"

namespace geotrain {
namespace {

Problem four_gpus() {
  Problem p = testing::hand_pool({100, 100, 100, 100}, 4);  // u = 1, B = 8
  p.model.micro_batch_size = 2, p.model.global_batch_size = 16;  // M = 8
  return p;
}

TEST(ReplicaLaunch, IdenticalReplicasJoinIntoDataParallelism) {
  const Problem p = four_gpus();
  const ReplicaPlan plan = {Replica{4, {GroupStage{{0}, 1, 3}, GroupStage{{1}, 1, 1}}},
                            Replica{4, {GroupStage{{2}, 1, 3}, GroupStage{{3}, 1, 1}}}};
  const MergedReplicas merged = merge_identical_replicas(p, plan);
  ASSERT_TRUE(merged.cannot.empty());
  ASSERT_EQ(merged.plan.size(), 2u);
  // Stage q joins every replica's stage q group, replica by replica: data-parallel size 2.
  EXPECT_EQ(merged.plan[0].gpus, (std::vector<int>{0, 2}));
  EXPECT_EQ(merged.plan[1].gpus, (std::vector<int>{1, 3}));
  EXPECT_EQ(merged.plan[0].layers, 3);
  // One micro-batch of every replica at once: u' = R u = 4, so M' = 16 / 4 = 4 = each replica's m.
  EXPECT_EQ(merged.problem.model.micro_batch_size, 4);
  EXPECT_EQ(merged.problem.model.micro_batches(), 4);
}

TEST(ReplicaLaunch, RefusesWhatDataParallelismCannotRun) {
  Problem p = four_gpus();
  const ReplicaPlan unequal = {Replica{5, {GroupStage{{0, 1}, 2, 4}}}, Replica{3, {GroupStage{{2}, 1, 4}}}};
  const MergedReplicas a = merge_identical_replicas(p, unequal);
  ASSERT_EQ(a.cannot.size(), 2u);
  EXPECT_EQ(a.cannot[0], "replicas[1] takes 3 micro-batches and replicas[0] 5: data parallelism gives every replica "
                         "the same share");
  EXPECT_EQ(a.cannot[1], "replicas[1].stages[0] is 1 GPUs at tensor_parallel 1, replicas[0]'s 2 at 2: data "
                         "parallelism runs the same groups everywhere");
  p.training.sync_every = 10;
  p.training.sync_compression = 0.5;
  const ReplicaPlan same = {Replica{4, {GroupStage{{0}, 1, 4}}}, Replica{4, {GroupStage{{1}, 1, 4}}}};
  const MergedReplicas b = merge_identical_replicas(p, same);
  ASSERT_EQ(b.cannot.size(), 2u);
  EXPECT_NE(b.cannot[0].find("training.sync_every 10"), std::string::npos);
  EXPECT_NE(b.cannot[1].find("training.sync_compression"), std::string::npos);
}

}  // namespace
}  // namespace geotrain
