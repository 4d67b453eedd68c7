// The self-check of a built model against the evidence it has: a model that disagrees with
// its GPS fixes is wrong, whatever its reprojection error (a folded or rolled model keeps a few
// fixes as "inliers" and drops the rest as outliers); so is one that contradicts its strongest
// image pairs (sfm/scene/pair_agreement.h), with or without GPS. The verdict goes into report.json
// ("quality") and the report page, and a model that is not "good" makes the program exit
// with kExitSuspectModel (sfm/app/commands.h) unless the user accepts it.
#pragma once

#include <string>
#include <vector>

#include "sfm/mapper/gps_dome.h"
#include "sfm/mapper/incremental_mapper.h"
#include "sfm/scene/pair_agreement.h"
#include "sfm/scene/scene.h"
#include "sfm/scene/view_graph.h"

namespace proj {

struct ModelQualityOptions {
  // The median distance of the registered cameras from their GPS fixes, over all fixes, must
  // be at most gps_max_median_factor x the fixes' expected error: their standard deviation
  // (the RMS over the fixes of |sigma| / sqrt(3), as the priors state it: from the files or
  // --gps-sigma-m), at least gps_min_expected_error_m. A right model of 3 m fixes lies ~5 m
  // from them (3D, vertical noise twice the horizontal); a user's wrong one, 17-29 m.
  double gps_max_median_factor = 5;  // > 0
  double gps_min_expected_error_m = 1;  // > 0: a model is not wrong at 5 m of RTK fixes
  // More of the registered fixes than this rejected as outliers makes the model suspect.
  double gps_max_outlier_share = 0.3;  // in [0, 1]
  int num_worst_images = 5;  // named in the reasons, farthest from their fixes first
  // A block bent against its fixes (gps_dome.h) by more than this many standard errors of the
  // bend and by more than the fixes' expected error at its edge is suspect. Both: the fixes'
  // errors are not independent on a real flight (an altitude drift), and a bend within one
  // fix's error is not worth a warning.
  double dome_max_significance = 4;  // > 0
  PairAgreementOptions pairs;
  void Check() const;  // throws InputError naming the field
};

enum class QualityVerdict {
  kGood,     // consistent with its evidence
  kSuspect,  // partly inconsistent (many fixes rejected)
  kFailed,   // inconsistent: most fixes disagree, or the georeference is degenerate
};
const char* QualityVerdictName(QualityVerdict verdict);  // "good", "suspect", "failed"

// How a model compares with its GPS fixes (the georeference's residuals over all of them).
struct GpsAgreement {
  bool checked = false;  // the model has registered images with fixes and an alignment was tried
  int num_fixes = 0;     // registered images with a fix
  int num_outliers = 0;  // of them, rejected by the alignment
  double median_m = 0;   // |camera centre - fix| over all fixes
  double expected_error_m = 0;
  double limit_m = 0;    // gps_max_median_factor x expected_error_m
  bool aligned = false;
  std::string refusal;   // a refused alignment: why (prior_alignment.h)
  bool Consistent() const { return !checked || (aligned && median_m <= limit_m); }
};

// From the model's last alignment (summary.georeference, which holds its residuals even when
// refused) and the scene's priors; not checked without one.
GpsAgreement MeasureGpsAgreement(const ModelQualityOptions& options, const Scene& scene,
                                 const MapperSummary& summary);

struct ModelQuality {
  QualityVerdict verdict = QualityVerdict::kGood;
  std::vector<std::string> reasons;  // one sentence per failed check; empty when good
  GpsAgreement gps;
  PairAgreement pairs;
  std::vector<std::string> worst_images;  // "name (D m)", farthest from their fixes first
  GpsDome dome;                            // of the final model against its inlier fixes
  DomeCorrection dome_correction;          // what the mapper did about it (summary.dome)
  int num_images = 0;
  int num_registered = 0;
  double mean_reprojection_error_px = 0;
};

// The reasons of a verdict in one line, "; " between them.
std::string JoinReasons(const std::vector<std::string>& reasons);

// The verdict on a built model (summary.success) from the verified `pairs` of its view graph
// and its GPS fixes (without GPS those checks pass).
ModelQuality AssessModelQuality(const ModelQualityOptions& options, const Scene& scene,
                                const MapperSummary& summary, const std::vector<VerifiedPair>& pairs);

}  // namespace proj
