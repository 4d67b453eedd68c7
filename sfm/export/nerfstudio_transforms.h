// nerfstudio's dataset format, for a model whose cameras are PINHOLE (sfm/undistort), written
// as nerfstudio's own COLMAP converter writes it (ns-process-data: colmap_to_json and
// create_ply_from_colmap in nerfstudio/process_data/colmap_utils.py), so that nerfstudio's
// trainers (nerfacto, splatfacto) read it as they read their own conversions:
//   DIR/transforms.json
//     w, h, fl_x, fl_y, cx, cy   pixels; the centre of the top-left pixel at (0.5, 0.5), as in
//                                COLMAP and nerfstudio (its rays go through pixel x + 0.5)
//     k1 k2 p1 p2 = 0, camera_model "OPENCV"   how nerfstudio records a PINHOLE camera
//       The intrinsics are top level when every frame has the same camera, else in each frame.
//     frames[]   file_path "images/NAME"; transform_matrix, 4x4 camera-to-world with OpenGL
//                camera axes (x right, y up, z back: the camera looks along -z), in the frame
//                of applied_transform; colmap_im_id, the image's id in the model's COLMAP files
//     applied_transform   3x4 [R | t], the model's world frame -> the frame of the
//                transform matrices and the points: (x, y, z) -> (x, z, -y), nerfstudio's z up
//                for COLMAP's usual y down (nerfstudio composes it into its dataparser
//                transforms, so its outputs can be mapped back to the model)
//     ply_file_path "sparse_pc.ply"
//   DIR/sparse_pc.ply   the model's points with their colours, in the applied frame (splat
//                initialisation): those observed in at least one registered image, in id order
// A point X of the model lands in frame f's image at (u, v) with, for p = inverse(f's
// transform_matrix) * applied_transform * X:  u = cx + fl_x p.x / -p.z,  v = cy - fl_y p.y / -p.z.
#pragma once

#include <string>

#include "sfm/scene/scene.h"

namespace proj {

constexpr const char* kNerfstudioTransformsFileName = "transforms.json";
constexpr const char* kNerfstudioPointsFileName = "sparse_pc.ply";

// Writes DIR/transforms.json (every registered image of `scene`, by image id, expected under
// DIR/images/) and DIR/sparse_pc.ply, each atomically. Throws InputError when a registered
// image's camera is not PINHOLE or a file cannot be written.
void WriteNerfstudioDataset(const Scene& scene, const std::string& dir);

}  // namespace proj
