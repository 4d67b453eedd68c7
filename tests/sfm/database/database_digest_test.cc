// Database digests: equal databases compare equal, one changed byte, a missing row or a
// different row count is named with its table and key.
#include "sfm/database/database_digest.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/check.h"
#include "tests/sfm/database/database_test_util.h"

namespace proj {
namespace {

using ::testing::HasSubstr;

// Three images with features and the matches of two pairs; `change` alters one byte of
// image 2's descriptors, `drop_pair` leaves the pair (1, 3) out.
std::string WriteDatabase(const std::string& name, bool change, bool drop_pair) {
  const std::string path = testing::TempDatabasePath(name);
  SceneDatabase database(path, SceneDatabase::Mode::kReadWrite);
  testing::AddImages(&database, 3);
  for (int image = 1; image <= 3; ++image) {
    database.WriteKeypoints(image, testing::MakeKeypoints(40, image));
    std::vector<uint8_t> descriptors = testing::MakeDescriptors(40, image);
    if (change && image == 2) descriptors[77] ^= 1;
    database.WriteDescriptors(image, descriptors);
  }
  database.WriteMatches(1, 2, testing::MakeMatches(20, 1));
  if (!drop_pair) database.WriteMatches(1, 3, testing::MakeMatches(20, 2));
  return path;
}

TEST(DatabaseDigest, EqualDatabasesCompareEqual) {
  const auto a = DigestSceneDatabase(WriteDatabase("digest_a", false, false));
  const auto b = DigestSceneDatabase(WriteDatabase("digest_b", false, false));
  EXPECT_EQ(CompareDigests(a, b), "");
  ASSERT_EQ(a.size(), 7u);
  EXPECT_EQ(a[2].table, "keypoints");
  EXPECT_EQ(a[2].rows.size(), 3u);
  EXPECT_EQ(a[4].table, "matches");
  EXPECT_EQ(a[4].rows.size(), 2u);
  EXPECT_EQ(a[3].Hash(), b[3].Hash());
}

TEST(DatabaseDigest, DifferencesAreNamedByTableAndKey) {
  const auto reference = DigestSceneDatabase(WriteDatabase("digest_reference", false, false));
  const std::string changed = CompareDigests(reference, DigestSceneDatabase(WriteDatabase("digest_changed", true, false)));
  EXPECT_EQ(changed, "descriptors: 3 vs 3 rows, first difference at image_id 2\n");
  const std::string dropped = CompareDigests(reference, DigestSceneDatabase(WriteDatabase("digest_dropped", false, true)));
  EXPECT_EQ(dropped, "matches: 2 vs 1 rows, pair_id " + std::to_string(PairIdFromImageIds(1, 3)) +
                         " only on one side\n");
}

TEST(DatabaseDigest, AFileThatIsNotADatabaseIsNamed) {
  EXPECT_THAT([] { DigestSceneDatabase("/nonexistent/folder/db.db"); },
              ::testing::ThrowsMessage<InputError>(HasSubstr("scene database '/nonexistent/folder/db.db'")));
}

}  // namespace
}  // namespace proj
