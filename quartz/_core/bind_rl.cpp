// pybind11 bindings for the RL subsystem: numeric gate features as one array (no Python loop).
#include <cmath>
#include <limits>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "circuit.h"

namespace py = pybind11;
using namespace quartz;

void bind_rl(py::module_& m) {
  auto rl = m.def_submodule("rl", "Array views of circuits for the learned optimizer.");
  rl.def("param_array", [](const Circuit& c) {
    const int n = c.num_gates();
    py::array_t<double> out({n, kMaxGateParams});
    auto a = out.mutable_unchecked<2>();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int i = 0; i < n; i++) {
      const Gate& g = c.gates()[i];
      for (int k = 0; k < kMaxGateParams; k++)
        a(i, k) = k < g.num_params ? c.param(i, k).const_radians() : nan;
    }
    return out;
  }, py::arg("circuit"),
     "params[n,3] float64: constant part (radians) of each gate angle; NaN for unused slots.");
}
