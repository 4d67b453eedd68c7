#include "core/logging.h"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "tests/support/cerr_capture.h"

namespace proj {
namespace {

using testing::CerrCapture;

TEST(Logging, MessagesClearTheStatusLineAndRedrawItBelow) {
  CerrCapture capture;
  DrawStatusLine("bar 1/3");
  LogMessage(LogLevel::kWarning, "a file was skipped");
  DrawStatusLine("bar 2/3");
  FinishStatusLine("bar 3/3");
  LogMessage(LogLevel::kInfo, "next stage");
  EXPECT_EQ(capture.text(),
            "\r\033[Kbar 1/3"                           // drawn
            "\r\033[Kwarning: a file was skipped\nbar 1/3"  // cleared, message, redrawn below
            "\r\033[Kbar 2/3"                           // redrawn in place
            "\r\033[Kbar 3/3\n"                         // finished with a newline
            "next stage\n");                            // nothing left to clear or redraw
}

}  // namespace
}  // namespace proj
