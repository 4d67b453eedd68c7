// The images of an undistorted (PINHOLE) model as dense stereo sees them: their geometry
// (mvs/dense_view.h) from the model's cameras and poses.
#pragma once

#include "geometry/camera/camera.h"
#include "io/strecha_camera.h"
#include "mvs/dense_view.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

// The pinhole camera of a PINHOLE `camera` (InputError naming the model otherwise: dense
// stereo needs undistorted images, sfm undistort makes them).
PinholeCamera PinholeCameraOf(const Camera& camera);

// Camera and pose of registered image `image_id` of a PINHOLE model (InputError as above).
ViewGeometry PinholeViewGeometry(const Scene& scene, int image_id);

// A camera of Strecha's format (a synthetic scene's truth: pinhole, its distortion ignored).
ViewGeometry PinholeViewGeometry(const StrechaCamera& camera);

}  // namespace proj::mvs
