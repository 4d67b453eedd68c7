// The global mapper on a drone survey's view graph (flight_view_graph.h): nadir images of
// nearly flat ground along parallel lines, GPS fixes as priors.
#include <gtest/gtest.h>

#include "sfm/global/global_mapper.h"
#include "tests/sfm/global/flight_view_graph.h"

namespace proj {
namespace {

// Flat ground: every pair is planar. With planar pairs left out, no image was averaged.
TEST(GlobalMapperFlight, RegistersEveryImageOfAFlatSurveyInItsPlace) {
  testing::FlightViewGraphOptions flight;
  flight.relief_m = 0.05;
  const testing::SyntheticViewGraph graph = testing::MakeFlightViewGraph(flight);
  const int n = static_cast<int>(graph.input.images.size());
  int planar = 0;
  for (const VerifiedPair& pair : graph.pairs) planar += pair.geometry.configuration == TwoViewConfiguration::kPlanar;
  ASSERT_EQ(planar, static_cast<int>(graph.pairs.size()));  // what the test is about
  Scene scene = graph.input;
  GlobalMapperOptions options;
  options.refinement.num_threads = 1;
  const MapperSummary summary = RunGlobalMapper(options, graph.tracks, graph.pairs, &scene);
  ASSERT_TRUE(summary.success) << summary.failure_reason;
  EXPECT_EQ(scene.NumRegisteredImages(), n);
  std::vector<Eigen::Vector3d> true_centres, centres;
  testing::RegisteredCentres(graph.truth, scene, &true_centres, &centres);
  EXPECT_LT(testing::MaxAlignedDistance(true_centres, centres, 80), 0.005);
}

// Images whose pairs carry no usable relative pose (here: none at all) are not averaged or
// positioned; the incremental mapper's registration adds them from the others' points.
TEST(GlobalMapperFlight, RegistersImagesLeftOutOfTheAveraging) {
  testing::SyntheticViewGraph graph = testing::MakeFlightViewGraph({});
  const std::vector<int> left_out = {5, 12};
  for (VerifiedPair& pair : graph.pairs) {
    for (int image : left_out) {
      if (pair.pair.image1 == image || pair.pair.image2 == image) pair.geometry.has_relative_pose = false;
    }
  }
  Scene scene = graph.input;
  GlobalMapperOptions options;
  options.refinement.num_threads = 1;
  GlobalMapperTrace trace;
  const MapperSummary summary = RunGlobalMapper(options, graph.tracks, graph.pairs, &scene, &trace);
  ASSERT_TRUE(summary.success) << summary.failure_reason;
  EXPECT_EQ(trace.rotation_averaging.num_images, scene.NumRegisteredImages() - 2);
  for (int image : left_out) EXPECT_TRUE(scene.images[image].registered) << image;
  std::vector<Eigen::Vector3d> true_centres, centres;
  testing::RegisteredCentres(graph.truth, scene, &true_centres, &centres);
  EXPECT_EQ(centres.size(), graph.input.images.size());
  EXPECT_LT(testing::MaxAlignedDistance(true_centres, centres, 80), 0.005);
}

}  // namespace
}  // namespace proj
