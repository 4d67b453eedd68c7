#include <filesystem>
#include <iostream>
#include <memory>

#include "core/check.h"
#include "io/image_encode.h"
#include "io/ply.h"
#include "sfm/app/commands.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "sfm/render/scene_render.h"

namespace proj::app {
namespace {

// The cloud's vertices as the scene's points (no tracks: only drawn).
void ReplacePoints(const PlyMesh& cloud, Scene* scene) {
  scene->points.clear();
  for (size_t i = 0; i < cloud.positions.size(); ++i) {
    Point3D& point = scene->points[static_cast<int>(i)];
    point.position = cloud.positions[i].cast<double>();
    if (cloud.has_colors()) {
      point.color << cloud.colors[i][0], cloud.colors[i][1], cloud.colors[i][2];
    } else {
      point.color.setConstant(200);  // light grey on the dark background
    }
  }
}

}  // namespace

CommandRunner AddRenderCommand(CLI::App& app) {
  auto model_dir = std::make_shared<std::string>();
  auto out_path = std::make_shared<std::string>();
  auto view = std::make_shared<ViewOptions>();
  auto style = std::make_shared<RenderStyle>();
  auto no_cameras = std::make_shared<bool>(false);
  auto points_ply = std::make_shared<std::string>();
  app.add_option("MODEL_DIR", *model_dir, "COLMAP text model folder (OUT_DIR/model)")->required();
  app.add_option("OUT_PNG", *out_path, "PNG file to write")->required();
  app.add_option("--width", view->width_px, "Picture width, px")->capture_default_str();
  app.add_option("--height", view->height_px, "Picture height, px")->capture_default_str();
  app.add_option("--point-size", style->point_size_px, "Point diameter, px")->capture_default_str();
  app.add_option("--azimuth", view->azimuth_deg,
                 "Turn of the viewpoint about the up axis, degrees (0: from the cameras' side)")
      ->capture_default_str();
  app.add_option("--elevation", view->elevation_deg, "Height of the viewpoint above the horizon, degrees")
      ->capture_default_str();
  app.add_option("--fov", view->vertical_fov_deg, "Vertical field of view, degrees")->capture_default_str();
  app.add_flag("--no-cameras", *no_cameras, "Draw only the points, no camera frustums");
  app.add_option("--points", *points_ply,
                 "Draw the points of this PLY cloud (e.g. OUT_DIR/dense/points.ply, in the model's frame) "
                 "instead of the model's");
  return [=]() {
    view->Check();
    style->draw_cameras = !*no_cameras;
    style->Check();
    PROJ_REQUIRE(std::filesystem::is_directory(*model_dir),
                 "model folder '" << *model_dir << "' does not exist or is not a folder");
    Scene scene = ReadColmapText(*model_dir);
    if (!points_ply->empty()) ReplacePoints(ReadPly(*points_ply), &scene);
    WritePng(*out_path, RenderScene(scene, AutomaticView(scene, *view), *style));
    std::cout << "rendered " << scene.points.size() << " points and " << scene.NumRegisteredImages()
              << " cameras to " << *out_path << std::endl;
    return kExitSuccess;
  };
}

}  // namespace proj::app
