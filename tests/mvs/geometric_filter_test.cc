// The geometric-consistency filter on the synthetic ring's true depth maps: true depths pass,
// corrupted ones, high costs and grazing normals do not; the counts add up; threads do not
// change the maps.
#include "mvs/geometric_filter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include <Eigen/Geometry>
#include <Eigen/LU>

#include "core/check.h"
#include "tests/mvs/synthetic_truth.h"

namespace proj::mvs {
namespace {

using ::testing::HasSubstr;
using testing::SyntheticRingTruth;
using testing::SyntheticTruth;

std::vector<SourceDepth> SourcesOf(const SyntheticTruth& truth, int view,
                                   const std::vector<DepthMap>* depths = nullptr) {
  std::vector<SourceDepth> sources;
  for (int j : truth.neighbours[view]) {
    sources.push_back({&truth.views[j], depths ? &(*depths)[j] : &truth.depths[j]});
  }
  return sources;
}

FilteredDepthMap FilterTrue(const SyntheticTruth& truth, int view,
                            const GeometricFilterOptions& options = {}, int num_threads = 0) {
  return FilterDepthMap(truth.views[view], truth.depths[view], truth.normals[view], nullptr,
                        SourcesOf(truth, view), options, num_threads);
}

int64_t CountDepths(const DepthMap& depth) {
  int64_t count = 0;
  for (float d : depth.raster().data) count += d > 0;
  return count;
}

// Pixels the filter can confirm (ConfirmablePixel: seen by 2 of the 4 sources, normal not
// grazing) are nearly all kept; the others (walls outside the neighbours' frames, ground
// behind boxes) nearly all go. Sampled every second pixel (ray casting is the slow part).
TEST(GeometricFilter, KeepsNearlyEveryConfirmablePixelOfTrueDepthMaps) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  GeometricFilterOptions options;
  options.min_consistent_views = 2;  // COLMAP's default: the stricter test of the check
  int64_t confirmable = 0, confirmable_kept = 0, other = 0, other_kept = 0;
  for (size_t i = 0; i < truth.views.size(); ++i) {
    const int view = static_cast<int>(i);
    const FilteredDepthMap filtered = FilterTrue(truth, view, options);
    const FilterCounts& counts = filtered.counts;
    EXPECT_EQ(counts.num_input, CountDepths(truth.depths[i]));
    EXPECT_EQ(counts.num_kept, CountDepths(filtered.depth));
    EXPECT_EQ(counts.num_input, counts.num_kept + counts.num_rejected_cost + counts.num_rejected_normal +
                                    counts.num_rejected_inconsistent);
    EXPECT_EQ(counts.num_rejected_cost, 0);
    EXPECT_GT(counts.num_kept, 0.6 * counts.num_input) << "view " << i;
    int64_t view_confirmable = 0, view_kept = 0;
    for (int y = 0; y < filtered.depth.height(); ++y) {
      for (int x = 0; x < filtered.depth.width(); ++x) {
        // Kept pixels keep their depth and normal; the others are cleared.
        const float d = filtered.depth.At(x, y);
        if (d > 0) {
          ASSERT_EQ(d, truth.depths[i].At(x, y));
          ASSERT_EQ(filtered.normals.At(x, y), truth.normals[i].At(x, y));
        } else {
          ASSERT_EQ(filtered.normals.At(x, y), Eigen::Vector3f::Zero());
        }
        if ((x + y) % 2 || truth.depths[i].At(x, y) == 0) continue;
        if (testing::ConfirmablePixel(truth, view, x, y, options.min_consistent_views,
                                      options.max_grazing_angle_deg)) {
          ++view_confirmable;
          view_kept += d > 0;
        } else {
          ++other;
          other_kept += d > 0;
        }
      }
    }
    EXPECT_GT(view_kept, 0.90 * view_confirmable) << "view " << i;
    confirmable += view_confirmable;
    confirmable_kept += view_kept;
  }
  EXPECT_GT(confirmable, 0.7 * 12 * 320 * 240 / 2);
  EXPECT_GT(confirmable_kept, 0.97 * confirmable);
  EXPECT_LT(other_kept, 0.01 * other);
}

TEST(GeometricFilter, RejectsCorruptedDepths) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  // View 0 with every other pixel (at random) off by 2% to 30%, either way.
  DepthMap corrupted = truth.depths[0];
  std::vector<char> is_corrupted(static_cast<size_t>(corrupted.width()) * corrupted.height(), 0);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> error(0.02f, 0.3f);
  for (int y = 0; y < corrupted.height(); ++y) {
    for (int x = 0; x < corrupted.width(); ++x) {
      if (corrupted.At(x, y) == 0 || rng() % 2) continue;
      corrupted.At(x, y) *= rng() % 2 ? 1 + error(rng) : 1 - error(rng);
      is_corrupted[static_cast<size_t>(y) * corrupted.width() + x] = 1;
    }
  }
  const FilteredDepthMap filtered = FilterDepthMap(truth.views[0], corrupted, truth.normals[0], nullptr,
                                                   SourcesOf(truth, 0), GeometricFilterOptions());
  // Among the pixels the filter keeps when nothing is corrupted: the corrupted ones go, the
  // others stay.
  const FilteredDepthMap baseline = FilterTrue(truth, 0);
  int64_t bad = 0, bad_kept = 0, good = 0, good_kept = 0;
  for (int y = 0; y < corrupted.height(); ++y) {
    for (int x = 0; x < corrupted.width(); ++x) {
      if (baseline.depth.At(x, y) == 0) continue;
      const bool kept = filtered.depth.At(x, y) > 0;
      if (is_corrupted[static_cast<size_t>(y) * corrupted.width() + x]) {
        ++bad;
        bad_kept += kept;
      } else {
        ++good;
        good_kept += kept;
        EXPECT_EQ(filtered.depth.At(x, y), baseline.depth.At(x, y));
      }
    }
  }
  ASSERT_GT(bad, 10000);
  EXPECT_LT(bad_kept, 0.01 * bad);
  EXPECT_EQ(good_kept, good);  // their sources are the true maps
  EXPECT_EQ(filtered.counts.num_rejected_normal, baseline.counts.num_rejected_normal);
  EXPECT_GT(filtered.counts.num_rejected_inconsistent, baseline.counts.num_rejected_inconsistent + bad / 2);

