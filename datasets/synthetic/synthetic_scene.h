// Deterministic synthetic SfM scenes with exact ground truth: a textured world
// (synthetic_world.h) rendered by ray casting (synthetic_renderer.h) from
//  - ring mode: `num_images` cameras spread over an arc (default a closed ring) around the
//    scene centre, looking at it from min..max elevation, or
//  - sequence mode: `num_frames` frames along a smooth arc with small motion between
//    frames (a few pixels up to ~20 px), as from a walking video.
// Cameras are pinhole (zero distortion; fx = fy = focal_px, principal point at the image
// centre). Ground truth follows the Strecha convention (io/strecha_camera.h): world point X
// projects to x ~ K R^T (X - C), centre of the top-left pixel at (0.5, 0.5), exactly as
// rendered. Same options and seed => identical images and cameras, whatever num_threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "datasets/synthetic/synthetic_output.h"
#include "datasets/synthetic/synthetic_world.h"
#include "io/image.h"
#include "io/strecha_camera.h"

namespace proj {

struct SyntheticSceneOptions {
  int num_images = 12;         // ring mode: number of cameras
  bool sequence = false;       // sequence mode instead of the ring
  int num_frames = 80;         // sequence mode: number of frames
  int width = 1280;            // pixels
  int height = 960;
  double focal_px = 1100;      // fx = fy
  uint64_t seed = 1;           // world layout, textures and camera jitter
  double ring_radius_m = 10;   // camera distance to the look-at point (jittered +-7% in rings)
  double ring_arc_deg = 360;   // ring cameras spread over this arc (360: closed ring)
  double min_elevation_deg = 15;  // camera elevation above the look-at point
  double max_elevation_deg = 30;
  double sequence_arc_deg = 60;   // sequence mode: azimuth covered by the whole path
  int supersampling = 2;       // rays per pixel along each axis at geometric edges (2: 2x2)
  int jpeg_quality = 95;       // WriteSyntheticScene's JPEGs (4:4:4 chroma at >= 90)
  int num_threads = 0;         // <= 0: all hardware threads
  synthetic::SyntheticWorldOptions world;

  int NumViews() const { return sequence ? num_frames : num_images; }
  // Throws InputError naming the offending field.
  void Check() const;
};

struct SyntheticView {
  std::string name;       // "0000.jpg", "0001.jpg", ...
  Image image;            // RGB, width x height
  StrechaCamera camera;   // ground truth
};

// The ground-truth cameras only (cheap: nothing is rendered).
std::vector<StrechaCamera> MakeSyntheticCameras(const SyntheticSceneOptions& options);

// Builds the world and renders every view in memory.
std::vector<SyntheticView> RenderSyntheticScene(const SyntheticSceneOptions& options);

// Renders and writes the views as WriteSyntheticViews (synthetic_output.h) does.
void WriteSyntheticScene(const SyntheticSceneOptions& options, const std::string& out_dir);


}  // namespace proj
