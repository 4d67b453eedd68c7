// Fusion of the synthetic ring's true depth maps: the points lie on the true surfaces with
// their normals, each backed by enough views; the cloud does not grow when every view is
// given twice; colours are the views' means; threads do not change the cloud; voxels thin it.
#include "mvs/fusion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "core/check.h"
#include "tests/mvs/synthetic_truth.h"

namespace proj::mvs {
namespace {

using ::testing::HasSubstr;
using testing::SyntheticRingTruth;
using testing::SyntheticTruth;

// Every view of the truth once, with its ring neighbours; `colours` (optional) one per view.
std::vector<FusionView> TrueViews(const SyntheticTruth& truth, const std::vector<Image>* colours = nullptr) {
  std::vector<FusionView> views;
  for (size_t i = 0; i < truth.views.size(); ++i) {
    views.push_back({&truth.views[i], &truth.depths[i], &truth.normals[i], colours ? &(*colours)[i] : nullptr,
                     truth.neighbours[i]});
  }
  return views;
}

size_t CountDepthPixels(const SyntheticTruth& truth) {
  size_t pixels = 0;
  for (const DepthMap& depth : truth.depths) {
    for (float d : depth.raster().data) pixels += d > 0;
  }
  return pixels;
}

double Quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(q * (values.size() - 1))];
}

TEST(Fusion, PointsLieOnTheTrueSurfacesWithTheirNormals) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  const DenseCloud cloud = FuseDepthMaps(TrueViews(truth), FusionOptions());
  ASSERT_EQ(cloud.normals.size(), cloud.size());
  ASSERT_EQ(cloud.colors.size(), cloud.size());
  ASSERT_EQ(cloud.num_views.size(), cloud.size());
  const size_t pixels = CountDepthPixels(truth);
  // Each point stands for several pixels (it has at least 3 views), so the cloud is several
  // times smaller than the pixels, but covers most of them.
  EXPECT_GT(cloud.size(), pixels / 8);
  EXPECT_LT(cloud.size(), pixels / 3);

  std::vector<double> distances;
  int wrong_normals = 0;
  for (size_t i = 0; i < cloud.size(); ++i) {
    int surface = -1;
    distances.push_back(truth.world.DistanceToSurfaces(cloud.positions[i].cast<double>(), &surface));
    const Eigen::Vector3d true_normal = truth.world.surfaces()[surface].normal;
    // Free-standing walls show both sides: compare up to sign.
    wrong_normals += std::abs(cloud.normals[i].cast<double>().dot(true_normal)) < std::cos(2 * M_PI / 180);
    EXPECT_NEAR(cloud.normals[i].norm(), 1.0f, 1e-5f);
    EXPECT_GE(cloud.num_views[i], 3);
    EXPECT_LE(cloud.num_views[i], 5);
    EXPECT_EQ(cloud.colors[i], (Rgb8{128, 128, 128}));
  }
  // On the surfaces up to float rounding (a cluster's points lie on one plane: the normal
  // test keeps the faces of a box edge apart).
  EXPECT_LT(Quantile(distances, 0.5), 1e-6);
  EXPECT_LT(Quantile(distances, 1.0), 1e-5);
  EXPECT_LT(wrong_normals, 0.01 * cloud.size());
}

