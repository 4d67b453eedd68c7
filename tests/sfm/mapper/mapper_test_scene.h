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

// The pair (image1, image2) of `scene.pairs`; aborts if absent.
const VerifiedPair& FindPair(const MapperTestScene& scene, int image1, int image2);

// Per image, the number of its keypoints whose track has a point in `scene`, counted from
// scratch (the points' observations name their tracks through tracks.track_of).
std::vector<int> RecountTracksWithPoint(const Scene& scene, const TrackSet& tracks);

// Largest angle (degrees) between true and estimated relative rotations R_i R_j^T over all
// pairs of images registered in `estimate` (gauge-free).
double MaxRelativeRotationErrorDeg(const Scene& truth, const Scene& estimate);

}  // namespace proj::testing
