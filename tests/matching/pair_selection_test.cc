#include "matching/pair_selection.h"

#include <gtest/gtest.h>

#include "core/check.h"

namespace proj {
namespace {

TEST(PairSelection, ExhaustiveListsAllPairsOnce) {
  const auto pairs = SelectImagePairs({PairSelection::kExhaustive, 10}, 11);
  EXPECT_EQ(pairs.size(), 55u);
  for (const auto& p : pairs) EXPECT_LT(p.image1, p.image2);
}

TEST(PairSelection, SequentialPairsEachImageWithTheNextK) {
  const auto pairs = SelectImagePairs({PairSelection::kSequential, 2}, 5);
  // (0,1) (0,2) (1,2) (1,3) (2,3) (2,4) (3,4)
  ASSERT_EQ(pairs.size(), 7u);
  EXPECT_EQ(pairs[1].image1, 0);
  EXPECT_EQ(pairs[1].image2, 2);
  EXPECT_EQ(pairs.back().image1, 3);
  EXPECT_EQ(pairs.back().image2, 4);
}

TEST(PairSelection, RejectsZeroOverlap) {
  EXPECT_THROW(SelectImagePairs({PairSelection::kSequential, 0}, 5), InputError);
}

}  // namespace
}  // namespace proj
