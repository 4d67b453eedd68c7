#include "mvs/orthophoto.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>

#include "core/check.h"
#include "core/logging.h"
#include "core/parallel_for.h"
#include "core/progress.h"
#include "core/timer.h"
#include "mvs/dense_view_cache.h"
#include "mvs/grid_enu_field.h"
#include "mvs/height_field_depth.h"
#include "mvs/plane_blur.h"
#include "mvs/scene_views.h"

namespace proj::mvs {
namespace {

// A view while tiles need it: its colour image box-filtered to about the cell size, and its
// z-buffer of the surface model.
struct LoadedView {
  PinholeCamera colour_camera;
  Image colour;  // RGB, colour_camera's size
  DepthBuffer depth;
};

// A tile of cells and the margin its seam blending reads.
struct Tile {
  int col_begin = 0, col_end = 0, row_begin = 0, row_end = 0;      // the cells it writes
  int ext_col_begin = 0, ext_col_end = 0, ext_row_begin = 0, ext_row_end = 0;  // the cells it reads
  std::vector<int> views;  // views whose image may see a cell it reads
};

// `image` (RGB or grey) averaged over blocks of factor x factor pixels, as RGB.
Image BoxDownsampleRgb(const Image& image, int factor) {
  Image out{image.width / factor, image.height / factor, 3, {}};
  out.data.assign(static_cast<size_t>(out.width) * out.height * 3, 0);
  const int area = factor * factor;
  for (int y = 0; y < out.height; ++y) {
    for (int x = 0; x < out.width; ++x) {
      int sum[3] = {0, 0, 0};
      for (int dy = 0; dy < factor; ++dy) {
        for (int dx = 0; dx < factor; ++dx) {
          const uint8_t* p = image.pixel(x * factor + dx, y * factor + dy);
          for (int c = 0; c < 3; ++c) sum[c] += p[image.channels == 3 ? c : 0];
        }
      }
      uint8_t* q = &out.data[(static_cast<size_t>(y) * out.width + x) * 3];
      for (int c = 0; c < 3; ++c) q[c] = static_cast<uint8_t>((sum[c] + area / 2) / area);
    }
  }
  return out;
}

// Bilinear colour at pixel coordinates (centres at + 0.5), clamped to the image.
Eigen::Vector3f SampleColour(const Image& image, const Eigen::Vector2d& pixel) {
  const double u = std::clamp(pixel.x() - 0.5, 0.0, image.width - 1.0);
  const double v = std::clamp(pixel.y() - 0.5, 0.0, image.height - 1.0);
  const int x0 = std::min(static_cast<int>(u), std::max(0, image.width - 2));
  const int y0 = std::min(static_cast<int>(v), std::max(0, image.height - 2));
  const int x1 = std::min(x0 + 1, image.width - 1), y1 = std::min(y0 + 1, image.height - 1);
  const float tx = static_cast<float>(u - x0), ty = static_cast<float>(v - y0);
  Eigen::Vector3f colour;
  for (int c = 0; c < 3; ++c) {
    const float top = (1 - tx) * image.pixel(x0, y0)[c] + tx * image.pixel(x1, y0)[c];
    const float bottom = (1 - tx) * image.pixel(x0, y1)[c] + tx * image.pixel(x1, y1)[c];
    colour[c] = (1 - ty) * top + ty * bottom;
  }
  return colour;
}

class OrthophotoRenderer {
 public:
  OrthophotoRenderer(const SurfaceModel& dsm, const OrthophotoViews& views, const EnuFromMap& enu_from_map,
                     const OrthophotoOptions& options)
      : dsm_(dsm),
        views_(views),
        options_(options),
        grid_(dsm.grid),
        blur_radius_(std::max(1, options.seam_blend_cells / 3)),
        margin_(3 * blur_radius_),
        reference_height_m_(MedianKnownHeight()),
        enu_(grid_, reference_height_m_, enu_from_map),
        loaded_(views.geometry.size()) {}

