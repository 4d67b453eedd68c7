#include "core/interrupt.h"

#include <signal.h>

#include <gtest/gtest.h>

namespace proj {
namespace {

TEST(Interrupt, RequestedInterruptThrowsAtTheNextCheck) {
  ClearInterrupt();
  EXPECT_FALSE(InterruptRequested());
  EXPECT_NO_THROW(ThrowIfInterrupted());
  RequestInterrupt();
  EXPECT_TRUE(InterruptRequested());
  EXPECT_THROW(ThrowIfInterrupted(), Interrupted);
  ClearInterrupt();
  EXPECT_NO_THROW(ThrowIfInterrupted());
}

TEST(Interrupt, FirstSigintOnlyRequestsTheStop) {
  ClearInterrupt();
  InstallInterruptHandler();
  raise(SIGINT);
  EXPECT_TRUE(InterruptRequested());
  ClearInterrupt();
  signal(SIGINT, SIG_DFL);
}

TEST(InterruptDeathTest, SecondSigintExitsAtOnceWith130) {
  EXPECT_EXIT(
      {
        ClearInterrupt();
        InstallInterruptHandler();
        raise(SIGINT);
        raise(SIGINT);
      },
      ::testing::ExitedWithCode(130), "stopping now");
}

}  // namespace
}  // namespace proj
