// Binding-side types shared by more than one bindings file (the search's and the RL's).
#pragma once
#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <string>

#include "matcher.h"
#include "search.h"

namespace quartz {

// quartz._core.Matcher: compiled transformations, shared with searches that outlive a call.
struct PyMatcher {
  std::shared_ptr<XferIndex> ix = std::make_shared<XferIndex>();
};

// quartz._core.CostSpec: a cost spec plus the Python callable it may call (kept alive here;
// called with the GIL).
struct PyCost {
  CostSpec spec;
  pybind11::object fn;
  std::shared_ptr<std::string> error = std::make_shared<std::string>();
  std::shared_ptr<std::atomic<bool>> stop_on_error = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace quartz
