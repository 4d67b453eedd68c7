// Runs a long C++ call with the GIL released and Ctrl-C honoured. Python handles SIGINT on
// its main thread only, and only when that thread runs Python, so the call runs on a worker
// thread while the calling thread waits and lets Python check its signals every 50 ms. A
// KeyboardInterrupt (or whatever a Python SIGINT handler raises) requests the interrupt of
// core/interrupt.h: the run stops at its next checkpoint, as the sfm program does on Ctrl-C,
// and the Python exception is raised once the worker has finished. Further Ctrl-Cs while the
// run finishes its unit of work are absorbed (a thread cannot be stopped from outside).
#pragma once

#include <exception>
#include <functional>

#include <pybind11/pybind11.h>

namespace proj::python {

struct BackgroundCall {
  std::exception_ptr failure;             // what `call` threw, if anything
  pybind11::object signal_error;          // the exception Python's signal check raised
};

// Call with the GIL held; returns with it held.
BackgroundCall RunInBackground(const std::function<void()>& call);

}  // namespace proj::python
