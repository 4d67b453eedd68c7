// Ray-casting renderer for the synthetic world. Pixel convention as everywhere in the
// project: the centre of the top-left pixel is at (0.5, 0.5), and the ray of image point
// (u, v) is C + t * R K^-1 (u, v, 1)^T, so world points project as x ~ K R^T (X - C).
#pragma once

#include <array>
#include <functional>

#include <Eigen/Core>

#include "datasets/synthetic/synthetic_world.h"
#include "io/float_raster_file.h"
#include "io/image.h"
#include "io/strecha_camera.h"

namespace proj::synthetic {

// The ray through image point (u, v); its direction has unit depth (camera-frame z = 1)
// when K's last row is (0, 0, 1).
Ray PixelRay(const StrechaCamera& camera, double u, double v);

// The undistorted normalized point x with x * (1 + k1 * |x|^2) = distorted (SIMPLE_RADIAL's
// distortion undone by fixed-point iteration).
Eigen::Vector2d UndistortRadial(double k1, const Eigen::Vector2d& distorted);

// Colour in [0, 255] of one ray through (u, v), its texture filtered for samples
// `sample_spacing_px` apart. The renderer averages these over each pixel.
std::array<float, 3> RenderSample(const SyntheticWorld& world, const StrechaCamera& camera,
                                  double u, double v, double sample_spacing_px);

// Renders an RGB image of camera.width x camera.height. Each pixel is the colour of the ray
// through its centre, textures filtered (mip-mapped) over one pixel; pixels on a geometric
// edge (a 4-neighbour's centre ray hits another surface) instead average supersampling x
// supersampling rays on a regular grid inside the pixel (1: no edge anti-aliasing). Rows
// are rendered in parallel; the result does not depend on `num_threads` (<= 0: all).
Image RenderView(const SyntheticWorld& world, const StrechaCamera& camera, int supersampling,
                 int num_threads);

// The point (x, y) of the camera-frame plane z = 1 seen at image point (u, v), for cameras
// with lens distortion.
using ImagePlanePoint = std::function<Eigen::Vector2d(double u, double v)>;

// True depth of every pixel (one channel, io/float_raster_file.h): the camera-frame z of the
// first surface hit by the ray through the pixel centre (x + 0.5, y + 0.5), 0 where the ray
// meets nothing (sky). With `image_plane` null the ray is PixelRay's (pinhole, off-screen
// boxes culled as RenderView does); otherwise it goes through image_plane(u, v). A separate
// pass: RenderView's colours do not depend on it. `normals`, when not null, receives the true
// normal map (three channels, as mvs/normal_map.h): the unit normal of the surface hit, in
// the camera frame and facing the camera, (0, 0, 0) for the sky.
FloatRaster RenderDepth(const SyntheticWorld& world, const StrechaCamera& camera, int num_threads,
                        const ImagePlanePoint& image_plane = nullptr, FloatRaster* normals = nullptr);

}  // namespace proj::synthetic
