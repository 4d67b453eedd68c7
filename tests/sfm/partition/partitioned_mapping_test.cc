// Partitioned mapping end to end on an exact nadir flight: the view graph cut into parts,
// each mapped alone, merged and completed, against the truth and against one mapping of the
// whole, with GPS (parts cut by position) and without (cut by the view graph).
#include "sfm/stages/partitioned_mapping.h"

#include <random>

#include <gtest/gtest.h>

#include "sfm/stages/gps_rebuild.h"
#include "sfm/stages/reconstruction_options.h"
#include "tests/sfm/mapper/mapper_test_scene.h"

namespace proj {
namespace {

ReconstructionOptions Options() {
  ReconstructionOptions options;
  options.run.device = ComputeDevice::kCpu;
  options.run.num_threads = 2;
  options.partitioning.parallel_parts = 2;
  return options.Resolve();
}

void AddGps(double sigma_m, uint64_t seed, Scene* scene, const Scene& truth) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, sigma_m);
  for (size_t i = 0; i < truth.images.size(); ++i) {
    PositionPrior prior;
    prior.position = truth.images[i].cam_from_world.Center() + Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
    prior.sigma = Eigen::Vector3d::Constant(sigma_m);
    scene->position_priors[static_cast<int>(i)] = prior;
  }
}

TEST(PartitionedMapping, ThreePartsOfAFlightWithGpsMatchOneMappingOfTheWhole) {
  testing::MapperTestScene flight = testing::MakeMapperTestScene(testing::MakeNadirFlight(4, 15, 4000, 7));
  AddGps(1.0, 8, &flight.input, flight.truth);
  // The EXIF focal length, which the mapper holds once the model is aligned to the GPS: nadir
  // views of nearly flat ground cannot tell focal length from height.
  flight.input.focal_priors_px[0] = 1000;
  const ReconstructionOptions options = Options();

  Scene whole = flight.input;
  const MapperSummary single = MapAndGeoreference(options, flight.tracks, flight.pairs, &whole);
  ASSERT_TRUE(single.success) << single.failure_reason;

  Scene parted = flight.input;
  PartitionedMappingTrace trace;
  const MapperSummary merged = MapPartitioned(options, 3, flight.tracks, flight.pairs, &parted, &trace);
  ASSERT_TRUE(merged.success) << merged.failure_reason;
  EXPECT_TRUE(trace.partition.by_position);
  ASSERT_EQ(trace.partition.parts.size(), 3u);
  EXPECT_EQ(trace.merge.NumMerged(), 3);
  for (const MapperSummary& part : trace.parts) EXPECT_TRUE(part.success) << part.failure_reason;
  EXPECT_TRUE(merged.georeference.aligned) << merged.georeference.failure_reason;

  const testing::CenterErrors one = testing::CenterErrorsAfterSimilarity(flight.truth, whole);
  const testing::CenterErrors parts = testing::CenterErrorsAfterSimilarity(flight.truth, parted);
  EXPECT_EQ(one.num_registered, 60);
  EXPECT_EQ(parts.num_registered, 60);
  // 0.5 px keypoint noise at 40 m: centimetres. The merged model is adjusted as a whole, so
  // nearly as accurate as the single run: on 60 images the two keep different observations at
  // the filtering thresholds (merged 2.6 cm, single 2.2 cm median here).
  EXPECT_LT(parts.median_m, 0.05);
  EXPECT_LE(parts.median_m, 1.3 * one.median_m) << "single run " << one.median_m;
  EXPECT_LT(parts.max_m, 0.2);
  // One point per track across the part boundaries: as many points as the single run, within 2%.
  EXPECT_NEAR(static_cast<double>(merged.num_points), single.num_points, 0.02 * single.num_points);
}

TEST(PartitionedMapping, WithoutGpsThePartsAreCutByTheViewGraphAndMergedAlike) {
  const testing::MapperTestScene flight = testing::MakeMapperTestScene(testing::MakeNadirFlight(3, 16, 3600, 9));
  const ReconstructionOptions options = Options();
  Scene parted = flight.input;
  PartitionedMappingTrace trace;
  const MapperSummary merged = MapPartitioned(options, 2, flight.tracks, flight.pairs, &parted, &trace);
  ASSERT_TRUE(merged.success) << merged.failure_reason;
  EXPECT_FALSE(trace.partition.by_position);
  EXPECT_EQ(trace.merge.NumMerged(), 2);
  const testing::CenterErrors errors = testing::CenterErrorsAfterSimilarity(flight.truth, parted);
  EXPECT_EQ(errors.num_registered, 48);
  EXPECT_LT(errors.median_m, 0.05);
  EXPECT_LT(errors.max_m, 0.2);
}

