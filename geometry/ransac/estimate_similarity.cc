// Estimator adapter (STYLE P6) for EstimateSimilarityTransform.
#include "geometry/ransac/estimate_similarity.h"

#include <array>

#include "core/check.h"
#include "geometry/ransac/ransac.h"
#include "geometry/solvers/similarity.h"

namespace proj {
namespace {

struct PointCorrespondence {
  Eigen::Vector3d src;
  Eigen::Vector3d dst;
};

struct SimilarityEstimator {
  using Datum = PointCorrespondence;
  using Model = Sim3d;
  static constexpr int kSampleSize = 3;
  static constexpr double kFitCostInErrorEvaluations = 300.0;  // 3x3 SVD vs one distance

  bool estimate_scale = true;
  mutable std::vector<Eigen::Vector3d> scratch_src, scratch_dst;

  void Fit(const std::array<Datum, kSampleSize>& sample, std::vector<Model>* models) const {
    scratch_src.clear();
    scratch_dst.clear();
    for (const Datum& datum : sample) {
      scratch_src.push_back(datum.src);
      scratch_dst.push_back(datum.dst);
    }
    Sim3d model;
    if (EstimateSimilarityUmeyama(scratch_src, scratch_dst, &model, estimate_scale)) {
      models->push_back(model);
    }
  }
  double SquaredError(const Datum& datum, const Model& dst_from_src) const {
    return (dst_from_src * datum.src - datum.dst).squaredNorm();
  }
  bool Refit(const std::vector<Datum>& inliers, const Model& /*initial*/, Model* refined) const {
    scratch_src.clear();
    scratch_dst.clear();
    for (const Datum& datum : inliers) {
      scratch_src.push_back(datum.src);
      scratch_dst.push_back(datum.dst);
    }
    return EstimateSimilarityUmeyama(scratch_src, scratch_dst, refined, estimate_scale);
  }
};

}  // namespace

RansacReport<Sim3d> EstimateSimilarityTransform(const RansacOptions& options,
                                                const std::vector<Eigen::Vector3d>& src,
                                                const std::vector<Eigen::Vector3d>& dst,
                                                bool estimate_scale) {
  PROJ_REQUIRE(src.size() == dst.size(),
               "EstimateSimilarityTransform: " << src.size() << " source points but " << dst.size()
                                               << " destination points");
  std::vector<PointCorrespondence> data(src.size());
  for (size_t i = 0; i < src.size(); ++i) data[i] = {src[i], dst[i]};
  SimilarityEstimator estimator;
  estimator.estimate_scale = estimate_scale;
  return Ransac(options, estimator, data);
}

}  // namespace proj