  Orthophoto Render() {
    Orthophoto result;
    result.grid = grid_;
    result.rgba.assign(4 * grid_.NumCells(), 0);
    if (!std::isfinite(reference_height_m_)) return result;  // no known height at all
    PlanTiles();
    const int tiles_x = (grid_.width + options_.tile_cells - 1) / options_.tile_cells;
    const int tile_rows = static_cast<int>(tiles_.size()) / tiles_x;
    // Bands of tile rows, wide enough to keep every thread busy: a view is loaded for the
    // first band that needs it and dropped after the last, so memory holds the views of a
    // band, not of the survey.
    const int rows_per_band =
        std::max(1, (2 * ResolveNumThreads(options_.num_threads) + tiles_x - 1) / tiles_x);
    std::vector<int> last_band(views_.geometry.size(), -1);
    for (size_t t = 0; t < tiles_.size(); ++t) {
      for (int view : tiles_[t].views) {
        last_band[view] = std::max(last_band[view], static_cast<int>(t) / tiles_x / rows_per_band);
      }
    }
    Progress progress("rendering the orthophoto", static_cast<int>(tiles_.size()), "tiles");
    for (int band = 0; band * rows_per_band < tile_rows; ++band) {
      const int first = band * rows_per_band * tiles_x;
      const int last = std::min(static_cast<int>(tiles_.size()), first + rows_per_band * tiles_x);
      std::vector<int> to_load;
      for (int t = first; t < last; ++t) {
        for (int view : tiles_[t].views) {
          if (!loaded_[view]) to_load.push_back(view);
        }
      }
      std::sort(to_load.begin(), to_load.end());
      to_load.erase(std::unique(to_load.begin(), to_load.end()), to_load.end());
      ParallelFor(0, static_cast<int>(to_load.size()), options_.num_threads,
                  [&](int i, int) { loaded_[to_load[i]] = Load(to_load[i]); });
      ParallelFor(first, last, options_.num_threads, [&](int t, int) {
        RenderTile(tiles_[t], &result.rgba);
        progress.Advance();
      });
      for (size_t view = 0; view < loaded_.size(); ++view) {
        if (last_band[view] == band) loaded_[view].reset();
      }
    }
    return result;
  }

 private:
  double MedianKnownHeight() const {
    std::vector<float> known;
    const size_t step = std::max<size_t>(1, grid_.NumCells() / 100000);
    for (size_t i = 0; i < dsm_.height_m.size(); i += step) {
      if (std::isfinite(dsm_.height_m[i])) known.push_back(dsm_.height_m[i]);
    }
    if (known.empty()) {
      for (float h : dsm_.height_m) {
        if (std::isfinite(h)) return h;
      }
      return std::numeric_limits<double>::quiet_NaN();
    }
    std::nth_element(known.begin(), known.begin() + known.size() / 2, known.end());
    return known[known.size() / 2];
  }

  // Tiles with the views whose image the box of their read cells (and heights) may reach.
  void PlanTiles() {
    const int size = options_.tile_cells;
    for (int row = 0; row < grid_.height; row += size) {
      for (int col = 0; col < grid_.width; col += size) {
        Tile tile;
        tile.col_begin = col;
        tile.row_begin = row;
        tile.col_end = std::min(grid_.width, col + size);
        tile.row_end = std::min(grid_.height, row + size);
        tile.ext_col_begin = std::max(0, col - margin_);
        tile.ext_row_begin = std::max(0, row - margin_);
        tile.ext_col_end = std::min(grid_.width, tile.col_end + margin_);
        tile.ext_row_end = std::min(grid_.height, tile.row_end + margin_);
        tiles_.push_back(tile);
      }
    }
    ParallelFor(0, static_cast<int>(tiles_.size()), options_.num_threads,
                [&](int t, int) { tiles_[t].views = ViewsReaching(tiles_[t]); });
  }

