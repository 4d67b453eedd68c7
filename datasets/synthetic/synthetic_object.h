// A synthetic object scan: a small matte object (a sphere with lobes, about 0.22 m across,
// low-contrast solid noise texture, lit by fixed lights) on a black background, seen from
// many views spread evenly over a sphere around it (jittered distance and roll), without
// EXIF. Few features per image (a few hundred) and many overlapping views: the dense view
// sets on which union-find tracks used to collapse (issue 26). The true focal length is
// options.focal_px; the reconstruction's guess without EXIF is 1.2 x the longer side (768 px
// at 640x480), so the default 3072 px is 4x that guess. Ground truth is written as in
// synthetic_scene.h. Same options => identical files, whatever num_threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "io/float_raster_file.h"
#include "io/image.h"
#include "io/strecha_camera.h"

namespace proj {

struct SyntheticObjectOptions {
  int num_views = 300;
  int width = 640;  // pixels
  int height = 480;
  double focal_px = 3072;           // fx = fy, principal point at the centre, no distortion
  double distance_m = 2.0;          // mean distance of the cameras from the object's centre
  double distance_jitter = 0.1;     // each view's distance is off the mean by up to this fraction
  double roll_jitter_deg = 20;      // random roll about the viewing direction, up to this
  double min_elevation_deg = -60;   // views below this elevation are left out (the support)
  double texture_contrast = 0.6;    // albedo varies by about +-this fraction
  uint64_t seed = 1;
  int jpeg_quality = 92;
  int num_threads = 0;  // <= 0: all hardware threads
  void Check() const;   // throws InputError naming the field
};

struct ObjectSphere {
  Eigen::Vector3d center = Eigen::Vector3d::Zero();  // metres, world frame (z up)
  double radius_m = 0.1;
};

// The object: a union of spheres (a core and lobes), its texture seed.
struct SyntheticObject {
  std::vector<ObjectSphere> spheres;
  uint64_t texture_seed = 0;
};

SyntheticObject BuildSyntheticObject(const SyntheticObjectOptions& options);

// The ground-truth cameras, looking at the object's centre (cheap: nothing is rendered).
std::vector<StrechaCamera> MakeObjectCameras(const SyntheticObjectOptions& options);

// Renders one view: black where the rays miss the object; silhouette pixels supersampled.
Image RenderObjectView(const SyntheticObject& object, const StrechaCamera& camera,
                       const SyntheticObjectOptions& options);

// True depth (camera-frame z at each pixel centre, 0 off the object), as synthetic_renderer.h.
FloatRaster RenderObjectDepth(const SyntheticObject& object, const StrechaCamera& camera, int num_threads);

// Builds, renders and writes every view as WriteSyntheticViews (synthetic_output.h) does.
void WriteSyntheticObject(const SyntheticObjectOptions& options, const std::string& out_dir);

}  // namespace proj
