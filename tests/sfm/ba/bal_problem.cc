#include "tests/sfm/ba/bal_problem.h"

#include <Eigen/Geometry>
#include <fstream>

#include "core/check.h"

namespace proj::testing {

Scene LoadBalProblem(const std::string& path) {
  std::ifstream file(path);
  PROJ_REQUIRE(file.good(), "cannot open BAL problem '" << path << "'");
  int num_cameras = 0, num_points = 0, num_observations = 0;
  file >> num_cameras >> num_points >> num_observations;
  PROJ_REQUIRE(file.good() && num_cameras > 0 && num_points > 0 && num_observations > 0,
               "'" << path << "': bad header");
  struct Observation {
    int camera, point;
    double u, v;
  };
  std::vector<Observation> observations(num_observations);
  for (auto& obs : observations) {
    file >> obs.camera >> obs.point >> obs.u >> obs.v;
    PROJ_REQUIRE(file.good() && obs.camera >= 0 && obs.camera < num_cameras && obs.point >= 0 &&
                     obs.point < num_points,
                 "'" << path << "': bad observation line");
  }
  const Eigen::Matrix3d flip = Eigen::Vector3d(1, -1, -1).asDiagonal();
  Scene scene;
  for (int c = 0; c < num_cameras; ++c) {
    double v[9];
    for (double& x : v) file >> x;
    PROJ_REQUIRE(file.good(), "'" << path << "': truncated camera " << c);
    const Eigen::Vector3d rodrigues(v[0], v[1], v[2]);
    const double angle = rodrigues.norm();
    const Eigen::Matrix3d rotation =
        angle > 0 ? Eigen::AngleAxisd(angle, rodrigues / angle).toRotationMatrix()
                  : Eigen::Matrix3d::Identity();
    Camera camera;
    camera.model = CameraModelId::kRadial;
    camera.params = {v[6], 0, 0, v[7], v[8]};
    scene.cameras.push_back(camera);
    SceneImage image;
    image.name = "bal_camera_" + std::to_string(c);
    image.camera_id = c;
    image.registered = true;
    image.cam_from_world = Rigid3d(Eigen::Matrix3d(flip * rotation),
                                   Eigen::Vector3d(flip * Eigen::Vector3d(v[3], v[4], v[5])));
    scene.images.push_back(image);
  }
  std::vector<std::vector<TrackElement>> tracks(num_points);
  for (const auto& obs : observations) {
    SceneImage& image = scene.images[obs.camera];
    tracks[obs.point].push_back({obs.camera, static_cast<int>(image.keypoints.size())});
    image.keypoints.emplace_back(obs.u, -obs.v);
    image.point3d_ids.push_back(kInvalidId);
  }
  for (int p = 0; p < num_points; ++p) {
    Eigen::Vector3d position;
    file >> position.x() >> position.y() >> position.z();
    PROJ_REQUIRE(!file.fail(), "'" << path << "': truncated point " << p);
    scene.AddPoint(position, tracks[p]);
  }
  return scene;
}

}  // namespace proj::testing
