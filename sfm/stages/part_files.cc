#include "sfm/stages/part_files.h"

#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <map>
#include <sstream>
#include <unistd.h>

#include "core/check.h"
#include "io/atomic_file.h"
#include "sfm/reconstruction_io/colmap_binary.h"

namespace proj {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRecordName = "part.txt";
constexpr const char* kRecordHeader = "sfm mapping part 1";

// What a part's record holds: the part, the view graph's size, and the part's image names.
struct PartRecord {
  Shard part;
  size_t num_graph_images = 0;
  size_t num_pairs = 0;
  std::vector<std::string> names;
};

PartRecord ReadRecord(const fs::path& path) {
  std::ifstream in(path);
  PROJ_REQUIRE(in, "cannot read '" << path.string() << "'");
  PartRecord record;
  std::string header, key, part_name;
  size_t num_names = 0;
  std::getline(in, header);
  PROJ_REQUIRE(header == kRecordHeader, "'" << path.string() << "' is not a mapping part's record");
  in >> key >> part_name;
  PROJ_REQUIRE(in && key == "part", "'" << path.string() << "': no part line");
  record.part = ParseShard(part_name);
  in >> key >> record.num_graph_images;
  PROJ_REQUIRE(in && key == "view_graph_images", "'" << path.string() << "': no view_graph_images line");
  in >> key >> record.num_pairs;
  PROJ_REQUIRE(in && key == "view_graph_pairs", "'" << path.string() << "': no view_graph_pairs line");
  in >> key >> num_names;
  PROJ_REQUIRE(in && key == "images", "'" << path.string() << "': no images line");
  in.ignore(1);
  for (size_t i = 0; i < num_names; ++i) {
    std::string name;
    PROJ_REQUIRE(std::getline(in, name), "'" << path.string() << "' ends before its " << num_names << " image names");
    record.names.push_back(name);
  }
  return record;
}

}  // namespace

std::string PartDirectoryName(const Shard& part) {
  return "part-" + std::to_string(part.index) + "-of-" + std::to_string(part.count);
}

void WritePartModel(const std::string& parts_dir, const Shard& part, const PartModel& model,
                    const Scene& graph_scene, size_t num_pairs) {
  EnsureWritableDirectory(parts_dir);
  const fs::path final_dir = fs::path(parts_dir) / PartDirectoryName(part);
  // Written whole beside its place, then renamed: a reader never sees half a part.
  const fs::path temp_dir = fs::path(parts_dir) / (PartDirectoryName(part) + ".tmp-" + std::to_string(getpid()));
  std::error_code error;
  fs::remove_all(temp_dir, error);
  WriteColmapBinary(model.scene, temp_dir.string());
  WriteFileAtomically((temp_dir / kRecordName).string(), [&](std::ostream& out) {
    out << kRecordHeader << "\n";
    out << "part " << part.Name() << "\n";
    out << "view_graph_images " << graph_scene.images.size() << "\n";
    out << "view_graph_pairs " << num_pairs << "\n";
    out << "images " << model.image_ids.size() << "\n";
    for (int image : model.image_ids) out << graph_scene.images[image].name << "\n";
  });
  fs::remove_all(final_dir, error);
  fs::rename(temp_dir, final_dir, error);
  PROJ_REQUIRE(!error, "cannot move the part into '" << final_dir.string() << "': " << error.message());
}

int PartCountInFolder(const std::string& parts_dir) {
  PROJ_REQUIRE(fs::is_directory(parts_dir), "'" << parts_dir << "' is not a folder of mapping parts");
  int count = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(parts_dir)) {
    const std::string name = entry.path().filename().string();
    const size_t of = name.find("-of-");
    if (name.rfind("part-", 0) != 0 || of == std::string::npos || name.find(".tmp-") != std::string::npos) continue;
    const int n = std::atoi(name.c_str() + of + 4);
    PROJ_REQUIRE(n >= 1 && (count == 0 || n == count),
                 "'" << parts_dir << "' holds parts of partitions into " << count << " and " << n
                     << " parts; remove the stale ones");
    count = n;
  }
  PROJ_REQUIRE(count > 0, "'" << parts_dir << "' holds no mapping part (part-i-of-N folders of `sfm map --part i/N`)");
  return count;
}

std::vector<PartModel> ReadPartModels(const std::string& parts_dir, const std::vector<std::vector<int>>& partition,
                                      const Scene& graph_scene, size_t num_pairs) {
  PROJ_REQUIRE(fs::is_directory(parts_dir), "'" << parts_dir << "' is not a folder of mapping parts");
  const int count = static_cast<int>(partition.size());
  std::map<std::string, int> index_of_name;
  for (size_t i = 0; i < graph_scene.images.size(); ++i) index_of_name[graph_scene.images[i].name] = static_cast<int>(i);
  std::vector<PartModel> parts(count);
  std::vector<std::string> missing;
  for (int p = 0; p < count; ++p) {
    const Shard part{p, count};
    const fs::path dir = fs::path(parts_dir) / PartDirectoryName(part);
    if (!fs::exists(dir / kRecordName)) {
      missing.push_back(PartDirectoryName(part));
      continue;
    }
    const PartRecord record = ReadRecord(dir / kRecordName);
    std::vector<std::string> expected;
    for (int image : partition[p]) expected.push_back(graph_scene.images[image].name);
    PROJ_REQUIRE(record.part.index == p && record.part.count == count && record.num_graph_images == graph_scene.images.size() &&
                     record.num_pairs == num_pairs && record.names == expected,
                 "'" << dir.string() << "' was mapped from another scene database or partition (its record names "
                     << record.names.size() << " images of a view graph of " << record.num_graph_images
                     << " images and " << record.num_pairs << " pairs; this one cuts " << expected.size()
                     << " images of " << graph_scene.images.size() << " and " << num_pairs << ")");
    Scene model = ReadColmapBinary(dir.string());
    PartModel& out = parts[p];
    out.scene.cameras = graph_scene.cameras;
    for (size_t c = 0; c < model.cameras.size() && c < out.scene.cameras.size(); ++c) {
      if (!model.cameras[c].params.empty()) out.scene.cameras[c] = model.cameras[c];
    }
    for (const SceneImage& image : model.images) {
      if (!image.registered) continue;
      const auto found = index_of_name.find(image.name);
      PROJ_REQUIRE(found != index_of_name.end(), "'" << dir.string() << "' holds image '" << image.name
                                                     << "', which is not in the scene database");
      SceneImage pose;
      pose.name = image.name;
      pose.camera_id = image.camera_id;
      pose.registered = true;
      pose.cam_from_world = image.cam_from_world;
      out.image_ids.push_back(found->second);
      out.scene.images.push_back(std::move(pose));
    }
  }
  if (!missing.empty()) {
    std::ostringstream list;
    for (size_t i = 0; i < missing.size(); ++i) list << (i ? ", " : "") << missing[i];
    PROJ_REQUIRE(false, "'" << parts_dir << "' lacks " << missing.size() << " of its " << count
                            << " finished parts (" << list.str()
                            << "): run `sfm map --part i/" << count << "` for each, or wait for those tasks");
  }
  return parts;
}

}  // namespace proj
