#include "tests/integration/small_scene.h"

#include "core/logging.h"
#include "datasets/synthetic/synthetic_scene.h"
#include "tests/support/test_data.h"

namespace proj::testing {

std::string WriteSmallRingScene(const std::string& name, int num_images, int width) {
  SetLogLevel(LogLevel::kWarning);
  const std::string dir = MakeTempDir(name);
  SyntheticSceneOptions scene;
  scene.num_images = num_images;
  scene.width = width;
  scene.height = width * 3 / 4;
  scene.focal_px = 550.0 * width / 640;
  WriteSyntheticScene(scene, dir);
  return dir;
}

}  // namespace proj::testing
