// pybind11 bindings of the generator core (filled in by the generator subsystem).
#include <pybind11/pybind11.h>

namespace py = pybind11;

void bind_generator(py::module_& m) { (void)m; }
