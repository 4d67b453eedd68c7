// libFuzzer target: the scene database reader (sfm/database/scene_database.h). The bytes are
// written to a file, opened read-only and everything in it is read back, as `sfm` does when
// it resumes or maps a database another program wrote. Bad files must end in
// proj::InputError.
#include <cstddef>
#include <cstdint>

#include "sfm/database/scene_database.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

// Bounds the work per input: a valid header can declare millions of rows.
constexpr size_t kMaxRowsRead = 200;

void ReadEverything(const proj::SceneDatabase& database) {
  database.NumImages();
  database.NumCameras();
  database.NumKeypoints();
  database.ReadCameras();
  database.ReadSkippedFiles();
  for (const char* stage : {"extraction", "matching", "verification", "klt"}) {
    database.ReadStageOptions(stage);
  }
  const std::vector<proj::DatabaseImage> images = database.ReadImages();
  for (size_t i = 0; i < images.size() && i < kMaxRowsRead; ++i) {
    const int image_id = images[i].image_id;
    database.FindImage(images[i].name);
    database.HasKeypoints(image_id);
    database.ReadKeypoints(image_id);
    database.ReadDescriptors(image_id);
    database.ReadPosePrior(image_id);
    database.ReadImageFileInfo(image_id);
    database.ReadKltPointCount(image_id);
  }
  const std::vector<int64_t> matched = database.ReadMatchedPairIds();
  for (size_t i = 0; i < matched.size() && i < kMaxRowsRead; ++i) {
    const auto [image_id1, image_id2] = proj::ImageIdsFromPairId(matched[i]);
    database.ReadMatches(image_id1, image_id2);
    database.ReadMatches(image_id2, image_id1);
  }
  const std::vector<int64_t> verified = database.ReadVerifiedPairIds();
  for (size_t i = 0; i < verified.size() && i < kMaxRowsRead; ++i) {
    const auto [image_id1, image_id2] = proj::ImageIdsFromPairId(verified[i]);
    database.ReadTwoViewGeometry(image_id2, image_id1);
  }
  database.ReadTwoViewGeometries();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = proj::fuzz::WriteScratchFile("database.db", data, size);
  try {
    const proj::SceneDatabase database(path, proj::SceneDatabase::Mode::kReadOnly);
    ReadEverything(database);
  } catch (const proj::InputError&) {
  }
  return 0;
}
