#include "datasets/synthetic/synthetic_gcps.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>

#include "geometry/geodesy/utm_projection.h"
#include "io/atomic_file.h"

namespace proj {
namespace {

// Open ground: straight down from above, the first surface is the terrain.
bool OnOpenGround(const synthetic::TerrainWorld& world, const Eigen::Vector3d& point) {
  const double above_m = 200;
  const double distance = world.HitDistance(point + Eigen::Vector3d(0, 0, above_m), Eigen::Vector3d(0, 0, -1));
  return std::abs(distance - above_m) < 0.05;
}

// The marks of `point`: the shots that see it inside their frame (2% margin), unoccluded.
std::vector<SyntheticGcpMark> MarksOf(const synthetic::TerrainWorld& world,
                                      const std::vector<SyntheticFlightShot>& shots, const Eigen::Vector3d& point) {
  std::vector<SyntheticGcpMark> marks;
  for (const SyntheticFlightShot& shot : shots) {
    const StrechaCamera& camera = shot.camera;
    const Eigen::Vector3d in_camera = camera.R.transpose() * (point - camera.C);
    if (in_camera.z() <= 0) continue;
    const Eigen::Vector3d projected = camera.K * in_camera;
    const Eigen::Vector2d pixel = projected.head<2>() / projected.z();
    const double margin = 0.02 * std::max(camera.width, camera.height);
    if (pixel.x() < margin || pixel.y() < margin || pixel.x() > camera.width - margin ||
        pixel.y() > camera.height - margin) {
      continue;
    }
    const double distance = (point - camera.C).norm();
    if (world.HitDistance(camera.C, point - camera.C) < distance - 0.05) continue;  // hidden
    marks.push_back({shot.name, pixel});
  }
  return marks;
}

}  // namespace

std::vector<SyntheticGcp> PlanSyntheticGcps(const synthetic::TerrainWorld& world,
                                            const std::vector<SyntheticFlightShot>& shots, int count) {
  Eigen::Vector2d area_min = shots.front().camera.C.head<2>(), area_max = area_min;
  for (const SyntheticFlightShot& shot : shots) {
    area_min = area_min.cwiseMin(shot.camera.C.head<2>());
    area_max = area_max.cwiseMax(shot.camera.C.head<2>());
  }
  constexpr int kGrid = 16;
  std::vector<SyntheticGcp> candidates;
  for (int i = 0; i < kGrid; ++i) {
    for (int j = 0; j < kGrid; ++j) {
      const Eigen::Vector2d xy = area_min + Eigen::Vector2d((i + 0.5) / kGrid * (area_max.x() - area_min.x()),
                                                            (j + 0.5) / kGrid * (area_max.y() - area_min.y()));
      SyntheticGcp gcp;
      gcp.world = Eigen::Vector3d(xy.x(), xy.y(), world.Height(xy.x(), xy.y()));
      if (!OnOpenGround(world, gcp.world)) continue;
      gcp.marks = MarksOf(world, shots, gcp.world);
      if (gcp.marks.size() >= 3) candidates.push_back(std::move(gcp));
    }
  }
  // Farthest-first from the candidate nearest the area's lower-left corner.
  std::vector<SyntheticGcp> chosen;
  std::vector<double> distance(candidates.size(), std::numeric_limits<double>::infinity());
  for (size_t k = 0; k < candidates.size(); ++k) {
    distance[k] = -(candidates[k].world.head<2>() - area_min).norm();  // first pick: nearest corner
  }
  while (static_cast<int>(chosen.size()) < count && !candidates.empty()) {
    const size_t best = std::max_element(distance.begin(), distance.end()) - distance.begin();
    if (distance[best] == -std::numeric_limits<double>::infinity()) break;
    chosen.push_back(candidates[best]);
    chosen.back().name = "gcp" + std::to_string(chosen.size());
    for (size_t k = 0; k < candidates.size(); ++k) {
      const double to_chosen = (candidates[k].world - candidates[best].world).head<2>().norm();
      distance[k] = chosen.size() == 1 ? to_chosen : std::min(distance[k], to_chosen);
    }
    distance[best] = -std::numeric_limits<double>::infinity();
  }
  return chosen;
}

void WriteSyntheticGcpList(const EnuFrame& origin, const std::vector<SyntheticGcp>& gcps, const std::string& path) {
  const LocalEnuConverter enu(origin);
  const UtmProjection utm(UtmZoneOf({origin.ref_latitude_deg, origin.ref_longitude_deg, origin.ref_altitude_m}));
  WriteFileAtomically(path, [&](std::ostream& out) {
    out << "EPSG:" << utm.zone().Epsg() << "\n" << std::fixed;
    for (const SyntheticGcp& gcp : gcps) {
      const Eigen::Vector3d projected = utm.FromWgs84(enu.Wgs84FromEnu(gcp.world));
      for (const SyntheticGcpMark& mark : gcp.marks) {
        out << std::setprecision(4) << projected.x() << ' ' << projected.y() << ' ' << projected.z() << ' '
            << std::setprecision(3) << mark.pixel.x() << ' ' << mark.pixel.y() << ' ' << mark.image_name << ' '
            << gcp.name << '\n';
      }
    }
  });
}

}  // namespace proj