  std::vector<int> ViewsReaching(const Tile& tile) const {
    float low = std::numeric_limits<float>::infinity(), high = -low;
    for (int row = tile.ext_row_begin; row < tile.ext_row_end; ++row) {
      for (int col = tile.ext_col_begin; col < tile.ext_col_end; ++col) {
        const float h = dsm_.At(col, row);
        if (std::isfinite(h)) {
          low = std::min(low, h);
          high = std::max(high, h);
        }
      }
    }
    std::vector<int> reaching;
    if (!(low <= high)) return reaching;
    std::vector<Eigen::Vector3d> corners;
    for (double x : {tile.ext_col_begin, tile.ext_col_end}) {
      for (double y : {tile.ext_row_begin, tile.ext_row_end}) {
        for (double h : {low - 0.5, high + 0.5}) corners.push_back(enu_.EnuAt(x, y, h));
      }
    }
    for (size_t view = 0; view < views_.geometry.size(); ++view) {
      const ViewGeometry& geometry = views_.geometry[view];
      const PinholeCamera& camera = geometry.camera;
      double min_x = std::numeric_limits<double>::infinity(), max_x = -min_x, min_y = min_x, max_y = -min_x;
      int in_front = 0;
      for (const Eigen::Vector3d& corner : corners) {
        const Eigen::Vector3d cam = geometry.CamFromWorld(corner);
        if (cam.z() <= 1e-6) continue;
        ++in_front;
        const Eigen::Vector2d pixel = camera.Project(cam);
        min_x = std::min(min_x, pixel.x());
        max_x = std::max(max_x, pixel.x());
        min_y = std::min(min_y, pixel.y());
        max_y = std::max(max_y, pixel.y());
      }
      // Partly behind the camera: the box may still reach the image (kept, conservatively).
      const bool reaches = in_front > 0 && (in_front < static_cast<int>(corners.size()) ||
                                            (max_x > -2 && min_x < camera.width + 2 && max_y > -2 &&
                                             min_y < camera.height + 2));
      if (reaches) reaching.push_back(static_cast<int>(view));
    }
    return reaching;
  }

  std::unique_ptr<LoadedView> Load(int view) const {
    const ViewGeometry& geometry = views_.geometry[view];
    // Ground sample distance: the median depth of the centres of the tiles it reaches.
    std::vector<double> depths;
    for (const Tile& tile : tiles_) {
      if (!std::binary_search(tile.views.begin(), tile.views.end(), view)) continue;
      const Eigen::Vector3d centre = enu_.EnuAt(0.5 * (tile.col_begin + tile.col_end),
                                                0.5 * (tile.row_begin + tile.row_end), reference_height_m_);
      const double z = geometry.CamFromWorld(centre).z();
      if (z > 0) depths.push_back(z);
    }
    std::nth_element(depths.begin(), depths.begin() + depths.size() / 2, depths.end());
    const double gsd_m = depths.empty() ? grid_.cell_m : depths[depths.size() / 2] / geometry.camera.fx;

    const PinholeCamera& camera = geometry.camera;
    const double depth_scale = std::min(1.0, gsd_m / (options_.depth_buffer_cells * grid_.cell_m));
    DepthBuffer depth(camera.Scaled(std::max(1, static_cast<int>(std::lround(camera.width * depth_scale))),
                                    std::max(1, static_cast<int>(std::lround(camera.height * depth_scale)))));
    for (const Tile& tile : tiles_) {
      if (!std::binary_search(tile.views.begin(), tile.views.end(), view)) continue;
      DrawHeightField(dsm_, enu_, geometry, tile.col_begin, tile.col_end, tile.row_begin, tile.row_end, &depth);
    }

    Image image = views_.load(view);
    PROJ_REQUIRE(image.width == camera.width && image.height == camera.height &&
                     (image.channels == 1 || image.channels == 3),
                 "orthophoto: the image of view " << view << " is " << image.width << "x" << image.height
                                                  << ", its camera " << camera.width << "x" << camera.height);
    // Sampled at about one pixel per cell: box-filter when cells span several pixels.
    const int factor = std::clamp(static_cast<int>(grid_.cell_m / gsd_m), 1, std::min(camera.width, camera.height));
    PinholeCamera colour_camera = camera;
    colour_camera.width = camera.width / factor;
    colour_camera.height = camera.height / factor;
    colour_camera.fx /= factor;
    colour_camera.fy /= factor;
    colour_camera.cx /= factor;
    colour_camera.cy /= factor;
    return std::make_unique<LoadedView>(
        LoadedView{colour_camera, BoxDownsampleRgb(image, factor), std::move(depth)});
  }

