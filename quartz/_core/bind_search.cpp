// pybind11 bindings of the search core (filled in by the search subsystem).
#include <pybind11/pybind11.h>

namespace py = pybind11;

void bind_search(py::module_& m) { (void)m; }
