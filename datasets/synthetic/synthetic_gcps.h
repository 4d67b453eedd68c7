// Ground control points for a synthetic flight: surveyed-like points on open ground (not on
// or under a building), spread over the flown area, with their exact projections in the
// images that see them (inside the frame, not hidden by a building), written as an
// OpenDroneMap gcp_list.txt in the UTM zone of the flight's origin (ellipsoidal heights).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "datasets/synthetic/synthetic_flight.h"
#include "datasets/synthetic/terrain_world.h"

namespace proj {

struct SyntheticGcpMark {
  std::string image_name;
  Eigen::Vector2d pixel = Eigen::Vector2d::Zero();  // top-left pixel's centre at (0.5, 0.5)
};

struct SyntheticGcp {
  std::string name;  // "gcp1", ...
  Eigen::Vector3d world = Eigen::Vector3d::Zero();  // the flight's world frame (ENU)
  std::vector<SyntheticGcpMark> marks;              // at least three
};

// Up to `count` points (fewer when the area has too few open places seen by three images),
// chosen from a 16 x 16 grid over the camera centres' extent, farthest-first from one corner.
std::vector<SyntheticGcp> PlanSyntheticGcps(const synthetic::TerrainWorld& world,
                                            const std::vector<SyntheticFlightShot>& shots, int count);

// gcp_list.txt: "EPSG:326zz" (or 327zz), then "easting northing height px py image name" per
// mark. Atomic; InputError when it cannot be written.
void WriteSyntheticGcpList(const EnuFrame& origin, const std::vector<SyntheticGcp>& gcps, const std::string& path);

}  // namespace proj