  // View 1 keeps its pixels with view 0 corrupted among its four sources (three others
  // agree) but loses some where view 0 was one of only two that see them.
  std::vector<DepthMap> depths = truth.depths;
  depths[0] = corrupted;
  const FilteredDepthMap neighbour = FilterDepthMap(truth.views[1], truth.depths[1], truth.normals[1], nullptr,
                                                    SourcesOf(truth, 1, &depths), GeometricFilterOptions());
  const int64_t neighbour_baseline = FilterTrue(truth, 1).counts.num_kept;
  EXPECT_GT(neighbour.counts.num_kept, 0.8 * neighbour_baseline);
  EXPECT_LT(neighbour.counts.num_kept, neighbour_baseline);
}

TEST(GeometricFilter, RejectsHighCostsAndGrazingNormals) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  const int width = truth.depths[3].width(), height = truth.depths[3].height();
  // Cost 0.1 everywhere but 1.5 in the left half; the top quarter's normals at 85 degrees to
  // the ray (tilted sideways), the next quarter's at 70 degrees.
  FloatRaster cost(width, height, 1);
  NormalMap normals = truth.normals[3];
  const Eigen::Matrix3d k_inverse = truth.views[3].camera.K().inverse();
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      cost.At(x, y) = x < width / 2 ? 1.5f : 0.1f;
      if (y >= height / 2) continue;
      const Eigen::Vector3d ray = (k_inverse * Eigen::Vector3d(x + 0.5, y + 0.5, 1)).normalized();
      const Eigen::Vector3d side = ray.cross(Eigen::Vector3d::UnitY()).normalized();
      const double angle = (y < height / 4 ? 85.0 : 70.0) * M_PI / 180;
      normals.Set(x, y, (-std::cos(angle) * ray + std::sin(angle) * side).cast<float>());
    }
  }
  const FilteredDepthMap filtered = FilterDepthMap(truth.views[3], truth.depths[3], normals, &cost,
                                                   SourcesOf(truth, 3), GeometricFilterOptions());
  const FilteredDepthMap baseline = FilterTrue(truth, 3);
  int64_t left = 0, grazing = 0, tilted_kept = 0, tilted = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      if (baseline.depth.At(x, y) == 0) continue;
      const bool kept = filtered.depth.At(x, y) > 0;
      if (x < width / 2) {
        left += kept;
      } else if (y < height / 4) {
        grazing += kept;
      } else if (y < height / 2) {
        ++tilted;
        tilted_kept += kept;
      }
    }
  }
  EXPECT_EQ(left, 0);
  EXPECT_EQ(grazing, 0);
  EXPECT_GT(tilted, 1000);
  EXPECT_EQ(tilted_kept, tilted);
  EXPECT_GT(filtered.counts.num_rejected_cost, 0);
  EXPECT_GT(filtered.counts.num_rejected_normal, 0);

  GeometricFilterOptions lenient;
  lenient.max_cost = 2;
  lenient.max_grazing_angle_deg = 90;
  const FilteredDepthMap all = FilterDepthMap(truth.views[3], truth.depths[3], normals, &cost,
                                              SourcesOf(truth, 3), lenient);
  EXPECT_EQ(all.counts.num_rejected_cost, 0);
  EXPECT_EQ(all.counts.num_rejected_normal, 0);
}

