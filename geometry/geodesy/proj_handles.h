// Owning handles of PROJ's C objects, for the .cc files of geometry/geodesy only (PROJ is a
// private dependency of proj_geometry: this header includes <proj.h>). Declare a context
// before the objects made in it: members are destroyed in reverse order.
#pragma once

#include <proj.h>

#include <memory>

namespace proj::internal {

struct ProjContextDeleter {
  void operator()(PJ_CONTEXT* context) const { proj_context_destroy(context); }
};
struct ProjObjectDeleter {
  void operator()(PJ* object) const { proj_destroy(object); }
};
using ProjContextPtr = std::unique_ptr<PJ_CONTEXT, ProjContextDeleter>;
using ProjObjectPtr = std::unique_ptr<PJ, ProjObjectDeleter>;

}  // namespace proj::internal