  // Score of `view` at world point `point`, 0 when it does not see it; `pixel` receives the
  // point's position in the view's colour image.
  float Score(int view, const Eigen::Vector3d& point, Eigen::Vector2d* pixel) const {
    const ViewGeometry& geometry = views_.geometry[view];
    const LoadedView& loaded = *loaded_[view];
    const Eigen::Vector3d cam = geometry.CamFromWorld(point);
    if (cam.z() <= 1e-6) return 0;
    const PinholeCamera& camera = loaded.colour_camera;
    *pixel = camera.Project(cam);
    const double border = std::min({pixel->x(), camera.width - pixel->x(), pixel->y(), camera.height - pixel->y()});
    const double fade = border / (options_.border_fade * std::min(camera.width, camera.height));
    if (!(fade > 0)) return 0;
    const float nearest = loaded.depth.NearestAround(loaded.depth.camera.Project(cam));
    if (cam.z() > nearest * (1 + options_.visibility_tolerance)) return 0;
    const Eigen::Vector3d to_camera = geometry.Center() - point;
    const double distance = to_camera.norm();
    const double cos_nadir = to_camera.z() / distance;
    if (!(cos_nadir > 0)) return 0;
    const double nadir = options_.nadir_exponent == 2 ? cos_nadir * cos_nadir : std::pow(cos_nadir, options_.nadir_exponent);
    return static_cast<float>(nadir * geometry.camera.fx / distance * std::min(1.0, fade));
  }

