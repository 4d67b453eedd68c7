#include "mvs/depth_map_plan.h"

#include <filesystem>

#include "core/logging.h"

#include "mvs/scene_views.h"

namespace proj::mvs {
namespace {

// Every field of PatchMatchOptions: a change of any redoes the maps.
void AddPatchMatchOptions(const PatchMatchOptions& options, InputHash* hash) {
  hash->Add(options.window_radius).Add(options.window_step);
  hash->Add(static_cast<double>(options.sigma_spatial)).Add(static_cast<double>(options.sigma_color));
  hash->Add(options.top_k_views).Add(options.num_iterations).Add(static_cast<int64_t>(options.seed));
}

void AddView(const Scene& pinhole, int image_id, const std::vector<uint64_t>& image_hashes, InputHash* hash) {
  const ViewGeometry view = PinholeViewGeometry(pinhole, image_id);
  hash->Add(pinhole.images[image_id].name).Add(static_cast<int64_t>(image_hashes[image_id]));
  hash->Add(view.camera.width).Add(view.camera.height);
  hash->Add(view.camera.fx).Add(view.camera.fy).Add(view.camera.cx).Add(view.camera.cy);
  hash->Add(view.rotation).Add(view.translation);
}

uint64_t MapInputsHash(const Scene& pinhole, const DepthMapTask& task, const std::vector<uint64_t>& image_hashes,
                       const PatchMatchOptions& options) {
  InputHash hash;
  hash.Add(std::string("photometric maps 1"));
  AddPatchMatchOptions(options, &hash);
  hash.Add(task.image_id);  // PatchMatchProblem::image_seed
  AddView(pinhole, task.image_id, image_hashes, &hash);
  hash.Add(static_cast<int>(task.source_ids.size()));
  for (const int source : task.source_ids) AddView(pinhole, source, image_hashes, &hash);
  hash.Add(static_cast<double>(task.depth_range.min)).Add(static_cast<double>(task.depth_range.max));
  hash.Add(static_cast<int>(task.seeds.size()));
  for (const DepthSeed& seed : task.seeds) hash.Add(seed.x).Add(seed.y).Add(static_cast<double>(seed.depth));
  return hash.value();
}

bool MapsAreThere(const DenseWorkspace& workspace, const std::string& name, const PinholeCamera& camera) {
  return RasterFileHasSize(workspace.DepthMapPath(name, MapKind::kPhotometric), camera.width, camera.height, 1) &&
         RasterFileHasSize(workspace.NormalMapPath(name, MapKind::kPhotometric), camera.width, camera.height, 3) &&
         RasterFileHasSize(workspace.CostMapPath(name, MapKind::kPhotometric), camera.width, camera.height, 1);
}

}  // namespace

bool RasterFileHasSize(const std::string& path, int width, int height, int channels) {
  const std::string header =
      std::to_string(width) + "&" + std::to_string(height) + "&" + std::to_string(channels) + "&";
  const uintmax_t expected = header.size() + static_cast<uintmax_t>(width) * height * channels * sizeof(float);
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  return !error && size == expected;
}

DepthMapPlan PlanDepthMaps(const Scene& pinhole, const std::vector<uint64_t>& image_hashes,
                           const DenseWorkspace& workspace, const DenseOptions& options, const ResumeRecord& record) {
  const std::vector<std::vector<int>> sources = SelectSourceViews(pinhole, options.sources);
  DepthMapPlan plan;
  plan.sources.resize(pinhole.images.size());
  for (size_t id = 0; id < pinhole.images.size(); ++id) {
    const SceneImage& image = pinhole.images[id];
    if (!image.registered) continue;
    const int image_id = static_cast<int>(id);
    if (sources[id].empty()) {
      plan.skipped.push_back({image.name, "no other image shares enough well-triangulated sparse points with it"});
      continue;
    }
    const std::optional<DepthRange> range = ComputeDepthRange(pinhole, image_id, options.depth_range);
    if (!range) {
      plan.skipped.push_back({image.name, "no sparse point lies in front of it (no depth range)"});
      continue;
    }
    DepthMapTask task;
    task.image_id = image_id;
    task.source_ids = sources[id];
    task.depth_range = *range;
    task.seeds = ComputeDepthSeeds(pinhole, image_id);
    task.inputs_hash = MapInputsHash(pinhole, task, image_hashes, options.patch_match);
    if (GetLogLevel() <= LogLevel::kDebug) {
      std::string names;
      for (const int source : task.source_ids) names += (names.empty() ? "" : ", ") + pinhole.images[source].name;
      PROJ_LOG(kDebug, "dense: '" << image.name << "': sources " << names << "; depths " << range->min << " to "
                                  << range->max << "; " << task.seeds.size() << " seeds");
    }
    plan.sources[id] = task.source_ids;
    if (record.Get(ResumeKind::kPhotometricMaps, image.name) == task.inputs_hash &&
        MapsAreThere(workspace, image.name, PinholeCameraOf(pinhole.cameras[image.camera_id]))) {
      plan.reused.push_back(image_id);
    } else {
      plan.to_compute.push_back(std::move(task));
    }
  }
  return plan;
}

}  // namespace proj::mvs
