#include "sfm/app/cli_help.h"

#include <sstream>

namespace proj::app {
namespace {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_opts(const CLI::Option* option) const override {
    std::ostringstream out;
    if (option->get_type_size() != 0) {
      if (!option->get_type_name().empty()) out << " " << option->get_type_name();
      if (option->get_expected_max() == CLI::detail::expected_max_vector_size) out << " ...";
      if (option->get_required()) out << " " << get_label("REQUIRED");
    }
    return out.str();
  }
  std::string make_option_desc(const CLI::Option* option) const override {
    const std::string& default_value = option->get_default_str();
    if (default_value.empty()) return option->get_description();
    return option->get_description() + " [" + default_value + "]";
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> MakeHelpFormatter() {
  auto formatter = std::make_shared<HelpFormatter>();
  formatter->column_width(34);
  return formatter;
}

void AddLogLevelFlags(CLI::App& app, bool* quiet, bool* verbose) {
  app.add_flag("-q,--quiet", *quiet, "Only warnings and errors on stderr (no progress)");
  app.add_flag("-v,--verbose", *verbose,
               "Also debug messages: each image's registration, every stage's time as it ends, "
               "the mapper's steps");
}

}  // namespace proj::app
