// Tells whether scene databases hold the same results, byte for byte: the check of
// bench/multi_gpu_bench.sh that extraction and matching on 1, 2 or 4 GPUs wrote the same
// features and matches. Runs where sqlite3 is not installed (the GPU machines).
//   database_compare REFERENCE.db OTHER.db...
// Prints each table's row count and digest for the reference, then per other database
// "identical" or the tables that differ with their first differing key. Exit 0 when every
// database equals the reference, 1 when one differs, 2 on bad arguments or unreadable files.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "bench/bench_cli.h"
#include "sfm/database/database_digest.h"

int main(int argc, char** argv) {
  CLI::App app("Compares scene databases table by table (features, matches, geometries)");
  std::string reference;
  std::vector<std::string> others;
  app.add_option("REFERENCE", reference, "The database the others are compared with")->required();
  app.add_option("OTHER", others, "Databases that should equal the reference")->required();
  if (const auto code = proj::ParseBenchArguments(app, argc, argv)) return *code;
  return proj::RunBenchmark([&] {
    const std::vector<proj::TableDigest> expected = proj::DigestSceneDatabase(reference);
    std::cout << reference << ":\n";
    for (const proj::TableDigest& table : expected) {
      char hash[17];
      std::snprintf(hash, sizeof(hash), "%016llx", static_cast<unsigned long long>(table.Hash()));
      std::cout << "  " << table.table << ": " << table.rows.size() << " rows, digest " << hash << "\n";
    }
    int code = 0;
    for (const std::string& other : others) {
      const std::string differences = proj::CompareDigests(expected, proj::DigestSceneDatabase(other));
      std::cout << other << ": " << (differences.empty() ? "identical\n" : "DIFFERS\n" + differences);
      if (!differences.empty()) code = 1;
    }
    return code;
  });
}
