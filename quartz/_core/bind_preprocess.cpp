// pybind11 bindings of the preprocessing passes (quartz._core.preprocess).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "preprocess.h"

namespace py = pybind11;
using namespace quartz;
using namespace quartz::preprocess;

namespace {

DiagStyle style_of(const std::string& s) {
  if (s == "rz") return DiagStyle::RZ;
  if (s == "p") return DiagStyle::P;
  if (s == "u1") return DiagStyle::U1;
  if (s == "t") return DiagStyle::T;
  if (s == "t_noz") return DiagStyle::TNZ;
  throw py::value_error("unknown rotation style '" + s + "' (rz, p, u1, t, t_noz)");
}

// Run pass(&count) without the GIL; (circuit, count).
template <class F>
py::tuple counted(F&& pass) {
  int count = 0;
  Circuit out;
  {
    py::gil_scoped_release release;
    out = pass(&count);
  }
  return py::make_tuple(out, count);
}

}  // namespace

void bind_preprocess(py::module_& m) {
  py::module_ pm = m.def_submodule("preprocess", "Exact preprocessing passes run before search.");
  pm.def("rotation_merge", [](const Circuit& c, const std::string& style, bool last) {
    MergeStats st;
    Circuit out;
    {
      py::gil_scoped_release release;
      out = rotation_merge(c, style_of(style), last, &st);
    }
    return py::make_tuple(out, st.terms, st.merged);
  }, py::arg("circuit"), py::arg("style") = "rz", py::arg("placement_last") = false,
     "(circuit, distinct parity terms, rotations merged away).");
  pm.def("cancel_inverses", [](const Circuit& c, int window) {
    py::gil_scoped_release release;
    return cancel_inverses(c, window);
  }, py::arg("circuit"), py::arg("window") = 64);
  pm.def("resynthesize_blocks", [](const Circuit& c, const std::string& style, int max_qubits) {
    if (max_qubits < 2 || max_qubits > 4) throw py::value_error("max_qubits must be 2, 3 or 4");
    const DiagStyle st = style_of(style);
    return counted([&](int* n) { return resynthesize_blocks(c, st, n, max_qubits); });
  }, py::arg("circuit"), py::arg("style") = "rz", py::arg("max_qubits") = 3,
     "(circuit, blocks replaced).");
  pm.def("reverse_hadamard_networks", [](const Circuit& c) {
    return counted([&](int* n) { return reverse_hadamard_networks(c, n); });
  }, py::arg("circuit"),
     "(circuit, gates removed): H-conjugated cx networks written with the cx gates reversed.");
  pm.def("resynthesize_1q_runs", [](const Circuit& c, bool exact_only) {
    return counted([&](int* n) { return resynthesize_1q_runs(c, n, exact_only); });
  }, py::arg("circuit"), py::arg("exact_only") = false,
     "(circuit, runs replaced): every run of one-qubit h/x/rz gates in its shortest "
     "{h, x, rz} form; inexact (float angles). exact_only: only runs with rx whose angles "
     "are exact multiples of pi/4 before and after, rx at multiples of pi/2 after (an exact move).");
  pm.def("decompose_ccz_greedy", [](const Circuit& c, const std::string& style, int refine, bool resynth) {
    CczStats st;
    Circuit out;
    {
      py::gil_scoped_release release;
      out = decompose_ccz_greedy(c, style_of(style), refine, resynth, &st);
    }
    py::dict d;
    d["num_ccz"] = st.num_ccz;
    d["negative"] = st.negative;
    d["refined_flips"] = st.refined_flips;
    d["rotation_cost"] = st.rotation_cost;
    d["cx"] = st.cx;
    return py::make_tuple(out, d);
  }, py::arg("circuit"), py::arg("style") = "rz", py::arg("refine_passes") = 0,
     py::arg("resynthesize") = false,
     "(circuit, stats dict): every ccz/ccx replaced by 6 cx + 7 rotations, polarity greedy.");
}
