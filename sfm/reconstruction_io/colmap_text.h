// COLMAP 3.x text model I/O: cameras.txt, images.txt and points3D.txt in one folder, in the
// exact format COLMAP writes and reads (https://colmap.github.io/format.html), so a model can
// be inspected or refined with COLMAP and reference models can be evaluated.
//
// Id mapping: COLMAP ids start at 1; ours are indices starting at 0. The files hold
// camera_id + 1, image_id + 1 and point_id + 1. POINT2D_IDX is the keypoint index (0-based in
// both). Poses are cam_from_world; the quaternion is written QW QX QY QZ, normalised. Numbers
// are written with 17 significant digits, so doubles round-trip exactly.
#pragma once

#include <string>

#include "sfm/scene/scene.h"

namespace proj {

// Writes `scene` into `dir` (created if missing), each file atomically (io/atomic_file.h).
// Only registered images are written (COLMAP has no unregistered images); all cameras are
// written; a track keeps only its observations in registered images, and a point without any
// is left out. Throws InputError naming the path when the folder or a file cannot be written.
void WriteColmapText(const Scene& scene, const std::string& dir);

// Reads dir/cameras.txt, dir/images.txt and dir/points3D.txt. Camera and image ids in the
// files need not be contiguous: gaps become placeholders (a Camera with no size and zero
// parameters; an unregistered SceneImage with no name, camera or keypoints), so camera and
// image ids above 2^20 are refused. Only the models SIMPLE_PINHOLE (read as PINHOLE),
// PINHOLE, SIMPLE_RADIAL and RADIAL are supported (geometry/camera/colmap_camera_models.h).
// Throws InputError naming the file and line for a missing file, malformed line, unsupported
// model, wrong parameter count, unknown or too large id or a track that disagrees with the
// images' POINT3D_IDs.
Scene ReadColmapText(const std::string& dir);

}  // namespace proj
