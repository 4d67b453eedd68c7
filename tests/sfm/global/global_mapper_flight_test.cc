// The global mapper on a drone survey's view graph (flight_view_graph.h): nadir images of
// nearly flat ground along parallel lines, GPS fixes as priors.
#include <gtest/gtest.h>

#include "sfm/global/global_mapper.h"
#include "tests/sfm/global/flight_view_graph.h"

namespace proj {
namespace {

TEST(GlobalMapperFlight, RegistersEveryImageOfASurveyInItsPlace) {
  testing::FlightViewGraphOptions flight;
  flight.relief_m = 0.05;
  const testing::SyntheticViewGraph graph = testing::MakeFlightViewGraph(flight);
  const int n = static_cast<int>(graph.input.images.size());
  int planar = 0;
  for (const VerifiedPair& pair : graph.pairs) planar += pair.geometry.configuration == TwoViewConfiguration::kPlanar;
  std::cerr << graph.pairs.size() << " pairs, " << planar << " planar\n";
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

}  // namespace
}  // namespace proj
