// Writes the bad-input corpus (bad_inputs.h) to a folder: OUT/CASE/images/... and
// OUT/CASE/expect.txt (exit code, phrases, extra arguments), to run `sfm` on by hand or to
// seed fuzzers. Usage: make_bad_inputs OUT_DIR
#include <filesystem>
#include <fstream>
#include <iostream>

#include "tests/reliability/bad_inputs.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_bad_inputs OUT_DIR\n";
    return 2;
  }
  for (const proj::testing::BadInputCase& c : proj::testing::BadInputCases()) {
    const std::string dir = std::string(argv[1]) + "/" + c.name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    c.make(dir);
    std::ofstream expect(dir + "/expect.txt");
    expect << "exit_code " << c.exit_code << "\nextra_args " << c.extra_args << "\n";
    for (const std::string& phrase : c.phrases) expect << "phrase " << phrase << "\n";
  }
  std::cout << proj::testing::BadInputCases().size() << " cases written to " << argv[1] << "\n";
  return 0;
}