TEST(GeometricFilter, ConsistentViewsNeededClampToTheSourcesGiven) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  GeometricFilterOptions options;
  options.min_consistent_views = 3;
  const int64_t with_four = FilterTrue(truth, 5, options).counts.num_kept;
  options.min_consistent_views = 4;
  const int64_t all_four = FilterTrue(truth, 5, options).counts.num_kept;
  EXPECT_LT(all_four, with_four);  // the views two steps away see less of view 5
  // One source: that one must agree (clamped from 3 to 1): what it sees of view 5 is kept.
  options.min_consistent_views = 3;
  const FilteredDepthMap one = FilterDepthMap(truth.views[5], truth.depths[5], truth.normals[5], nullptr,
                                              {{&truth.views[6], &truth.depths[6]}}, options);
  int64_t seen = 0, seen_kept = 0;
  for (int y = 0; y < one.depth.height(); y += 2) {
    for (int x = 0; x < one.depth.width(); x += 2) {
      const float d = truth.depths[5].At(x, y);
      const Eigen::Vector3d point = truth.views[5].WorldFromCam(truth.views[5].camera.PointAtPixel(x, y, d));
      if (d == 0 || testing::CountViewsSeeing(truth, {6}, point) == 0) continue;
      ++seen;
      seen_kept += one.depth.At(x, y) > 0;
    }
  }
  EXPECT_GT(seen, 10000);
  EXPECT_GT(seen_kept, 0.9 * seen);  // (grazing normals, edges)
  EXPECT_LT(one.counts.num_kept, seen_kept * 4 * 101 / 100);
  // No source: nothing is confirmed.
  const FilteredDepthMap none = FilterDepthMap(truth.views[5], truth.depths[5], truth.normals[5], nullptr, {},
                                               options);
  EXPECT_EQ(none.counts.num_kept, 0);
  EXPECT_EQ(none.counts.num_rejected_inconsistent + none.counts.num_rejected_normal, none.counts.num_input);
}

TEST(GeometricFilter, SameMapsWhateverTheThreadCount) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  const FilteredDepthMap one = FilterTrue(truth, 7, {}, 1);
  const FilteredDepthMap three = FilterTrue(truth, 7, {}, 3);
  EXPECT_EQ(one.depth.raster().data, three.depth.raster().data);
  EXPECT_EQ(one.normals.raster().data, three.normals.raster().data);
  EXPECT_EQ(one.counts.num_kept, three.counts.num_kept);
}

TEST(GeometricFilter, BadInputsAndOptions) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  const DepthMap small(10, 10);
  EXPECT_THROW(FilterDepthMap(truth.views[0], small, truth.normals[0], nullptr, SourcesOf(truth, 0), {}),
               InputError);
  const FloatRaster small_cost(10, 10, 1);
  try {
    FilterDepthMap(truth.views[0], truth.depths[0], truth.normals[0], &small_cost, SourcesOf(truth, 0), {});
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("the cost raster is 10x10, its camera 320x240"));
  }
  EXPECT_THROW(FilterDepthMap(truth.views[0], truth.depths[0], truth.normals[0], nullptr,
                              {{&truth.views[1], &small}}, {}),
               InputError);
  GeometricFilterOptions options;
  options.min_consistent_views = 0;
  EXPECT_THROW(options.Check(), InputError);
  options = {};
  options.max_reprojection_px = 0;
  EXPECT_THROW(options.Check(), InputError);
  options = {};
  options.max_relative_depth_diff = -1;
  EXPECT_THROW(options.Check(), InputError);
  options = {};
  options.max_grazing_angle_deg = 95;
  EXPECT_THROW(options.Check(), InputError);
  options = {};
  options.max_cost = NAN;
  EXPECT_THROW(options.Check(), InputError);
  EXPECT_NO_THROW(GeometricFilterOptions().Check());
}

}  // namespace
}  // namespace proj::mvs
