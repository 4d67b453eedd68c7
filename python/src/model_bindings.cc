#include "python/src/model_bindings.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "python/src/numpy_views.h"
#include "sfm/reconstruction_io/colmap_binary.h"
#include "sfm/reconstruction_io/colmap_model.h"
#include "sfm/reconstruction_io/colmap_text.h"
#include "sfm/reconstruction_io/colmap_written_subset.h"

namespace proj::python {
namespace {

using namespace pybind11::literals;
using internal::InRegisteredImage;
using internal::NumRegisteredObservations;

// An image or a point of a model: the model stays alive while Python holds one.
struct ImageRef {
  std::shared_ptr<Scene> scene;
  int index;
  SceneImage& get() const { return scene->images[index]; }
};
struct PointRef {
  std::shared_ptr<Scene> scene;
  int index;
  Point3D& get() const { return scene->points.at(index); }
};

Eigen::Vector3d Vector3(const py::array_t<double, py::array::c_style | py::array::forcecast>& values,
                        const char* what) {
  if (values.size() != 3) throw py::value_error(std::string(what) + " must have 3 values");
  return Eigen::Vector3d(values.data()[0], values.data()[1], values.data()[2]);
}

Rigid3d MakeRigid3d(const py::array_t<double, py::array::c_style | py::array::forcecast>& rotation,
                    const py::array_t<double, py::array::c_style | py::array::forcecast>& translation) {
  const Eigen::Vector3d t = Vector3(translation, "translation");
  if (rotation.size() == 4) {
    const double* q = rotation.data();
    const Eigen::Quaterniond quaternion(q[0], q[1], q[2], q[3]);
    if (quaternion.norm() == 0) throw py::value_error("rotation: the quaternion is zero");
    return Rigid3d(quaternion.normalized(), t);
  }
  if (rotation.size() == 9) {
    const Eigen::Matrix<double, 3, 3, Eigen::RowMajor> r(rotation.data());
    return Rigid3d(Eigen::Matrix3d(r), t);
  }
  throw py::value_error("rotation must be a quaternion (w, x, y, z) or a 3x3 matrix");
}

void BindRigid3d(py::module_& m) {
  py::class_<Rigid3d>(m, "Rigid3d",
                      "A rigid transform b_from_a: x_b = R x_a + t (poses are cam_from_world).")
      .def(py::init(&MakeRigid3d), "rotation"_a, "translation"_a,
           "From a quaternion (w, x, y, z; normalised here) or a 3x3 rotation matrix, and a "
           "translation.")
      .def_property_readonly(
          "rotation",
          [](const Rigid3d& r) {
            const Eigen::Quaterniond& q = r.rotation;
            return Copy(Eigen::Vector4d(q.w(), q.x(), q.y(), q.z()));
          },
          "Unit quaternion (w, x, y, z), a copy.")
      .def_property_readonly(
          "translation", [](const Rigid3d& r) { return Copy(r.translation); }, "t, a copy.")
      .def(
          "matrix", [](const Rigid3d& r) { return Copy(r.ToMatrix()); }, "[R | t], 3x4.")
      .def(
          "rotation_matrix", [](const Rigid3d& r) { return Copy(r.rotation.toRotationMatrix()); },
          "R, 3x3.")
      .def(
          "center", [](const Rigid3d& r) { return Copy(r.Center()); },
          "-R^T t: the camera centre in world coordinates, for a cam_from_world pose.")
      .def("inverse", &Rigid3d::Inverse, "a_from_b.")
      .def(
          "__mul__", [](const Rigid3d& a, const Rigid3d& b) { return a * b; },
          "c_from_a = c_from_b * b_from_a.")
      .def(
          "transform",
          [](const Rigid3d& r, const py::array_t<double, py::array::c_style | py::array::forcecast>& x) {
            return Copy(r * Vector3(x, "point"));
          },
          "point"_a, "R x + t.")
      .def("__repr__", [](const Rigid3d& r) {
        std::ostringstream text;
        const Eigen::Quaterniond& q = r.rotation;
        text << "Rigid3d(rotation=[" << q.w() << ", " << q.x() << ", " << q.y() << ", " << q.z()
             << "], translation=[" << r.translation.x() << ", " << r.translation.y() << ", "
             << r.translation.z() << "])";
        return text.str();
      });
}

void BindCamera(py::module_& m) {
  py::class_<Camera, std::shared_ptr<Camera>>(m, "Camera", "A camera's intrinsics.")
      .def_property_readonly(
          "model", [](const Camera& c) { return CameraModelName(c.model); },
          "COLMAP's model name: PINHOLE, SIMPLE_RADIAL or RADIAL.")
      .def_readonly("width", &Camera::width, "Image width, px.")
      .def_readonly("height", &Camera::height, "Image height, px.")
      .def_property_readonly(
          "params",
          [](py::object self) {
            Camera& c = self.cast<Camera&>();
            return View(c.params.data(), {static_cast<py::ssize_t>(c.params.size())}, self);
          },
          "The model's parameters in COLMAP's order (a view: writes change the camera).")
      .def_property_readonly("focal_length", &Camera::MeanFocal, "Mean focal length, px.")
      .def_property_readonly(
          "principal_point", [](const Camera& c) { return Copy(c.PrincipalPoint()); },
          "(cx, cy), px; the centre of the top-left pixel is (0.5, 0.5).")
      .def(
          "calibration_matrix", [](const Camera& c) { return Copy(c.CalibrationMatrix()); },
          "K, 3x3, without the distortion terms.")
      .def("__repr__", [](const Camera& c) {
        std::ostringstream text;
        text << "Camera(" << CameraModelName(c.model) << ", " << c.width << "x" << c.height << ", params=[";
        for (size_t i = 0; i < c.params.size(); ++i) text << (i ? ", " : "") << c.params[i];
        text << "])";
        return text.str();
      });
}

void BindImage(py::module_& m) {
  py::class_<ImageRef>(m, "Image", "A registered image: its pose and its 2D points.")
      .def_property_readonly(
          "image_id", [](const ImageRef& r) { return r.index + 1; }, "COLMAP's id, from 1.")
      .def_property_readonly(
          "name", [](const ImageRef& r) { return r.get().name; },
          "File name relative to the images folder.")
      .def_property_readonly(
          "camera_id", [](const ImageRef& r) { return r.get().camera_id + 1; }, "Its camera's id.")
      .def_property(
          "cam_from_world", [](const ImageRef& r) { return r.get().cam_from_world; },
          [](const ImageRef& r, const Rigid3d& pose) { r.get().cam_from_world = pose; },
          "The pose, world to camera (a copy; assign a Rigid3d to change it).")
      .def_property_readonly(
          "center", [](const ImageRef& r) { return Copy(r.get().cam_from_world.Center()); },
          "The camera centre in world coordinates.")
      .def_property_readonly(
          "points2D",
          [](py::object self) {
            SceneImage& image = self.cast<ImageRef&>().get();
            return View(reinterpret_cast<double*>(image.keypoints.data()),
                        {static_cast<py::ssize_t>(image.keypoints.size()), 2}, self);
          },
          "(N, 2) float64 keypoint positions, px (a view).")
      .def_property_readonly(
          "point3D_ids",
          [](const ImageRef& r) {
            const SceneImage& image = r.get();
            py::array_t<int64_t> ids(static_cast<py::ssize_t>(image.point3d_ids.size()));
            for (size_t k = 0; k < image.point3d_ids.size(); ++k) {
              const int id = image.point3d_ids[k];
              ids.mutable_data()[k] = id == kInvalidId ? -1 : id + 1;
            }
            return ids;
          },
          "(N,) int64: the id of the 3D point each 2D point observes, -1 for none (a copy).")
      .def_property_readonly(
          "num_points3D",
          [](const ImageRef& r) {
            int count = 0;
            for (const int id : r.get().point3d_ids) count += id != kInvalidId ? 1 : 0;
            return count;
          },
          "How many of its 2D points observe a 3D point.")
      .def("__repr__", [](const ImageRef& r) {
        return "Image(" + std::to_string(r.index + 1) + ", '" + r.get().name + "')";
      });
}

void BindPoint(py::module_& m) {
  py::class_<PointRef>(m, "Point3D", "A 3D point with its colour, error and track.")
      .def_property_readonly(
          "point3D_id", [](const PointRef& r) { return r.index + 1; }, "COLMAP's id, from 1.")
      .def_property_readonly(
          "xyz", [](py::object self) { return View(self.cast<PointRef&>().get().position.data(), {3}, self); },
          "(3,) float64 position in the world frame (a view).")
      .def_property_readonly(
          "color", [](py::object self) { return View(self.cast<PointRef&>().get().color.data(), {3}, self); },
          "(3,) uint8 RGB (a view).")
      .def_property(
          "error", [](const PointRef& r) { return r.get().mean_error_px; },
          [](const PointRef& r, double error) { r.get().mean_error_px = error; },
          "Mean reprojection error over the track, px.")
      .def_property_readonly(
          "track",
          [](const PointRef& r) {
            std::vector<TrackElement> track;
            for (const TrackElement& e : r.get().track) {
              if (InRegisteredImage(*r.scene, e)) track.push_back(e);
            }
            return Rows<int64_t>(static_cast<py::ssize_t>(track.size()), 2, [&](py::ssize_t i, int64_t* row) {
              row[0] = track[i].image_id + 1;
              row[1] = track[i].keypoint_index;
            });
          },
          "(K, 2) int64 rows (image_id, point2D_idx) of the images that observe it (a copy).")
      .def("__repr__", [](const PointRef& r) {
        const Eigen::Vector3d& x = r.get().position;
        std::ostringstream text;
        text << "Point3D(" << r.index + 1 << ", xyz=[" << x.x() << ", " << x.y() << ", " << x.z() << "])";
        return text.str();
      });
}

// Points as the model files hold them, by increasing id.
std::vector<int> ListedPointIds(const Scene& scene) {
  std::vector<int> ids;
  for (const auto& [id, point] : scene.points) {
    if (NumRegisteredObservations(scene, point) > 0) ids.push_back(id);
  }
  return ids;
}

// One row per listed point, by increasing id, filled by fill(id, point, row); `columns` 0
// makes a 1-D array of one value per point.
template <typename T, typename Fill>
py::array_t<T> PointRows(const Scene& scene, py::ssize_t columns, Fill fill) {
  const std::vector<int> ids = ListedPointIds(scene);
  const auto count = static_cast<py::ssize_t>(ids.size());
  py::array_t<T> rows = Rows<T>(count, std::max<py::ssize_t>(columns, 1), [&](py::ssize_t i, T* row) {
    fill(ids[i], scene.points.at(ids[i]), row);
  });
  if (columns == 0) rows.resize({count});
  return rows;
}

// Model.write_text and write_binary: `write` with the GIL released.
auto WriteWith(void (*write)(const Scene&, const std::string&)) {
  return [write](const Scene& scene, const std::filesystem::path& path) {
    py::gil_scoped_release release;
    write(scene, path.string());
  };
}

void BindScene(py::module_& m) {
  using SceneRef = std::shared_ptr<Scene>;
  py::class_<Scene, SceneRef>(m, "Model", R"(A reconstruction: cameras, registered images and 3D points.

Ids are COLMAP's (from 1), as in the model files. Read one with Model.read(folder); the
result of gpusfm.reconstruct() or gpusfm.map() holds one as `.model`.)")
      .def_static(
          "read",
          [](const std::filesystem::path& path) {
            SceneRef scene;
            {
              py::gil_scoped_release release;
              scene = std::make_shared<Scene>(ReadColmapModel(path.string()));
            }
            return scene;
          },
          "path"_a,
          "Reads a COLMAP model folder: the text model when cameras.txt is there, else the "
          "binary one. Raises gpusfm.InputError naming the file and the reason.")
      .def("write_text", WriteWith(&WriteColmapText), "path"_a,
           "Writes cameras.txt, images.txt and points3D.txt into `path` (created if missing).")
      .def("write_binary", WriteWith(&WriteColmapBinary), "path"_a,
           "Writes cameras.bin, images.bin and points3D.bin into `path` (created if missing).")
      .def_property_readonly(
          "cameras",
          [](const SceneRef& scene) {
            py::dict cameras;
            for (size_t i = 0; i < scene->cameras.size(); ++i) {
              if (scene->cameras[i].width == 0) continue;  // a gap in the file's ids
              cameras[py::int_(i + 1)] = std::shared_ptr<Camera>(scene, &scene->cameras[i]);
            }
            return cameras;
          },
          "dict[int, Camera] by camera id.")
      .def_property_readonly(
          "images",
          [](const SceneRef& scene) {
            py::dict images;
            for (size_t i = 0; i < scene->images.size(); ++i) {
              if (scene->images[i].registered) images[py::int_(i + 1)] = ImageRef{scene, static_cast<int>(i)};
            }
            return images;
          },
          "dict[int, Image] of the registered images by image id.")
      .def_property_readonly(
          "points3D",
          [](const SceneRef& scene) {
            py::dict points;
            for (const int id : ListedPointIds(*scene)) points[py::int_(id + 1)] = PointRef{scene, id};
            return points;
          },
          "dict[int, Point3D] by point id.")
      .def(
          "point3D_ids",
          [](const Scene& scene) {
            return PointRows<int64_t>(scene, 0, [](int id, const Point3D&, int64_t* row) { *row = id + 1; });
          },
          "(P,) int64 ids of the points, increasing: the row order of xyz(), rgb() and errors().")
      .def(
          "xyz",
          [](const Scene& scene) {
            return PointRows<double>(scene, 3, [](int, const Point3D& point, double* row) {
              std::copy(point.position.data(), point.position.data() + 3, row);
            });
          },
          "(P, 3) float64 positions of all points (a copy).")
      .def(
          "rgb",
          [](const Scene& scene) {
            return PointRows<uint8_t>(scene, 3, [](int, const Point3D& point, uint8_t* row) {
              std::copy(point.color.data(), point.color.data() + 3, row);
            });
          },
          "(P, 3) uint8 colours of all points (a copy).")
      .def(
          "errors",
          [](const Scene& scene) {
            return PointRows<double>(scene, 0, [](int, const Point3D& point, double* row) { *row = point.mean_error_px; });
          },
          "(P,) float64 mean reprojection errors of all points, px (a copy).")
      .def_property_readonly("num_registered_images", &Scene::NumRegisteredImages)
      .def("__repr__", [](const Scene& scene) {
        return "Model(" + std::to_string(scene.NumRegisteredImages()) + " images, " +
               std::to_string(ListedPointIds(scene).size()) + " points)";
      });
}

}  // namespace

void BindModel(py::module_& module) {
  BindRigid3d(module);
  BindCamera(module);
  BindImage(module);
  BindPoint(module);
  BindScene(module);
}

py::object ModelObject(std::shared_ptr<Scene> scene) { return py::cast(std::move(scene)); }

}  // namespace proj::python
