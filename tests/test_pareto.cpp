// Frontier, dominance, knee and the deltas of Table 7, on hand examples and
// on the paper's own Table 7 figures.
#include "studies/pareto.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "search/random.hpp"

namespace geotrain {
namespace {

TEST(Pareto, DominanceNeedsNoWorseOnBothAndBetterOnOne) {
  EXPECT_TRUE(dominates({1, 1}, {2, 2}));
  EXPECT_TRUE(dominates({1, 2}, {2, 2}));
  EXPECT_TRUE(dominates({2, 1}, {2, 2}));
  EXPECT_FALSE(dominates({2, 2}, {2, 2}));  // equal points do not dominate
  EXPECT_FALSE(dominates({1, 3}, {2, 2}));  // a trade-off
  EXPECT_FALSE(dominates({3, 3}, {2, 2}));
}

TEST(Pareto, FrontierOfAHandSet) {
  // A(1,10) B(2,5) C(3,6) D(4,1) E(2,5) F(5,1): C is dominated by B (and E),
  // F by D; B and E are equal and both stay. By time: A, B, E (index order), D.
  const std::vector<TradeoffPoint> points = {{1, 10}, {2, 5}, {3, 6}, {4, 1}, {2, 5}, {5, 1}};
  const std::vector<std::size_t> expected = {0, 1, 4, 3};
  EXPECT_EQ(pareto_frontier(points), expected);
  const std::vector<bool> dominated = dominated_by(points, points);
  EXPECT_EQ(dominated, (std::vector<bool>{false, false, true, false, false, true}));
}

TEST(Pareto, RandomSetsHaveMutuallyNonDominatedFrontiersThatDominateTheRest) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Rng rng(seed);
    std::vector<TradeoffPoint> points(static_cast<std::size_t>(rng.uniform_int(1, 30)));
    // Coarse integer grids make equal points and equal coordinates common.
    for (TradeoffPoint& p : points)
      p = {static_cast<double>(rng.uniform_int(0, 9)), static_cast<double>(rng.uniform_int(0, 9))};
    const std::vector<std::size_t> frontier = pareto_frontier(points);
    ASSERT_FALSE(frontier.empty()) << "seed " << seed;
    std::vector<bool> on(points.size(), false);
    for (std::size_t i : frontier) on[i] = true;
    for (std::size_t a : frontier)
      for (std::size_t b : frontier) EXPECT_FALSE(dominates(points[a], points[b])) << "seed " << seed;
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (on[i]) continue;
      bool covered = false;
      for (std::size_t f : frontier) covered = covered || dominates(points[f], points[i]);
      EXPECT_TRUE(covered) << "seed " << seed << ", point " << i;
    }
    for (std::size_t k = 1; k < frontier.size(); ++k)
      EXPECT_LE(points[frontier[k - 1]].time, points[frontier[k]].time) << "seed " << seed;
  }
}

TEST(Pareto, Table7DeltasByHand) {
  // The paper's Table 7 against its lambda = 1 row (802.3 ms, 692.8 J):
  //   lambda 0:   (1976.2 - 802.3) / 802.3 = 1173.9 / 802.3 = +146.32%;
  //               (519.4 - 692.8) / 692.8 = -173.4 / 692.8 = -25.03%
  //   lambda 0.3: 239.4 / 802.3 = +29.84%;  -121.7 / 692.8 = -17.57%
  //   lambda 0.5: 37 / 802.3 = +4.61%;      -41.3 / 692.8 = -5.96%
  // (the paper prints +146.3/-25.0, +29.8/-17.6, +4.6/-6.0).
  EXPECT_NEAR(percent_change(1976.2, 802.3), 146.317, 1e-3);
  EXPECT_NEAR(percent_change(519.4, 692.8), -25.029, 1e-3);
  EXPECT_NEAR(percent_change(1041.7, 802.3), 29.839, 1e-3);
  EXPECT_NEAR(percent_change(571.1, 692.8), -17.567, 1e-3);
  EXPECT_NEAR(percent_change(839.3, 802.3), 4.612, 1e-3);
  EXPECT_NEAR(percent_change(651.5, 692.8), -5.961, 1e-3);
  EXPECT_EQ(percent_change(802.3, 802.3), 0.0);
}

TEST(Pareto, TheKneeOfThePapersTable7IsLambdaPointOne) {
  // Rows of Table 7 (lambda 0, 0.1, 0.3, 0.5, 0.7, 0.9, 1). Normalised over
  // T in [802.3, 1976.2] (span 1173.9) and E in [519.4, 692.8] (span 173.4):
  //   0.5: (37/1173.9, 132.1/173.4)    = (0.0315, 0.7618): 1 - x - y = 0.2067
  //   0.3: (239.4/1173.9, 51.7/173.4)  = (0.2039, 0.2982): 0.4979
  //   0.1: (430.4/1173.9, 22/173.4)    = (0.3666, 0.1269): 0.5065   <- the knee, as the paper says
  const std::vector<TradeoffPoint> rows = {{1976.2, 519.4}, {1232.7, 541.4}, {1041.7, 571.1}, {839.3, 651.5},
                                           {802.3, 692.8},  {802.3, 692.8},  {802.3, 692.8}};
  const std::vector<std::size_t> frontier = pareto_frontier(rows);
  EXPECT_EQ(frontier.size(), 7u);  // the three equal time-optimal rows all stay
  ASSERT_TRUE(frontier_knee(rows, frontier).has_value());
  EXPECT_EQ(*frontier_knee(rows, frontier), 1u);
  EXPECT_EQ(largest_lambda_row({0, 0.1, 0.3, 0.5, 0.7, 0.9, 1}), 6u);
}

TEST(Pareto, EqualFrontierPointsCountOnceForTheKnee) {
  // (1,10) (2,3) (2,3) (10,1): normalised (0,1) (1/9, 2/9) (1,0); 1 - 1/9 - 2/9 = 2/3 > 0.
  // The knee is the equal pair, named by its first member (index 1, not 3).
  const std::vector<TradeoffPoint> points = {{10, 1}, {2, 3}, {1, 10}, {2, 3}};
  const auto frontier = pareto_frontier(points);
  ASSERT_TRUE(frontier_knee(points, frontier).has_value());
  EXPECT_EQ(*frontier_knee(points, frontier), 1u);
  // Two distinct points only: no knee.
  const std::vector<TradeoffPoint> two = {{1, 10}, {2, 3}, {2, 3}};
  EXPECT_FALSE(frontier_knee(two, pareto_frontier(two)).has_value());
}

TEST(Pareto, LargestLambdaRowIsTheFirstOfEquals) {
  EXPECT_FALSE(largest_lambda_row({}).has_value());
  EXPECT_EQ(largest_lambda_row({0.5, 0.9, 0.2, 0.9}), 1u);
}

}  // namespace
}  // namespace geotrain
