#include "core/interrupt.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace proj {
namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

void Write(const char* text, size_t length) {
  const ssize_t ignored = write(STDERR_FILENO, text, length);
  (void)ignored;
}

void OnSigint(int) {
  if (g_interrupted.exchange(true)) {
    static const char kNow[] = "\ninterrupted again: stopping now\n";
    Write(kNow, sizeof(kNow) - 1);
    _exit(130);
  }
  static const char kFirst[] =
      "\ninterrupt: finishing the current step (Ctrl-C again to stop at once)\n";
  Write(kFirst, sizeof(kFirst) - 1);
}

}  // namespace

void InstallInterruptHandler() {
  struct sigaction action {};
  action.sa_handler = OnSigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
}

bool InterruptRequested() { return g_interrupted.load(std::memory_order_relaxed); }

void ThrowIfInterrupted() {
  if (InterruptRequested()) throw Interrupted();
}

void RequestInterrupt() { g_interrupted.store(true); }
void ClearInterrupt() { g_interrupted.store(false); }

}  // namespace proj
