// Takes the dome out of a georeferenced block by the parameters the photos cannot fix: the
// cameras' radial distortion (gps_dome.h says why). After the final refinement, a block whose
// GPS fixes show a significant dome is flattened by the measured bend (every camera and point
// lowered or raised by it, each camera turned back by the bend's slope under it and the points
// moved back beneath the cameras), the intrinsics that explain the photos of the flattened block
// are fitted with its structure held, and the block is adjusted and refined with those held, in
// rounds until the GPS sees no dome: a bundle adjustment alone moves along the bend so slowly
// that 300 iterations did not finish (200-image flight, k1 = -0.05). The fixes' noise limits
// the result: the dome's standard error, about sigma / sqrt(fixes) / 0.2 at the block's edge.
#pragma once

#include "sfm/mapper/gps_dome.h"
#include "sfm/mapper/incremental_mapper.h"

namespace proj {

// Needs the mapper's scene georeferenced by GPS (mapper->AlignToPriors() aligned). Tries the
// correction on a copy (an intrinsics fit and one adjustment); keeps it only when the dome
// shrank, then runs the final rounds (RefineUntilStable) with the distortion held, which stays
// held.
DomeCorrection CorrectDomeFromGps(const DomeCorrectionOptions& dome_options,
                                  const IncrementalMapperOptions& options, IncrementalMapper* mapper,
                                  Scene* scene);

// Moves every registered camera and point of `scene` by -dome.HeightAt(x, y) vertically and
// turns each camera by the bend's slope at its centre: the block as it would be unbent.
void FlattenDome(const GpsDome& dome, Scene* scene);

}  // namespace proj