TEST(Fusion, CloudDoesNotGrowWhenEveryViewIsGivenTwice) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  FusionOptions options;
  options.min_views = 1;  // so that copies, which add views to each cluster, add no point
  const DenseCloud once = FuseDepthMaps(TrueViews(truth), options);
  // Views n..2n-1 repeat views 0..n-1; each view's neighbours are its ring neighbours and
  // their copies, and its own copy.
  const int n = static_cast<int>(truth.views.size());
  std::vector<FusionView> twice = TrueViews(truth);
  for (int i = 0; i < n; ++i) twice.push_back(twice[i]);
  for (int i = 0; i < 2 * n; ++i) {
    std::vector<int> neighbours = {(i + n) % (2 * n)};
    for (int j : truth.neighbours[i % n]) {
      neighbours.push_back(j);
      neighbours.push_back(j + n);
    }
    twice[i].neighbours = neighbours;
  }
  const DenseCloud doubled = FuseDepthMaps(twice, options);
  EXPECT_LE(doubled.size(), once.size() * 101 / 100);
  EXPECT_GE(doubled.size(), once.size() * 99 / 100);
  // Without neighbours nothing is de-duplicated: every pixel is a point, twice over.
  for (FusionView& view : twice) view.neighbours.clear();
  EXPECT_EQ(FuseDepthMaps(twice, options).size(), 2 * CountDepthPixels(truth));
}

TEST(Fusion, ColoursAreTheMeanOfTheViews) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  // Even views red-ish, odd views blue-ish, one grey-level image: each point's colour is the
  // mean of its views' colours.
  std::vector<Image> colours(truth.views.size());
  for (size_t i = 0; i < colours.size(); ++i) {
    Image& image = colours[i];
    image.width = truth.views[i].camera.width;
    image.height = truth.views[i].camera.height;
    image.channels = i == 5 ? 1 : 3;
    image.data.assign(static_cast<size_t>(image.width) * image.height * image.channels, 0);
    for (size_t p = 0; p < image.data.size(); p += image.channels) {
      if (i == 5) {
        image.data[p] = 90;
      } else {
        image.data[p] = i % 2 ? 0 : 240;
        image.data[p + 1] = 60;
        image.data[p + 2] = i % 2 ? 240 : 0;
      }
    }
  }
  const DenseCloud cloud = FuseDepthMaps(TrueViews(truth, &colours), FusionOptions());
  ASSERT_GT(cloud.size(), 1000u);
  int mixed = 0, with_grey = 0;
  for (const Rgb8& colour : cloud.colors) {
    // Any mean of red (240, 60, 0), blue (0, 60, 240) and grey (90, 90, 90) has
    // R + B + 2 G = 360 (up to the rounding of each channel).
    EXPECT_NEAR(colour[0] + colour[2] + 2 * colour[1], 360, 2);
    mixed += colour[0] > 0 && colour[2] > 0;
    with_grey += colour[1] > 61;
  }
  EXPECT_GT(mixed, 0.9 * cloud.size());  // ring neighbours alternate between red and blue
  EXPECT_GT(with_grey, 0.1 * cloud.size());
}

TEST(Fusion, SameCloudWhateverTheThreadCount) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  const DenseCloud one = FuseDepthMaps(TrueViews(truth), FusionOptions(), 1);
  const DenseCloud three = FuseDepthMaps(TrueViews(truth), FusionOptions(), 3);
  ASSERT_EQ(one.size(), three.size());
  EXPECT_TRUE(one.positions == three.positions);
  EXPECT_TRUE(one.normals == three.normals);
  EXPECT_TRUE(one.colors == three.colors);
  EXPECT_TRUE(one.num_views == three.num_views);
}

TEST(Fusion, MinViewsClampsToTheNeighboursAvailable) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  // Two views, each the other's only neighbour: clusters have at most 2 views, and the
  // default of 3 becomes 2.
  std::vector<FusionView> pair = {{&truth.views[0], &truth.depths[0], &truth.normals[0], nullptr, {1}},
                                  {&truth.views[1], &truth.depths[1], &truth.normals[1], nullptr, {0}}};
  const DenseCloud cloud = FuseDepthMaps(pair, FusionOptions());
  ASSERT_GT(cloud.size(), 10000u);
  for (uint16_t views : cloud.num_views) EXPECT_EQ(views, 2);
  // min_views above what the views allow clamps too; 1 keeps single-view pixels as well.
  FusionOptions options;
  options.min_views = 1;
  EXPECT_GT(FuseDepthMaps(pair, options).size(), cloud.size());
}

