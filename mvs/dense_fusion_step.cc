#include "mvs/dense_fusion_step.h"

#include <map>

#include "core/interrupt.h"
#include "core/logging.h"
#include "core/progress.h"
#include "core/timer.h"
#include "mvs/dense_view_cache.h"
#include "mvs/depth_map.h"
#include "mvs/fusion.h"
#include "mvs/geometric_filter.h"
#include "mvs/normal_map.h"
#include "mvs/scene_views.h"

namespace proj::mvs {
namespace {

struct FilteredView {
  ViewGeometry geometry;
  DepthMap depth;
  NormalMap normals;
};

// Filters every map against its sources' photometric maps and writes the geometric maps.
std::map<int, FilteredView> FilterMaps(const Scene& pinhole, const DenseWorkspace& workspace,
                                       const std::vector<int>& image_ids, const std::vector<std::vector<int>>& sources,
                                       const DenseOptions& options, DenseFusionSummary* summary) {
  std::map<int, FilteredView> views;
  std::map<int, DepthMap> photometric;
  for (int id : image_ids) {
    views[id].geometry = PinholeViewGeometry(pinhole, id);
    photometric[id] = ReadDepthMap(workspace.DepthMapPath(pinhole.images[id].name, MapKind::kPhotometric));
  }
  Progress progress("filtering depth maps", static_cast<int>(image_ids.size()), "maps");
  for (int id : image_ids) {
    ThrowIfInterrupted();
    const std::string& name = pinhole.images[id].name;
    const NormalMap normals = ReadNormalMap(workspace.NormalMapPath(name, MapKind::kPhotometric));
    const FloatRaster cost = ReadFloatRasterFile(workspace.CostMapPath(name, MapKind::kPhotometric), 1);
    std::vector<SourceDepth> source_depths;
    for (int source : sources[id]) {
      const auto it = photometric.find(source);
      if (it != photometric.end()) source_depths.push_back({&views[source].geometry, &it->second});
    }
    FilteredDepthMap filtered = FilterDepthMap(views[id].geometry, photometric[id], normals, &cost, source_depths,
                                               options.filter, options.num_threads);
    WriteDepthMap(workspace.DepthMapPath(name, MapKind::kGeometric), filtered.depth);
    WriteNormalMap(workspace.NormalMapPath(name, MapKind::kGeometric), filtered.normals);
    summary->num_pixels_with_depth += filtered.counts.num_input;
    summary->num_pixels_kept += filtered.counts.num_kept;
    views[id].depth = std::move(filtered.depth);
    views[id].normals = std::move(filtered.normals);
    progress.Advance();
  }
  return views;
}

}  // namespace

DenseCloud FuseDenseCloud(const Scene& pinhole, const DenseWorkspace& workspace, const std::vector<int>& image_ids,
                          const std::vector<std::vector<int>>& sources, const DenseOptions& options,
                          DenseFusionSummary* summary) {
  *summary = DenseFusionSummary();
  summary->num_depth_maps = static_cast<int>(image_ids.size());
  Timer timer;
  const std::map<int, FilteredView> filtered = FilterMaps(pinhole, workspace, image_ids, sources, options, summary);
  summary->filter_seconds = timer.ElapsedSeconds();
  PROJ_LOG(kInfo, "filter: kept " << summary->num_pixels_kept << " of " << summary->num_pixels_with_depth
                                  << " depths that other views confirm");

  // Fusion reads the colour of each view; the grey copy the loader also makes is dropped.
  std::map<int, int> index_of;
  for (int id : image_ids) index_of[id] = static_cast<int>(index_of.size());
  std::vector<Image> colours(image_ids.size());
  std::vector<FusionView> fusion_views(image_ids.size());
  for (int id : image_ids) {
    const int index = index_of[id];
    const FilteredView& view = filtered.at(id);
    const std::string& name = pinhole.images[id].name;
    colours[index] = LoadDenseView(workspace.ImagesDir() + "/" + name, name, view.geometry, true).colour;
    FusionView& fusion_view = fusion_views[index];
    fusion_view.geometry = &view.geometry;
    fusion_view.depth = &view.depth;
    fusion_view.normals = &view.normals;
    fusion_view.colour = &colours[index];
    for (int source : sources[id]) {
      const auto it = index_of.find(source);
      if (it != index_of.end()) fusion_view.neighbours.push_back(it->second);
    }
  }
  DenseCloud cloud = FuseDepthMaps(fusion_views, options.fusion, options.num_threads);
  WriteDenseCloudPly(workspace.PointsPlyPath(), cloud);
  summary->num_points = static_cast<long long>(cloud.positions.size());
  return cloud;
}

}  // namespace proj::mvs
