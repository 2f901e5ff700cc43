// Kneedle on curves whose knees are worked out by hand. For a decreasing
// curve normalised to [0, 1] x [0, 1] the chord runs from (0, 1) to (1, 0),
// so a point's distance below it is (1 - x - y) / sqrt(2).
#include "studies/knee.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace geotrain {
namespace {

TEST(Knee, LShapeHasItsKneeAtTheCorner) {
  // Down steeply, then along: the corner (1, 1) is the knee.
  // Normalised (x / 10, y / 10): (0, 1) (0.05, 0.55) (0.1, 0.1) (0.55, 0.05) (1, 0);
  // 1 - x - y: 0, 0.4, 0.8, 0.4, 0.
  const std::vector<CurvePoint> curve = {{0, 10}, {0.5, 5.5}, {1, 1}, {5.5, 0.5}, {10, 0}};
  ASSERT_TRUE(knee_index(curve).has_value());
  EXPECT_EQ(*knee_index(curve), 2u);
  EXPECT_NEAR(distance_below_chord({0, 1}, {1, 0}, {0.1, 0.1}), 0.8 / std::sqrt(2.0), 1e-15);
}

TEST(Knee, OneOverXHasItsKneeAtThree) {
  // y = 1/x, x = 1..10: x' = (x - 1) / 9, y' = (1/x - 1/10) / (9/10).
  //   x = 2: 1 - 1/9 - (2/5)(10/9) = 1 - 1/9 - 4/9 = 12/27
  //   x = 3: 1 - 2/9 - (7/30)(10/9) = 1 - 6/27 - 7/27 = 14/27   <- largest
  //   x = 4: 1 - 3/9 - (3/20)(10/9) = 1 - 1/3 - 1/6 = 13.5/27
  std::vector<CurvePoint> curve;
  for (int x = 1; x <= 10; ++x) curve.push_back({static_cast<double>(x), 1.0 / x});
  ASSERT_TRUE(knee_index(curve).has_value());
  EXPECT_EQ(*knee_index(curve), 2u);  // x = 3
  const CurvePoint at3{2.0 / 9.0, (1.0 / 3.0 - 0.1) / 0.9};
  EXPECT_NEAR(distance_below_chord({0, 1}, {1, 0}, at3), 14.0 / 27.0 / std::sqrt(2.0), 1e-12);
}

TEST(Knee, AStraightLineHasNone) {
  EXPECT_FALSE(knee_index({{0, 3}, {1, 2}, {2, 1}, {3, 0}}).has_value());
}

TEST(Knee, AConcaveCurveHasNone) {
  // (0.9, 0.9) normalised: 1 - 0.9 - 0.9 < 0, above the chord.
  EXPECT_FALSE(knee_index({{0, 1}, {0.9, 0.9}, {1, 0}}).has_value());
}

TEST(Knee, FewerThanThreePointsOrAFlatAxisHaveNone) {
  EXPECT_FALSE(knee_index({}).has_value());
  EXPECT_FALSE(knee_index({{0, 1}}).has_value());
  EXPECT_FALSE(knee_index({{0, 1}, {1, 0}}).has_value());
  EXPECT_FALSE(knee_index({{0, 1}, {1, 1}, {2, 1}}).has_value());  // y does not vary
  EXPECT_FALSE(knee_index({{1, 3}, {1, 2}, {1, 1}}).has_value());  // x does not vary
}

TEST(Knee, OrderOfTheInputDoesNotMatter) {
  // The L shape again, shuffled: the corner (1, 1) is now at index 4.
  const std::vector<CurvePoint> curve = {{10, 0}, {0.5, 5.5}, {5.5, 0.5}, {0, 10}, {1, 1}};
  ASSERT_TRUE(knee_index(curve).has_value());
  EXPECT_EQ(*knee_index(curve), 4u);
}

TEST(Knee, EquallyDistantPointsGoToTheLeastX) {
  // Dyadic values, so the arithmetic is exact: 1 - 0.25 - 0.5 = 1 - 0.5 - 0.25 = 0.25.
  const std::vector<CurvePoint> curve = {{1, 0}, {0.5, 0.25}, {0.25, 0.5}, {0, 1}};
  ASSERT_TRUE(knee_index(curve).has_value());
  EXPECT_EQ(*knee_index(curve), 2u);
}

TEST(Knee, NormalisationMakesUnitsIrrelevant) {
  // The L shape with x in milliseconds and y in kilojoules: the same knee.
  std::vector<CurvePoint> curve = {{0, 10}, {0.5, 5.5}, {1, 1}, {5.5, 0.5}, {10, 0}};
  for (CurvePoint& p : curve) p.x = 800 + 1000 * p.x, p.y = 0.5 + p.y / 1000;
  ASSERT_TRUE(knee_index(curve).has_value());
  EXPECT_EQ(*knee_index(curve), 2u);
}

}  // namespace
}  // namespace geotrain
