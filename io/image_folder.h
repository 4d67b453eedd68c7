// Listing the images of a folder (non-recursive).
#pragma once

#include <string>
#include <vector>

namespace proj {

// Full paths of the regular files (or links to them) in `folder` whose extension is .jpg,
// .jpeg or .png in any case, sorted by file name (byte order). Broken links of those names
// (a loop, a missing target) are listed too, so that reading them reports why. Hidden files (names starting
// with '.') and all other files (e.g. K.txt) are ignored silently; sub-folders are not
// searched. Throws InputError if `folder` is missing, not a folder or unreadable. An empty
// result is not an error here (callers decide).
std::vector<std::string> ListImageFiles(const std::string& folder);

// True if the name ends in .jpg, .jpeg or .png (any case).
bool HasImageExtension(const std::string& file_name);

// The same for videos (io/video_reader.h): .mp4, .m4v, .mov, .mkv, .webm, .avi, .mts, .m2ts,
// .mpg, .mpeg, .wmv, .flv, .3gp, .ts in any case.
std::vector<std::string> ListVideoFiles(const std::string& folder);
bool HasVideoExtension(const std::string& file_name);

}  // namespace proj
