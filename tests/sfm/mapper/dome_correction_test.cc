// A nadir block through a distorting lens, its distortion held at zero while it grows, ends
// bent: its GPS fixes show the dome, and the correction flattens it (dome_correction.h).
#include "sfm/mapper/dome_correction.h"

#include <random>

#include <gtest/gtest.h>

#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

TEST(DomeCorrection, FlatteningUndoesTheSameBendExactly) {
  const Scene truth = testing::MakeNadirFlight(4, 5, 300, 3);
  GpsDome bend;
  bend.measured = true;
  bend.centre = Eigen::Vector2d(30, 20);
  bend.radius_m = 50;
  bend.edge_m = 2;
  Scene bent = truth;
  FlattenDome(bend, &bent);  // lowers by the bend: the block bent by -bend
  GpsDome unbend = bend;
  unbend.edge_m = -2;
  FlattenDome(unbend, &bent);
  for (size_t i = 0; i < truth.images.size(); ++i) {
    EXPECT_LT((bent.images[i].cam_from_world.Center() - truth.images[i].cam_from_world.Center()).norm(), 1e-9);
    EXPECT_LT(bent.images[i].cam_from_world.rotation.angularDistance(truth.images[i].cam_from_world.rotation), 1e-9);
  }
  // A camera 30 m east of the centre stands on a slope of 2 * 2 * 30 / 50^2 = 0.048: turned by
  // atan(0.048) about north.
  Scene once = truth;
  FlattenDome(bend, &once);
  const int east = 4;  // row 0, column 4: x = 60 m, y = 0
  const Eigen::Vector3d centre = truth.images[east].cam_from_world.Center();
  const Eigen::Vector2d offset = centre.head<2>() - bend.centre;
  EXPECT_NEAR(once.images[east].cam_from_world.Center().z(), centre.z() - 2 * offset.squaredNorm() / 2500, 1e-9);
  const double slope = 4 * offset.norm() / 2500;
  EXPECT_NEAR(once.images[east].cam_from_world.rotation.angularDistance(truth.images[east].cam_from_world.rotation),
              std::atan(slope), 1e-9);
}

// A 6 x 8 nadir flight through a lens with k1 = -0.05 (21 px at the corners of 1200 x 900,
// f = 1000 px) with GPS fixes of `gps_sigma_m`, its cameras placed as given by `place` (from
// the true ones), the distortion set to `k1`, the points triangulated: a model as the mapper
// ends with it before its final refinement.
struct PlacedFlight {
  testing::MapperTestScene flight;
  Scene scene;
};

constexpr double kTrueK1 = -0.05;

template <typename Place>
void PlaceFlight(double k1, double gps_sigma_m, Place place, PlacedFlight* placed) {
  placed->flight = testing::MakeMapperTestScene(testing::MakeNadirFlight(6, 8, 5000, 11, kTrueK1));
  Scene& scene = placed->scene;
  scene = placed->flight.input;
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(0.0, gps_sigma_m);
  for (size_t i = 0; i < scene.images.size(); ++i) {
    const Eigen::Vector3d centre = placed->flight.truth.images[i].cam_from_world.Center();
    PositionPrior prior;
    prior.position = centre + Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
    prior.sigma = Eigen::Vector3d::Constant(gps_sigma_m);
    scene.position_priors[static_cast<int>(i)] = prior;
    scene.images[i].cam_from_world = placed->flight.truth.images[i].cam_from_world;
    scene.images[i].registered = true;
  }
  scene.focal_priors_px[0] = 1000;
  scene.cameras[0].params[scene.cameras[0].ExtraIndices().front()] = k1;
  place(&scene);
}

IncrementalMapperOptions Options() {
  IncrementalMapperOptions options;
  options.num_threads = 2;
  return options;
}

double K1(const Scene& scene) { return scene.cameras[0].params[scene.cameras[0].ExtraIndices().front()]; }

TEST(DomeCorrection, ABlockBentWithAWrongK1IsFlattenedByItsGps) {
  // The block bent 3 m down at 70 m from its centre and k1 held at -0.035: what growth with
  // distortion held leaves (200-image rendered flight with k1 = -0.05: 8.9 m at its edge).
  GpsDome bend;
  bend.measured = true;
  bend.centre = Eigen::Vector2d(52.5, 37.5);
  bend.radius_m = 70;
  bend.edge_m = 3;  // flattening by +3 m bends down by 3 m
  PlacedFlight placed;
  PlaceFlight(-0.035, 0.3, [&](Scene* scene) { FlattenDome(bend, scene); }, &placed);
  const IncrementalMapperOptions options = Options();
  IncrementalMapper mapper(options, placed.flight.tracks, placed.flight.pairs, &placed.scene);
  TriangulatePlacedCameras(options, 4, 2, &mapper, &placed.scene);
  mapper.FinishGrowing();
  ASSERT_TRUE(mapper.AlignToPriors().aligned);
  const testing::CenterErrors bent = testing::CenterErrorsAfterSimilarity(placed.flight.truth, placed.scene);

  const DomeCorrection dome = CorrectDomeFromGps(options.dome, options, &mapper, &placed.scene);
  EXPECT_TRUE(dome.attempted) << dome.before.edge_m << " +- " << dome.before.edge_sigma_m;
  ASSERT_TRUE(dome.applied) << dome.note;
  EXPECT_LT(dome.before.edge_m, -1);
  EXPECT_LT(std::abs(dome.after.edge_m), 0.2 * std::abs(dome.before.edge_m)) << dome.note;
  EXPECT_LT(std::abs(K1(placed.scene) - kTrueK1), 0.2 * 0.015) << dome.note;
  EXPECT_NEAR(dome.k1_shift, K1(placed.scene) - (-0.035), 1e-12);
  const testing::CenterErrors flattened = testing::CenterErrorsAfterSimilarity(placed.flight.truth, placed.scene);
  EXPECT_EQ(flattened.num_registered, 48);
  EXPECT_LT(flattened.median_m, 0.2 * bent.median_m) << "bent " << bent.median_m << " m";
}

TEST(DomeCorrection, AFlatBlockIsLeftAlone) {
  PlacedFlight placed;
  PlaceFlight(kTrueK1, 0.05, [](Scene*) {}, &placed);
  const IncrementalMapperOptions options = Options();
  IncrementalMapper mapper(options, placed.flight.tracks, placed.flight.pairs, &placed.scene);
  TriangulatePlacedCameras(options, 1, 2, &mapper, &placed.scene);
  mapper.FinishGrowing();
  ASSERT_TRUE(mapper.AlignToPriors().aligned);
  const Scene before = placed.scene;
  const DomeCorrection dome = CorrectDomeFromGps(options.dome, options, &mapper, &placed.scene);
  EXPECT_TRUE(dome.before.measured);
  EXPECT_FALSE(dome.attempted) << dome.note;
  EXPECT_EQ(K1(placed.scene), kTrueK1);
  EXPECT_TRUE(placed.scene.images[7].cam_from_world.translation.isApprox(before.images[7].cam_from_world.translation, 1e-6));
}

}  // namespace
}  // namespace proj