  void RenderTile(const Tile& tile, std::vector<uint8_t>* rgba) const {
    const int width = tile.ext_col_end - tile.ext_col_begin, height = tile.ext_row_end - tile.ext_row_begin;
    const size_t cells = static_cast<size_t>(width) * height;
    const int num_views = static_cast<int>(tile.views.size());
    std::vector<Eigen::Vector3d> points(cells);
    std::vector<char> known(cells, 0);
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const int col = tile.ext_col_begin + x, row = tile.ext_row_begin + y;
        if (!dsm_.Known(col, row)) continue;
        known[y * width + x] = 1;
        points[y * width + x] = enu_.CellEnu(col, row, dsm_.At(col, row));
      }
    }
    // Scores of every view, then the winner of each cell (the first best).
    std::vector<float> scores(cells * num_views, 0.0f);
    std::vector<int> winner(cells, -1);
    std::vector<float> best(cells, 0.0f);
    Eigen::Vector2d pixel;
    for (int k = 0; k < num_views; ++k) {
      for (size_t i = 0; i < cells; ++i) {
        if (!known[i]) continue;
        const float score = Score(tile.views[k], points[i], &pixel);
        scores[k * cells + i] = score;
        if (score > best[i]) {
          best[i] = score;
          winner[i] = k;
        }
      }
    }
    // Two-band blend: the colour of the winner, plus the local mean difference between each
    // nearby winner's view and it (over where both see), weighted by how near that view's
    // winning area is. Exposure steps fade over the blur's reach; detail never mixes.
    std::vector<int> winners;
    for (int k = 0; k < num_views; ++k) {
      if (std::find(winner.begin(), winner.end(), k) != winner.end()) winners.push_back(k);
    }
    const int num_winners = static_cast<int>(winners.size());
    std::vector<std::vector<float>> colours(num_winners), nearness(num_winners);
    std::vector<float> scratch;
    for (int w = 0; w < num_winners; ++w) {
      const int k = winners[w];
      const LoadedView& loaded = *loaded_[tile.views[k]];
      const ViewGeometry& geometry = views_.geometry[tile.views[k]];
      colours[w].assign(3 * cells, 0.0f);
      nearness[w].assign(cells, 0.0f);
      for (size_t i = 0; i < cells; ++i) {
        nearness[w][i] = winner[i] == k ? 1.0f : 0.0f;
        if (!(scores[k * cells + i] > 0)) continue;
        const Eigen::Vector3f colour =
            SampleColour(loaded.colour, loaded.colour_camera.Project(geometry.CamFromWorld(points[i])));
        for (int c = 0; c < 3; ++c) colours[w][c * cells + i] = colour[c];
      }
      BlurPlane(width, height, blur_radius_, &nearness[w], &scratch);
    }
    std::vector<int> slot(num_views, -1);  // winners' index of view k
    for (int w = 0; w < num_winners; ++w) slot[winners[w]] = w;
    std::vector<float> correction(3 * cells, 0.0f), total(cells, 0.0f);
    for (size_t i = 0; i < cells; ++i) {
      if (winner[i] >= 0) total[i] = nearness[slot[winner[i]]][i];
    }
    std::vector<float> difference(3 * cells), support(cells), plane(cells);
    for (int a = 0; a < num_winners; ++a) {
      for (int b = a + 1; b < num_winners; ++b) {
        // Only neighbours: some cell of one lies within the blur's reach of the other.
        bool adjacent = false;
        for (size_t i = 0; i < cells && !adjacent; ++i) {
          adjacent = (winner[i] == winners[a] && nearness[b][i] > 0) || (winner[i] == winners[b] && nearness[a][i] > 0);
        }
        if (!adjacent) continue;
        const size_t ka = winners[a] * cells, kb = winners[b] * cells;
        for (size_t i = 0; i < cells; ++i) {
          const bool both = scores[ka + i] > 0 && scores[kb + i] > 0;
          support[i] = both ? 1.0f : 0.0f;
          for (int c = 0; c < 3; ++c) difference[c * cells + i] = both ? colours[a][c * cells + i] - colours[b][c * cells + i] : 0.0f;
        }
        BlurPlane(width, height, blur_radius_, &support, &scratch);
        for (int c = 0; c < 3; ++c) {
          std::copy(difference.begin() + c * cells, difference.begin() + (c + 1) * cells, plane.begin());
          BlurPlane(width, height, blur_radius_, &plane, &scratch);
          std::copy(plane.begin(), plane.end(), difference.begin() + c * cells);
        }
        // Mean of a minus mean of b where both see: added to b's cells near a, subtracted
        // from a's cells near b.
        for (size_t i = 0; i < cells; ++i) {
          if (!(support[i] > 1e-4f) || winner[i] < 0) continue;
          const int w = slot[winner[i]];
          if (w != a && w != b) continue;
          const float near = w == a ? nearness[b][i] : nearness[a][i];
          const float sign = w == a ? -1.0f : 1.0f;
          for (int c = 0; c < 3; ++c) correction[c * cells + i] += sign * near * difference[c * cells + i] / support[i];
          total[i] += near;
        }
      }
    }
    for (int row = tile.row_begin; row < tile.row_end; ++row) {
      for (int col = tile.col_begin; col < tile.col_end; ++col) {
        const size_t i = static_cast<size_t>(row - tile.ext_row_begin) * width + (col - tile.ext_col_begin);
        if (winner[i] < 0) continue;
        const int w = slot[winner[i]];
        uint8_t* out = &(*rgba)[4 * grid_.Index(col, row)];
        for (int c = 0; c < 3; ++c) {
          const float value = colours[w][c * cells + i] + (total[i] > 0 ? correction[c * cells + i] / total[i] : 0.0f);
          out[c] = static_cast<uint8_t>(std::clamp(value + 0.5f, 0.0f, 255.0f));
        }
        out[3] = 255;
      }
    }
  }

