#include "mvs/dense_view_cache.h"

#include <utility>

#include "core/check.h"
#include "io/image_decode.h"
#include "mvs/scene_views.h"

namespace proj::mvs {

std::vector<float> GreyOf(const Image& image) {
  const size_t count = static_cast<size_t>(image.width) * image.height;
  std::vector<float> grey(count);
  if (image.channels == 1) {
    for (size_t i = 0; i < count; ++i) grey[i] = image.data[i] / 255.0f;
    return grey;
  }
  PROJ_CHECK(image.channels == 3, "an image has 1 or 3 channels, not " << image.channels);
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* rgb = &image.data[3 * i];
    grey[i] = (0.299f * rgb[0] + 0.587f * rgb[1] + 0.114f * rgb[2]) / 255.0f;
  }
  return grey;
}

DenseView LoadDenseView(const std::string& path, const std::string& name, const ViewGeometry& geometry,
                        bool with_colour) {
  Image image = ReadImageFile(path);
  PROJ_REQUIRE(image.width == geometry.camera.width && image.height == geometry.camera.height,
               "'" << path << "' is " << image.width << "x" << image.height << " pixels, its camera "
                   << geometry.camera.width << "x" << geometry.camera.height
                   << " (an undistorted image replaced since? delete it and run again)");
  DenseView view;
  view.name = name;
  view.geometry = geometry;
  view.grey = GreyOf(image);
  if (with_colour) {
    if (image.channels == 1) {
      Image colour{image.width, image.height, 3, std::vector<uint8_t>(image.data.size() * 3)};
      for (size_t i = 0; i < image.data.size(); ++i) {
        for (int c = 0; c < 3; ++c) colour.data[3 * i + c] = image.data[i];
      }
      image = std::move(colour);
    }
    view.colour = std::move(image);
  }
  return view;
}

size_t DenseViewBytes(const DenseView& view) {
  return view.grey.size() * sizeof(float) + view.colour.data.size();
}

DenseViewCache::DenseViewCache(const Scene& pinhole_scene, std::string images_dir, size_t capacity_bytes,
                               bool with_colour)
    : geometries_(pinhole_scene.images.size()),
      names_(pinhole_scene.images.size()),
      images_dir_(std::move(images_dir)),
      capacity_bytes_(capacity_bytes),
      with_colour_(with_colour) {
  for (size_t id = 0; id < pinhole_scene.images.size(); ++id) {
    if (!pinhole_scene.images[id].registered) continue;
    geometries_[id] = PinholeViewGeometry(pinhole_scene, static_cast<int>(id));
    names_[id] = pinhole_scene.images[id].name;
  }
}

std::shared_ptr<const DenseView> DenseViewCache::Get(int image_id) {
  PROJ_CHECK(image_id >= 0 && image_id < static_cast<int>(geometries_.size()) && geometries_[image_id],
             "image " << image_id << " is not a registered image of the dense model");
  std::promise<std::shared_ptr<const DenseView>> promise;
  ViewFuture pending;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = entries_.find(image_id);
    if (found != entries_.end()) {
      recency_.splice(recency_.begin(), recency_, found->second.position);
      pending = found->second.view;
    } else {
      recency_.push_front(image_id);
      entries_[image_id] = {promise.get_future().share(), 0, recency_.begin()};
      ++num_loads_;
    }
  }
  if (pending.valid()) return pending.get();  // waits while another caller decodes it
  std::shared_ptr<const DenseView> view;
  try {
    view = std::make_shared<const DenseView>(LoadDenseView(images_dir_ + "/" + names_[image_id], names_[image_id],
                                                           *geometries_[image_id], with_colour_));
  } catch (...) {
    promise.set_exception(std::current_exception());  // callers waiting for it get the error too
    std::lock_guard<std::mutex> lock(mutex_);
    recency_.erase(entries_[image_id].position);
    entries_.erase(image_id);  // a later call tries again
    throw;
  }
  promise.set_value(view);
  std::lock_guard<std::mutex> lock(mutex_);
  Entry& entry = entries_[image_id];
  entry.bytes = DenseViewBytes(*view);
  bytes_ += entry.bytes;
  Evict();
  return view;
}

void DenseViewCache::Evict() {
  // From the least recently used on, never an image being decoded, never the most recent.
  auto it = recency_.end();
  while (bytes_ > capacity_bytes_ && it != recency_.begin()) {
    --it;
    if (it == recency_.begin()) break;
    const auto entry = entries_.find(*it);
    if (entry->second.bytes == 0) continue;
    bytes_ -= entry->second.bytes;
    entries_.erase(entry);
    it = recency_.erase(it);
  }
}

int DenseViewCache::num_loads() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return num_loads_;
}

size_t DenseViewCache::bytes_cached() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

}  // namespace proj::mvs
