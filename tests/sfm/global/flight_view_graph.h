// A synthetic drone survey's view graph, verified as the pipeline verifies one: nadir cameras
// along parallel flight lines (a lawnmower pattern) over nearly flat ground, so that most
// pairs are planar (a homography explains them), with GPS fixes as position priors. The
// pattern behind the global mapper's failures on `sfm synth --flight` and real surveys.
#pragma once

#include <cstdint>

#include "tests/sfm/global/ring_view_graph.h"

namespace proj::testing {

struct FlightViewGraphOptions {
  int num_lines = 3;
  int images_per_line = 8;
  double altitude_m = 80;
  double forward_overlap = 0.75;
  double side_overlap = 0.6;
  int num_points = 3000;      // on the ground below the flight
  double relief_m = 1;        // ground heights in [-relief, relief]
  int width = 1280;
  int height = 960;
  double focal_px = 1100;     // true and prior (the EXIF's)
  double noise_px = 0.3;
  double gps_sigma_m = 1.5;   // horizontal; vertical twice that
  double yaw_jitter_deg = 3;  // heading noise of each shot
  uint64_t seed = 11;
};

SyntheticViewGraph MakeFlightViewGraph(const FlightViewGraphOptions& options);

}  // namespace proj::testing