TEST(Fusion, VoxelGridThinsTheCloud) {
  DenseCloud cloud;
  // Two points in voxel (0, 0, 0), one in (1, 0, 0), one in (-1, 0, 0), with a voxel of 1.
  cloud.positions = {{0.1f, 0.2f, 0.3f}, {0.5f, 0.6f, 0.7f}, {1.5f, 0.5f, 0.5f}, {-0.5f, 0.5f, 0.5f}};
  cloud.normals = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {1, 0, 0}};
  cloud.colors = {{10, 20, 30}, {20, 40, 60}, {1, 2, 3}, {4, 5, 6}};
  cloud.num_views = {3, 65535, 4, 5};
  const DenseCloud thinned = VoxelDownsample(cloud, 1.0);
  ASSERT_EQ(thinned.size(), 3u);
  EXPECT_TRUE(thinned.positions[0].isApprox(Eigen::Vector3f(0.3f, 0.4f, 0.5f)));
  EXPECT_TRUE(thinned.normals[0].isApprox(Eigen::Vector3f(0, 1, 1).normalized()));
  EXPECT_EQ(thinned.colors[0], (Rgb8{15, 30, 45}));
  EXPECT_EQ(thinned.num_views[0], 65535);  // saturated sum
  EXPECT_EQ(thinned.positions[1], cloud.positions[2]);
  EXPECT_EQ(thinned.positions[2], cloud.positions[3]);
  EXPECT_EQ(thinned.num_views[2], 5);

  // On the ring: a 20 cm grid leaves far fewer points, each still near the surfaces (the mean
  // of a voxel's points straddling a box edge leaves the faces).
  const SyntheticTruth& truth = SyntheticRingTruth();
  FusionOptions options;
  options.voxel_size = 0.2;
  const DenseCloud fused = FuseDepthMaps(TrueViews(truth), FusionOptions());
  const DenseCloud gridded = FuseDepthMaps(TrueViews(truth), options);
  EXPECT_LT(gridded.size(), fused.size() / 4);
  EXPECT_EQ(VoxelDownsample(fused, 0.2).positions, gridded.positions);
  for (const Eigen::Vector3f& p : gridded.positions) {
    EXPECT_LT(truth.world.DistanceToSurfaces(p.cast<double>()), 0.1);
  }
}

TEST(Fusion, BadInputsAndOptions) {
  const SyntheticTruth& truth = SyntheticRingTruth();
  std::vector<FusionView> views = TrueViews(truth);
  views[2].neighbours.push_back(12);
  try {
    FuseDepthMaps(views, FusionOptions());
    ADD_FAILURE() << "no error";
  } catch (const InputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("view 2 names neighbour 12 of 12 views"));
  }
  views = TrueViews(truth);
  const DepthMap small(10, 10);
  views[4].depth = &small;
  EXPECT_THROW(FuseDepthMaps(views, FusionOptions()), InputError);
  views = TrueViews(truth);
  Image colour;
  colour.width = 10;
  colour.height = 10;
  colour.channels = 3;
  colour.data.assign(300, 0);
  views[1].colour = &colour;
  EXPECT_THROW(FuseDepthMaps(views, FusionOptions()), InputError);

  FusionOptions options;
  options.min_views = 0;
  EXPECT_THROW(options.Check(), InputError);
  options = {};
  options.max_relative_depth_diff = 0;
  EXPECT_THROW(options.Check(), InputError);
  options = {};
  options.max_normal_angle_deg = 0;
  EXPECT_THROW(options.Check(), InputError);
  options = {};
  options.voxel_size = -1;
  EXPECT_THROW(options.Check(), InputError);
  EXPECT_THROW(VoxelDownsample(DenseCloud(), 0), InputError);
  EXPECT_TRUE(FuseDepthMaps({}, FusionOptions()).positions.empty());
}

}  // namespace
}  // namespace proj::mvs
