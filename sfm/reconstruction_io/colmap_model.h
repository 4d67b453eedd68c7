// A COLMAP model folder in either format (colmap_text.h, colmap_binary.h).
#pragma once

#include <string>

#include "sfm/scene/scene.h"

namespace proj {

// Reads the text model when DIR/cameras.txt exists (it wins when both formats are there: it
// is the one a person edits), else the binary model when DIR/cameras.bin exists. Throws
// InputError naming the folder when it holds neither, and the readers' errors otherwise.
Scene ReadColmapModel(const std::string& dir);

}  // namespace proj
