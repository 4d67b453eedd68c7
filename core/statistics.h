// Small order statistics shared across the libraries.
#pragma once

#include <algorithm>
#include <vector>

namespace proj {

// The upper median: the element at index size/2 of the sorted values (the middle one for an
// odd count, the higher of the two middle ones for an even count); 0 for no values. O(n).
inline double UpperMedian(std::vector<double> values) {
  if (values.empty()) return 0;
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  return values[middle];
}

}  // namespace proj
