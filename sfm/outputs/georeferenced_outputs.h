// Outputs of a georeferenced model (one aligned to its images' GPS priors; the scene is then in
// the local ENU frame ReconstructionResult::enu_frame):
//   georeference.json  the ENU origin (WGS84), the vertical datums (of the frame, the fixes
//                      and the outputs), the LAS file's CRS, the last alignment (scale,
//                      inliers) and the GPS residual of every image with a fix (RMS, max
//                      and median over the inliers; median, RMS and max over all fixes)
//   points.las         the points in WGS 84 / UTM, the zone of the ENU origin, coloured
//                      (io/las_file.h; CloudCompare, QGIS, PDAL), heights in the fixes' datum
//                      (EPSG:5773, EGM96 height, for "above sea level" fixes)
//   cameras.csv        per image: estimated centre and GPS fix, each in ENU and WGS84
//                      (altitudes in the fixes' datum too)
// The heights users compare with are those their photos state: a DJI photo's "above sea
// level" altitude comes back above sea level, not 30 m off by the geoid height.
// report.json embeds georeference.json's object as "georeference", or says why there is none.
// Later commands (sfm dense) read the frame back from georeference.json and write their own
// points.las in the same CRS.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "geometry/geodesy/local_enu_frame.h"
#include "io/image.h"
#include "sfm/stages/reconstruction_result.h"

namespace proj {

// The model was built and aligned to GPS priors.
bool IsGeoreferenced(const ReconstructionResult& result);

// One of result.components (model_components.h) was aligned to its images' GPS, in the frame
// enu_frame: not when ground control points replaced that frame with theirs.
bool IsComponentGeoreferenced(const ReconstructionResult& result, const ComponentModel& component);

// The files above (names in OUT_DIR), written only when IsGeoreferenced.
const std::vector<std::string>& GeoreferencedOutputNames();

// georeference.json's object; {"georeferenced": false, "reason": ...} when not georeferenced.
// `indent` prefixes every line but the first.
void WriteGeoreferenceObject(const ReconstructionResult& result, const std::string& indent,
                             std::ostream& out);

// Each writes one file atomically; InputError naming the file when it cannot. Precondition:
// IsGeoreferenced(result).
void WriteGeoreferenceJson(const ReconstructionResult& result, const std::string& path);
void WriteGeoreferencedLas(const ReconstructionResult& result, const std::string& path);
void WriteCamerasCsv(const ReconstructionResult& result, const std::string& path);

// Any points of a model in the ENU frame `frame` as points.las is written (CRS, heights), e.g.
// a dense cloud; `system_identifier` goes into the LAS header ("sfm dense cloud"). Atomic;
// InputError naming the file when it cannot be written or the counts differ.
void WriteGeoreferencedPointsLas(const EnuFrame& frame, const std::vector<Eigen::Vector3d>& positions_enu,
                                 const std::vector<Eigen::Matrix<uint8_t, 3, 1>>& colors,
                                 const std::string& system_identifier, const std::string& path);
void WriteGeoreferencedPointsLas(const EnuFrame& frame, const std::vector<Eigen::Vector3f>& positions_enu,
                                 const std::vector<Rgb8>& colors, const std::string& system_identifier,
                                 const std::string& path);

// The frame back from a georeference.json that WriteGeoreferenceJson wrote (the origin to 12
// significant digits, about 10 micrometres, and the datums of the frame and of the outputs), so
// that a later command (sfm dense) writes its points in the same CRS and heights as the model's
// points.las. std::nullopt when the file says the model is not georeferenced. InputError naming
// the file when it is missing or not of that form.
std::optional<EnuFrame> ReadEnuFrameFromGeoreferenceJson(const std::string& path);

}  // namespace proj