// With the merged shape held through the completion (--partition-shape-prior), the flight is
// as accurate as freely completed, and the alignment to the merged centres is not reported as
// a georeference: there is no GPS here.
TEST(PartitionedMapping, HoldingTheMergedShapeKeepsTheModelAndClaimsNoGeoreference) {
  testing::MapperTestScene flight = testing::MakeMapperTestScene(testing::MakeNadirFlight(4, 12, 3000, 9));
  ReconstructionOptions options = Options();
  options.partitioning.merged.shape_prior_factor = 3;
  Scene parted = flight.input;
  PartitionedMappingTrace trace;
  const MapperSummary merged = MapPartitioned(options, 2, flight.tracks, flight.pairs, &parted, &trace);
  ASSERT_TRUE(merged.success) << merged.failure_reason;
  EXPECT_EQ(trace.merge.NumMerged(), 2);
  EXPECT_GT(trace.merge.MedianCenterError(), 0);
  EXPECT_FALSE(merged.georeference.aligned);
  EXPECT_TRUE(parted.position_priors.empty());
  const testing::CenterErrors errors = testing::CenterErrorsAfterSimilarity(flight.truth, parted);
  EXPECT_EQ(errors.num_registered, 48);
  EXPECT_LT(errors.median_m, 0.05);
  EXPECT_LT(errors.max_m, 0.2);
}

TEST(PartitionedMapping, PartCountFollowsTheOptions) {
  PartitionedMappingOptions options;
  // Automatic by default: one run of the whole up to 2,500 images, parts of 500 above.
  EXPECT_EQ(options.NumParts(2500, 1), 1);
  EXPECT_EQ(options.NumParts(2501, 1), 6);
  EXPECT_EQ(options.NumParts(10000, 1), 20);
  options.max_part_images = 0;  // never
  EXPECT_EQ(options.NumParts(10000, 1), 1);
  options.max_part_images = 1000;
  EXPECT_EQ(options.NumParts(1000, 1), 1);
  EXPECT_EQ(options.NumParts(1001, 1), 2);
  EXPECT_EQ(options.NumParts(10000, 1), 10);
  options.num_parts = 4;
  EXPECT_EQ(options.NumParts(200, 1), 4);
  options.max_part_images = 5;
  EXPECT_THROW(options.Check(), InputError);
  options.max_part_images = -2;
  EXPECT_THROW(options.Check(), InputError);
}

// Shape priors are off unless asked for, and a negative factor is refused.
TEST(PartitionedMapping, ShapePriorsOffByDefaultAndNeverNegative) {
  PartitionedMappingOptions options;
  EXPECT_EQ(options.merged.shape_prior_factor, 0);
  options.merged.shape_prior_factor = 3;
  EXPECT_NO_THROW(options.Check());
  options.merged.shape_prior_factor = -1;
  EXPECT_THROW(options.Check(), InputError);
}

TEST(PartitionedMapping, PartCountFillsEveryRoundOfParallelParts) {
  PartitionedMappingOptions options;
  // 16 threads: 4 parts at a time (one per 4 threads).
  EXPECT_EQ(options.ParallelParts(10, 16), 4);
  EXPECT_EQ(options.ParallelParts(2, 16), 2);
  EXPECT_EQ(options.ParallelParts(10, 2), 1);
  // 5,000 images in parts of 500 are 10; with 4 at a time 12 smaller ones fill 3 rounds.
  EXPECT_EQ(options.NumParts(5000, 16), 12);
  EXPECT_EQ(options.NumParts(10000, 16), 20);  // 5 full rounds already
  EXPECT_EQ(options.NumParts(2501, 16), 8);
  EXPECT_EQ(options.NumParts(5000, 2), 10);    // one at a time: parts of the size asked
  EXPECT_EQ(options.NumParts(2000, 16), 1);    // not partitioned
  options.parallel_parts = 3;
  EXPECT_EQ(options.NumParts(5000, 16), 12);
  options.parallel_parts = 8;
  EXPECT_EQ(options.NumParts(5000, 16), 16);
  options.num_parts = 5;                       // asked for: exactly that
  EXPECT_EQ(options.NumParts(5000, 16), 5);
}

}  // namespace
}  // namespace proj
