#include "sfm/app/command_failure.h"

#include <exception>

#include "core/check.h"
#include "core/interrupt.h"
#include "sfm/app/commands.h"

namespace proj::app {

CommandFailure CurrentCommandFailure() {
  try {
    throw;
  } catch (const Interrupted&) {
    return {kExitInterrupted, "interrupted; run the same command again to resume"};
  } catch (const InputError& error) {
    return {kExitBadInput, error.what()};
  } catch (const std::exception& error) {
    return {kExitNoModel, std::string("unexpected failure: ") + error.what()};
  }
}

}  // namespace proj::app
