#include "sfm/scene/evaluation.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "core/check.h"
#include "geometry/solvers/similarity.h"
#include "io/strecha_camera.h"

namespace proj {
namespace {

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

PoseEvaluation EvaluateAgainstGroundTruth(const Scene& model, const std::string& gt_dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  PROJ_REQUIRE(fs::is_directory(gt_dir, error), "ground-truth folder '" << gt_dir << "' not found");
  std::map<std::string, StrechaCamera> truth;
  for (const auto& entry : fs::directory_iterator(gt_dir)) {
    const std::string file = entry.path().filename().string();
    const std::string suffix = ".camera";
    if (file.size() <= suffix.size() || file.substr(file.size() - suffix.size()) != suffix) continue;
    truth[file.substr(0, file.size() - suffix.size())] = ReadStrechaCamera(entry.path().string());
  }
  PROJ_REQUIRE(!truth.empty(), "no .camera files in '" << gt_dir << "'");

  PoseEvaluation evaluation;
  evaluation.num_ground_truth = static_cast<int>(truth.size());
  std::vector<const SceneImage*> images;
  std::vector<Eigen::Vector3d> model_centers, true_centers;
  for (const auto& image : model.images) {
    auto it = truth.find(image.name);
    if (!image.registered || it == truth.end()) continue;
    images.push_back(&image);
    model_centers.push_back(image.cam_from_world.Center());
    true_centers.push_back(it->second.C);
  }
  evaluation.num_registered = static_cast<int>(images.size());
  PROJ_REQUIRE(images.size() >= 3, "only " << images.size()
                                           << " registered images have ground truth in '"
                                           << gt_dir << "'; at least three are needed to align");
  Sim3d& true_from_model = evaluation.true_from_model;
  PROJ_REQUIRE(EstimateSimilarityUmeyama(model_centers, true_centers, &true_from_model),
               "the registered camera centres are degenerate (collinear); cannot align them");

  // Rotation errors are measured after aligning the orientations by their chordal mean
  // (the rotation closest to the mean of R_true * R_model^T), so they reflect the estimated
  // orientations and not how well the camera centres happen to constrain the alignment.
  Eigen::Matrix3d rotation_sum = Eigen::Matrix3d::Zero();
  for (size_t i = 0; i < images.size(); ++i) {
    rotation_sum += truth.at(images[i]->name).R *
           images[i]->cam_from_world.rotation.toRotationMatrix();  // world_true_from_world_model
  }
  const Eigen::Matrix3d true_from_model_rotation = NearestRotation(rotation_sum);

  std::vector<double> positions, rotations;
  for (size_t i = 0; i < images.size(); ++i) {
    const StrechaCamera& gt = truth.at(images[i]->name);
    CameraError e;
    e.name = images[i]->name;
    e.position_error = (true_from_model * model_centers[i] - gt.C).norm();
    const Eigen::Matrix3d aligned = true_from_model_rotation *
                                    images[i]->cam_from_world.rotation.conjugate().toRotationMatrix();
    const Eigen::AngleAxisd difference(gt.R.transpose() * aligned);
    e.rotation_error_deg = std::abs(difference.angle()) * 180.0 / M_PI;
    positions.push_back(e.position_error);
    rotations.push_back(e.rotation_error_deg);
    evaluation.errors.push_back(e);
  }
  evaluation.median_position_error = Median(positions);
  evaluation.max_position_error = *std::max_element(positions.begin(), positions.end());
  double sum = 0;
  for (double p : positions) sum += p;
  evaluation.mean_position_error = sum / positions.size();
  evaluation.median_rotation_error_deg = Median(rotations);
  evaluation.max_rotation_error_deg = *std::max_element(rotations.begin(), rotations.end());
  return evaluation;
}

}  // namespace proj
