// A synthetic forward-motion sequence, as from a car's dashboard camera: the camera drives
// along an L-shaped street (a straight, a 90-degree left turn on an arc, a straight), or
// around a block back to its start (`loop`), lined by textured building facades and parked
// cars, about step_m between frames, and stands
// still for a few frames once (identical positions). The wide, low image and the optional
// radial distortion are those of such cameras (KITTI: 1226 x 370, f ~ 720 px).
//
// Distortion is the one-parameter radial model of SIMPLE_RADIAL (geometry/camera): an
// undistorted normalized point x maps to x * (1 + radial_k1 * |x|^2). Ground truth is
// written as in synthetic_scene.h, with radial_k1 as the first distortion term.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "datasets/synthetic/synthetic_world.h"
#include "geometry/geodesy/local_enu_frame.h"
#include "io/float_raster_file.h"
#include "io/image.h"
#include "io/strecha_camera.h"

namespace proj {

struct SyntheticStreetOptions {
  int num_frames = 56;
  int width = 1226;              // pixels
  int height = 370;
  double focal_px = 720;         // fx = fy, principal point at the image centre
  double radial_k1 = 0;          // SIMPLE_RADIAL distortion (< 0: barrel)
  double step_m = 1.0;           // distance driven between moving frames
  int stop_frames = 5;           // frames at one position (a stop); 0 or 1: no stop
  // A closed loop instead of the L: a rounded rectangle with four left turns of turn_radius_m
  // around a block of buildings, the last frame one step before the first (where the path
  // returns), for loop closure.
  bool loop = false;
  double turn_radius_m = 8;      // the 90-degree left turn
  double camera_height_m = 1.6;
  double pitch_deg = 3;          // camera looks down by this much
  uint64_t seed = 1;             // layout, textures
  int supersampling = 2;         // as SyntheticSceneOptions
  int jpeg_quality = 95;
  int num_threads = 0;           // <= 0: all hardware threads
  // GPS in each frame's EXIF (a car's receiver): the true centre plus white noise, the world
  // taken as East-North-Up metres at gps_origin, heights ellipsoidal. Off: no EXIF at all.
  bool write_gps = false;
  EnuFrame gps_origin{46.8428, -92.0016, 190.0};
  double gps_horizontal_std_m = 1.5;
  double gps_vertical_std_m = 3.0;

  // Throws InputError naming the offending field.
  void Check() const;
};

// The ground-truth cameras, in driving order (cheap: nothing is rendered).
std::vector<StrechaCamera> MakeStreetCameras(const SyntheticStreetOptions& options);

// The street's world: buildings along both sides of the path, parked cars, ground.
synthetic::SyntheticWorld BuildStreetWorld(const SyntheticStreetOptions& options);

// Renders one view (with the options' distortion) of the street world.
Image RenderStreetView(const synthetic::SyntheticWorld& world, const StrechaCamera& camera,
                       const SyntheticStreetOptions& options);

// True depth of that view (synthetic::RenderDepth), each pixel's ray bent by the distortion.
FloatRaster RenderStreetDepth(const synthetic::SyntheticWorld& world, const StrechaCamera& camera,
                              const SyntheticStreetOptions& options);

// Builds, renders and writes every view as WriteSyntheticViews (synthetic_output.h) does.
void WriteSyntheticStreet(const SyntheticStreetOptions& options, const std::string& out_dir);

}  // namespace proj
