// An exact synthetic view graph for the mapper tests: the scene of tests/sfm/ba (cameras on an
// arc around a box of points, exact keypoints), its tracks, and every image pair sharing
// points as a verified calibrated pair with its true relative pose.
#pragma once

#include <vector>

#include "sfm/scene/scene.h"
#include "sfm/scene/track_builder.h"
#include "sfm/scene/view_graph.h"
#include "tests/sfm/ba/synthetic_scene.h"

namespace proj::testing {

struct MapperTestScene {
  Scene truth;  // all registered, points with their true positions
  Scene input;  // the same cameras and keypoints, nothing registered, no points
  TrackSet tracks;  // one track per true point
  std::vector<VerifiedPair> pairs;
};

MapperTestScene MakeMapperTestScene(const SyntheticSceneOptions& options);
// The same for a given true scene (all registered, points with their tracks).
MapperTestScene MakeMapperTestScene(const Scene& truth);

// The mappers' usual test scene: 12 images of one SIMPLE_RADIAL camera, 500 points, close
// enough that each image sees only part of them.
SyntheticSceneOptions SmallMapperScene();

// A nadir drone flight in a local ENU frame (metres): a rows x cols grid of cameras (SIMPLE_RADIAL,
// 1200 x 900, focal 1000 px) 40 m above gently rolling terrain, 15 m apart, each looking
// straight down; num_points points over the grid and a 15 m margin; keypoints are the
// projections plus 0.5 px Gaussian noise, through a lens with radial distortion `k1`. All
// registered, points with their tracks.
Scene MakeNadirFlight(int rows, int cols, int num_points, uint64_t seed, double k1 = 0);

// Camera centre errors of `model`'s registered images against `truth` (same image ids), after
// the best similarity between them.
struct CenterErrors {
  int num_registered = 0;
  double median_m = 0;
  double max_m = 0;
};
CenterErrors CenterErrorsAfterSimilarity(const Scene& truth, const Scene& model);

// The pair (image1, image2) of `scene.pairs`; aborts if absent.
const VerifiedPair& FindPair(const MapperTestScene& scene, int image1, int image2);

// Per image, the number of its keypoints whose track has a point in `scene`, counted from
// scratch (the points' observations name their tracks through tracks.track_of).
std::vector<int> RecountTracksWithPoint(const Scene& scene, const TrackSet& tracks);

// Largest angle (degrees) between true and estimated relative rotations R_i R_j^T over all
// pairs of images registered in `estimate` (gauge-free).
double MaxRelativeRotationErrorDeg(const Scene& truth, const Scene& estimate);

}  // namespace proj::testing