  const SurfaceModel& dsm_;
  const OrthophotoViews& views_;
  const OrthophotoOptions& options_;
  const GroundGrid& grid_;
  const int blur_radius_;
  const int margin_;  // cells a tile reads beyond those it writes: the blur's reach
  const double reference_height_m_;
  const GridEnuField enu_;
  std::vector<Tile> tiles_;
  std::vector<std::unique_ptr<LoadedView>> loaded_;  // by view, while a band needs it
};

}  // namespace

void OrthophotoOptions::Check() const {
  PROJ_REQUIRE(nadir_exponent >= 0 && nadir_exponent <= 16, "OrthophotoOptions.nadir_exponent must be in [0, 16]");
  PROJ_REQUIRE(border_fade > 0 && border_fade < 0.5, "OrthophotoOptions.border_fade must be in (0, 0.5)");
  PROJ_REQUIRE(visibility_tolerance > 0 && visibility_tolerance < 1,
               "OrthophotoOptions.visibility_tolerance must be in (0, 1)");
  PROJ_REQUIRE(depth_buffer_cells > 0 && depth_buffer_cells <= 16,
               "OrthophotoOptions.depth_buffer_cells must be in (0, 16]");
  PROJ_REQUIRE(seam_blend_cells >= 3 && seam_blend_cells <= 256,
               "OrthophotoOptions.seam_blend_cells must be in [3, 256]");
  PROJ_REQUIRE(tile_cells >= 16 && tile_cells <= 4096, "OrthophotoOptions.tile_cells must be in [16, 4096]");
}

size_t Orthophoto::NumColoured() const {
  size_t count = 0;
  for (size_t i = 3; i < rgba.size(); i += 4) count += rgba[i] != 0;
  return count;
}

OrthophotoViews OrthophotoViewsOf(const Scene& pinhole_scene, const std::string& images_dir) {
  OrthophotoViews views;
  std::vector<std::string> names;
  for (size_t id = 0; id < pinhole_scene.images.size(); ++id) {
    if (!pinhole_scene.images[id].registered) continue;
    views.geometry.push_back(PinholeViewGeometry(pinhole_scene, static_cast<int>(id)));
    names.push_back(pinhole_scene.images[id].name);
  }
  const std::vector<ViewGeometry> geometry = views.geometry;
  views.load = [names, geometry, images_dir](int view) {
    const std::string path = (std::filesystem::path(images_dir) / names.at(view)).string();
    return LoadDenseView(path, names[view], geometry.at(view), /*with_colour=*/true).colour;
  };
  return views;
}

Orthophoto RenderOrthophoto(const SurfaceModel& dsm, const OrthophotoViews& views, const EnuFromMap& enu_from_map,
                            const OrthophotoOptions& options) {
  options.Check();
  PROJ_REQUIRE(dsm.grid.width > 0 && dsm.grid.height > 0 && dsm.grid.cell_m > 0,
               "orthophoto: the surface model's grid is empty");
  PROJ_REQUIRE(dsm.height_m.size() == dsm.grid.NumCells(),
               "orthophoto: the surface model holds " << dsm.height_m.size() << " heights for "
                                                      << dsm.grid.NumCells() << " cells");
  PROJ_REQUIRE(!views.geometry.empty() && views.load, "orthophoto: no views to colour it from");
  Timer timer;
  Orthophoto orthophoto = OrthophotoRenderer(dsm, views, enu_from_map, options).Render();
  const double seconds = timer.ElapsedSeconds();
  PROJ_LOG(kInfo, "orthophoto: " << dsm.grid.width << "x" << dsm.grid.height << " cells of " << dsm.grid.cell_m
                                 << " m from " << views.geometry.size() << " views, "
                                 << orthophoto.NumColoured() << " coloured, " << seconds << " s ("
                                 << seconds / (dsm.grid.NumCells() * 1e-6) << " s per million cells)");
  return orthophoto;
}

}  // namespace proj::mvs
