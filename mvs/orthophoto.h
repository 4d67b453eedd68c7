// The orthophoto of a georeferenced model: every cell of the surface model's grid coloured from
// the images that see the surface there. A true orthophoto: the cell's 3D point is the surface
// model's (roofs included), and a view sees it only where the view's z-buffer of the surface
// model agrees with the point's depth, so roofs are coloured from where the roofs are, walls
// lean nowhere, and ground hidden behind a building in one view comes from another.
//
// Per cell, the view with the best score wins: most nadir and closest (cos(angle from
// vertical)^nadir_exponent x focal / distance), faded towards each image's border. Seams are
// blended in two bands (Burt & Adelson 1983; Brown & Lowe 2007): the detail (colour minus its
// local mean) comes from the winner only, so nothing ghosts where the views disagree slightly
// in geometry; the local mean is a blend of the winners' local means over a few metres, so a
// change of exposure between views fades out instead of showing as a step.
//
// CPU only for now (parallel over tiles); the per-cell work is a GPU kernel's shape if it is
// ever needed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "io/image.h"
#include "mvs/dense_view.h"
#include "mvs/ground_grid.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

struct OrthophotoOptions {
  // The score of a view at a cell: cos(angle between the ray to the camera and the vertical)
  // ^ nadir_exponent x (focal length in pixels / distance in metres).
  double nadir_exponent = 2;
  // Scores fade linearly to 0 over this share of the image's smaller side from its border, so
  // the winner changes before an image ends.
  double border_fade = 0.08;
  // A view sees a cell's point when its depth exceeds the view's z-buffer by at most this
  // share of the depth.
  double visibility_tolerance = 0.01;
  // Size of a z-buffer pixel on the ground, in cells (the buffer is at most the image's size).
  double depth_buffer_cells = 1.0;
  // Half-width, in cells, over which the local mean colour is blended across seams (three box
  // blurs of a third of it each).
  int seam_blend_cells = 24;
  int tile_cells = 128;  // tiles of tile_cells x tile_cells cells are rendered in parallel
  int num_threads = 0;   // <= 0: all hardware threads
  void Check() const;    // throws InputError naming the field
};

// An RGBA8 raster on a ground grid: alpha 255 where coloured, 0 where no view sees the cell or
// the surface model has no height there (RGB 0 then).
struct Orthophoto {
  GroundGrid grid;
  std::vector<uint8_t> rgba;  // 4 * grid.NumCells(), row-major, row 0 along the north edge

  size_t NumColoured() const;
};

// The images an orthophoto is coloured from: undistorted (pinhole) cameras with their poses in
// the model's ENU frame, and a loader of each one's colour image.
struct OrthophotoViews {
  std::vector<ViewGeometry> geometry;
  // The image of view i: RGB or grey, of geometry[i].camera's size. Called from worker threads,
  // several at once, about once per view (again only for a view needed again after release).
  std::function<Image(int view)> load;
};

// The registered images of a PINHOLE model (the dense workspace's sparse/ model), read from
// `images_dir`/NAME (its images/): InputError naming the file when one cannot be read or has
// not its camera's size.
OrthophotoViews OrthophotoViewsOf(const Scene& pinhole_scene, const std::string& images_dir);

// The model's ENU position of a map position (easting, northing, height in the surface
// model's datum): MapProjection::EnuFromMap. Called on the calling thread only (a few
// thousand times: at coarse nodes, interpolated between).
using EnuFromMap = std::function<Eigen::Vector3d(const Eigen::Vector3d& easting_northing_height)>;

// The orthophoto on exactly dsm.grid. Throws InputError when the options are invalid or the
// surface model's heights do not match its grid. Deterministic: the same for any num_threads.
Orthophoto RenderOrthophoto(const SurfaceModel& dsm, const OrthophotoViews& views,
                            const EnuFromMap& enu_from_map, const OrthophotoOptions& options);

}  // namespace proj::mvs
