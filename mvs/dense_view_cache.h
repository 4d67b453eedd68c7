// Undistorted images loaded for dense stereo, decoded on demand and kept in a cache bounded in
// bytes (least recently used out first), so memory stays bounded however many images a model
// has: COLMAP's mvs::CachedWorkspace, with views shared by the problems in flight.
#pragma once

#include <cstddef>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "mvs/dense_view.h"
#include "sfm/scene/scene.h"

namespace proj::mvs {

// Grey value in [0, 1] of an 8-bit pixel: (0.299 R + 0.587 G + 0.114 B) / 255 for colour
// (ITU-R BT.601, as COLMAP's Bitmap::CloneAsGrey), the value / 255 for grey.
std::vector<float> GreyOf(const Image& image);

// Decodes `path` (io/image_decode.h) into a view of `geometry`'s size: grey, and the RGB
// colour image when `with_colour`. InputError naming the file when it cannot be read or is
// not the camera's size.
DenseView LoadDenseView(const std::string& path, const std::string& name, const ViewGeometry& geometry,
                        bool with_colour);

// Bytes a loaded view holds (grey floats, colour bytes).
size_t DenseViewBytes(const DenseView& view);

// Views of the registered images of a PINHOLE model, read from `images_dir`/NAME. The views
// handed out stay valid while held, whether or not the cache still keeps them; the cache
// keeps at most `capacity_bytes` of views (always the most recently used one). Thread-safe: callers
// asking for different images decode them concurrently, outside the cache's lock; callers
// asking for an image being decoded wait for it.
class DenseViewCache {
 public:
  DenseViewCache(const Scene& pinhole_scene, std::string images_dir, size_t capacity_bytes, bool with_colour);

  // InputError as LoadDenseView; PROJ_CHECK for an image id that is not registered.
  std::shared_ptr<const DenseView> Get(int image_id);
  int num_loads() const;        // images decoded so far
  size_t bytes_cached() const;  // held by the cache itself

 private:
  using ViewFuture = std::shared_future<std::shared_ptr<const DenseView>>;
  struct Entry {
    ViewFuture view;
    size_t bytes = 0;  // 0 while being decoded (never evicted then)
    std::list<int>::iterator position;  // in recency_
  };
  void Evict();  // under mutex_
  std::vector<std::optional<ViewGeometry>> geometries_;  // by image id, registered ones
  std::vector<std::string> names_;
  std::string images_dir_;
  size_t capacity_bytes_;
  bool with_colour_;
  mutable std::mutex mutex_;
  std::unordered_map<int, Entry> entries_;
  std::list<int> recency_;  // most recent first
  size_t bytes_ = 0;
  int num_loads_ = 0;
};

}  // namespace proj::mvs
