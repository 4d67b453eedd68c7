// COLMAP 3.x binary model I/O: cameras.bin, images.bin and points3D.bin in one folder, byte
// for byte as COLMAP writes and reads them (Reconstruction::Write*Binary), so `colmap` tools
// and MVS programs that prefer the binary model read ours directly.
//
// Layout, little-endian (u32/u64 unsigned integers, i32 signed, f64 IEEE doubles):
//   cameras.bin   u64 count, then per camera: u32 CAMERA_ID, i32 MODEL_ID, u64 WIDTH,
//                 u64 HEIGHT, f64 PARAMS[n] (n fixed by the model)
//   images.bin    u64 count, then per image: u32 IMAGE_ID, f64 QW QX QY QZ, f64 TX TY TZ,
//                 u32 CAMERA_ID, NAME + '\0', u64 NUM_POINTS2D, then per point f64 X, f64 Y,
//                 u64 POINT3D_ID (2^64 - 1 when it observes none)
//   points3D.bin  u64 count, then per point: u64 POINT3D_ID, f64 X Y Z, u8 R G B, f64 ERROR,
//                 u64 TRACK_LENGTH, then per element u32 IMAGE_ID, u32 POINT2D_IDX
// Ids, the subset of the scene written and the gaps read back as placeholders follow the
// text format exactly (colmap_text.h): a model written in either format reads back equal.
#pragma once

#include <string>

#include "sfm/scene/scene.h"

namespace proj {

// Writes `scene` into `dir` (created if missing), each file atomically (io/atomic_file.h).
// Throws InputError naming the path when the folder or a file cannot be written.
void WriteColmapBinary(const Scene& scene, const std::string& dir);

// Reads dir/cameras.bin, dir/images.bin and dir/points3D.bin. Throws InputError naming the
// file and byte offset for a missing, truncated or corrupt file (a count larger than the rest
// of the file can hold, an unterminated name, bytes after the last record), an unsupported
// camera model (the table of geometry/camera/colmap_camera_models.h), an unknown id or a
// track that disagrees with the images' POINT3D_IDs.
Scene ReadColmapBinary(const std::string& dir);

}  // namespace proj
