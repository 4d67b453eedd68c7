#include "python/src/database_bindings.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "core/check.h"
#include "python/src/numpy_views.h"
#include "sfm/database/scene_database.h"

namespace proj::python {
namespace {

using namespace pybind11::literals;

// The database until close(): SQLite's file stays open (and read) only while Python needs it.
class DatabaseHandle {
 public:
  explicit DatabaseHandle(const std::filesystem::path& path)
      : database_(std::make_unique<SceneDatabase>(path.string(), SceneDatabase::Mode::kReadOnly)) {}
  const SceneDatabase& get() const {
    if (!database_) throw InputError("the database is closed");
    return *database_;
  }
  void Close() { database_.reset(); }

 private:
  std::unique_ptr<SceneDatabase> database_;
};

// Releases the GIL while `read` runs (SQLite reads, blob decoding).
template <typename Read>
auto Unlocked(Read read) {
  py::gil_scoped_release release;
  return read();
}

py::array_t<uint32_t> MatchArray(const std::vector<FeatureMatch>& matches) {
  return Rows<uint32_t>(static_cast<py::ssize_t>(matches.size()), 2, [&](py::ssize_t i, uint32_t* row) {
    row[0] = static_cast<uint32_t>(matches[i].index1);
    row[1] = static_cast<uint32_t>(matches[i].index2);
  });
}

py::tuple PairOf(int64_t pair_id) {
  const auto [id1, id2] = ImageIdsFromPairId(pair_id);
  return py::make_tuple(id1, id2);
}

py::list PairsOf(const std::vector<int64_t>& pair_ids) {
  py::list pairs;
  for (const int64_t id : pair_ids) pairs.append(PairOf(id));
  return pairs;
}

void BindTwoViewGeometry(py::module_& m) {
  py::class_<TwoViewGeometry>(m, "TwoViewGeometry",
                              "A verified pair: its configuration, models and inlier matches, from "
                              "the first image of the pair to the second.")
      .def_property_readonly(
          "configuration", [](const TwoViewGeometry& g) { return TwoViewConfigurationName(g.configuration); },
          "degenerate, calibrated, uncalibrated, planar or panoramic.")
      .def_property_readonly(
          "inlier_matches", [](const TwoViewGeometry& g) { return MatchArray(g.inlier_matches); },
          "(M, 2) uint32 keypoint indices in the first and the second image.")
      .def_property_readonly(
          "F", [](const TwoViewGeometry& g) { return Copy(g.F); }, "Fundamental matrix, px: x2^T F x1 = 0.")
      .def_property_readonly(
          "E", [](const TwoViewGeometry& g) { return Copy(g.E); }, "Essential matrix: n2^T E n1 = 0.")
      .def_property_readonly(
          "H", [](const TwoViewGeometry& g) { return Copy(g.H); }, "Homography, px: x2 ~ H x1.")
      .def_property_readonly(
          "cam2_from_cam1",
          [](const TwoViewGeometry& g) { return g.has_relative_pose ? std::optional<Rigid3d>(g.cam2_from_cam1) : std::nullopt; },
          "The relative pose (unit translation), or None.")
      .def("__repr__", [](const TwoViewGeometry& g) {
        return "TwoViewGeometry(" + TwoViewConfigurationName(g.configuration) + ", " +
               std::to_string(g.inlier_matches.size()) + " inliers)";
      });
}

void BindDatabaseImage(py::module_& m) {
  py::class_<DatabaseImage>(m, "DatabaseImage", "An image of a scene database.")
      .def_readonly("image_id", &DatabaseImage::image_id)
      .def_readonly("name", &DatabaseImage::name, "File name relative to the images folder.")
      .def_readonly("camera_id", &DatabaseImage::camera_id)
      .def("__repr__", [](const DatabaseImage& image) {
        return "DatabaseImage(" + std::to_string(image.image_id) + ", '" + image.name + "')";
      });
}

void BindDatabaseHandle(py::module_& m) {
  py::class_<DatabaseHandle>(m, "Database", R"(A scene database (SQLite, COLMAP's schema), read-only.

Ours (`sfm extract`, `sfm match`, gpusfm.extract/match/reconstruct) or COLMAP's. Use it as a
context manager or call close(); ids are the database's, from 1.)")
      .def(py::init<const std::filesystem::path&>(), "path"_a,
           "Opens `path` read-only; gpusfm.InputError naming it when it is missing or no scene database.")
      .def("close", &DatabaseHandle::Close, "Closes the file (later calls raise gpusfm.InputError).")
      .def("__enter__", [](DatabaseHandle& d) -> DatabaseHandle& { return d; }, py::return_value_policy::reference)
      .def("__exit__", [](DatabaseHandle& d, py::args) { d.Close(); })
      .def_property_readonly("path", [](const DatabaseHandle& d) { return d.get().path(); })
      .def(
          "cameras",
          [](const DatabaseHandle& d) {
            py::dict cameras;
            for (const DatabaseCamera& c : Unlocked([&] { return d.get().ReadCameras(); })) {
              cameras[py::int_(c.camera_id)] = std::make_shared<Camera>(c.camera);
            }
            return cameras;
          },
          "dict[int, Camera] by camera id.")
      .def(
          "images",
          [](const DatabaseHandle& d) {
            py::dict images;
            for (const DatabaseImage& image : Unlocked([&] { return d.get().ReadImages(); })) {
              images[py::int_(image.image_id)] = image;
            }
            return images;
          },
          "dict[int, DatabaseImage] by image id.")
      .def(
          "keypoints",
          [](const DatabaseHandle& d, int image_id) {
            const std::vector<Keypoint> keypoints = Unlocked([&] { return d.get().ReadKeypoints(image_id); });
            return Rows<float>(static_cast<py::ssize_t>(keypoints.size()), 4, [&](py::ssize_t i, float* row) {
              const Keypoint& k = keypoints[i];
              row[0] = k.x;
              row[1] = k.y;
              row[2] = k.scale;
              row[3] = k.orientation;
            });
          },
          "image_id"_a,
          "(N, 4) float32 rows (x, y, scale, orientation) of the image's keypoints: pixels (centre "
          "of the top-left pixel at (0.5, 0.5)), scale in pixels, orientation in radians; (0, 4) "
          "when none are stored.")
      .def(
          "descriptors",
          [](const DatabaseHandle& d, int image_id) {
            const std::vector<uint8_t> descriptors = Unlocked([&] { return d.get().ReadDescriptors(image_id); });
            const auto rows = static_cast<py::ssize_t>(descriptors.size() / kSiftDescriptorSize);
            py::array_t<uint8_t> array({rows, static_cast<py::ssize_t>(kSiftDescriptorSize)});
            std::copy(descriptors.begin(), descriptors.end(), array.mutable_data());
            return array;
          },
          "image_id"_a, "(N, 128) uint8 SIFT descriptors, one row per keypoint.")
      .def(
          "matched_pairs",
          [](const DatabaseHandle& d) { return PairsOf(Unlocked([&] { return d.get().ReadMatchedPairIds(); })); },
          "list[(image_id1, image_id2)] of the matched pairs, image_id1 < image_id2.")
      .def(
          "verified_pairs",
          [](const DatabaseHandle& d) { return PairsOf(Unlocked([&] { return d.get().ReadVerifiedPairIds(); })); },
          "list[(image_id1, image_id2)] of the pairs with a two-view geometry.")
      .def(
          "matches",
          [](const DatabaseHandle& d, int image_id1, int image_id2) -> std::optional<py::array_t<uint32_t>> {
            const auto matches = Unlocked([&] { return d.get().ReadMatches(image_id1, image_id2); });
            if (!matches) return std::nullopt;
            return MatchArray(*matches);
          },
          "image_id1"_a, "image_id2"_a,
          "(M, 2) uint32 putative matches (keypoint indices in image_id1, image_id2), or None when "
          "the pair was not matched.")
      .def(
          "two_view_geometry",
          [](const DatabaseHandle& d, int image_id1, int image_id2) {
            return Unlocked([&] { return d.get().ReadTwoViewGeometry(image_id1, image_id2); });
          },
          "image_id1"_a, "image_id2"_a,
          "The pair's TwoViewGeometry from image_id1 to image_id2, or None when it was not verified.")
      .def(
          "two_view_geometries",
          [](const DatabaseHandle& d) {
            py::dict geometries;
            for (auto& [pair_id, geometry] : Unlocked([&] { return d.get().ReadTwoViewGeometries(); })) {
              geometries[PairOf(pair_id)] = std::move(geometry);
            }
            return geometries;
          },
          "dict[(image_id1, image_id2), TwoViewGeometry] of every verified pair, image_id1 < image_id2.");
}

}  // namespace

void BindDatabase(py::module_& module) {
  BindTwoViewGeometry(module);
  BindDatabaseImage(module);
  BindDatabaseHandle(module);
}

}  // namespace proj::python
