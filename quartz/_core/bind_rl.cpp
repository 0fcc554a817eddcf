// pybind11 bindings for the RL subsystem: numeric gate features as one array (no Python loop),
// and the incremental rewriting environment (rewrite_env.h) with its arrays for the GNN.
#include <cmath>
#include <limits>
#include <memory>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bind_common.h"
#include "circuit.h"
#include "rewrite_env.h"

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

  py::class_<RewriteEnvCore>(rl, "RewriteEnv",
      "A circuit as the search's working DAG with every gate's applicable transformations, "
      "kept up to date around each rewrite. Gates are addressed by position in "
      "[0, num_gates); positions are valid until the next step.")
      .def(py::init([](const PyMatcher& pm, const Circuit& c, const PyCost& cost) {
             if (!cost.spec.additive())
               throw py::value_error("the rewriting environment needs an additive cost (gate "
                                     "weights and a T weight; not depth or a callable)");
             GateCost gc;
             for (int t = 0; t < kNumGateTypes; t++) gc.weight[t] = cost.spec.weight[t];
             gc.t_weight = cost.spec.t_weight;
             return std::make_unique<RewriteEnvCore>(pm.ix, c, gc);
           }), py::arg("matcher"), py::arg("circuit"), py::arg("cost"))
      .def("reset", &RewriteEnvCore::reset, py::arg("circuit"), "Start again from `circuit`.")
      .def_property_readonly("num_gates", &RewriteEnvCore::num_gates)
      .def_property_readonly("cost", &RewriteEnvCore::cost)
      .def_property_readonly("num_applicable", &RewriteEnvCore::num_applicable,
                             "Applicable (gate, transformation) pairs in all.")
      .def_property_readonly("last_refreshed", &RewriteEnvCore::last_refreshed,
                             "Gates whose lists the last step recomputed.")
      .def_property_readonly("radius", &RewriteEnvCore::radius,
                             "Wire steps around a rewrite whose gates are recomputed.")
      .def("circuit", &RewriteEnvCore::circuit, "The current circuit (O(n)).")
      .def("applicable_at", [](const RewriteEnvCore& e, int pos) {
             if (pos < 0 || pos >= e.num_gates()) throw py::index_error("gate position out of range");
             return e.applicable_at(pos);
           }, py::arg("position"), "Sorted transformation indices that apply at a gate.")
      .def("applicable", [](const RewriteEnvCore& e) {
             const int n = e.num_gates();
             int k = 0;
             for (int i = 0; i < n; i++) k += !e.applicable_at(i).empty();
             py::array_t<int64_t> nodes(k), offsets(k + 1), xfers(e.num_applicable());
             auto a = nodes.mutable_unchecked<1>();
             auto o = offsets.mutable_unchecked<1>();
             auto x = xfers.mutable_unchecked<1>();
             int j = 0;
             int64_t t = 0;
             o(0) = 0;
             for (int i = 0; i < n; i++) {
               const std::vector<int>& l = e.applicable_at(i);
               if (l.empty()) continue;
               a(j) = i;
               for (int v : l) x(t++) = v;
               o(++j) = t;
             }
             return py::make_tuple(nodes, offsets, xfers);
           }, "(positions[k], offsets[k+1], transformations[total]): the gates where something "
              "applies, in position order, and their lists (CSR).")
      .def("step", [](RewriteEnvCore& e, int pos, int x) {
             double delta = 0.0;
             bool ok;
             try {
               ok = e.step(pos, x, delta);
             } catch (const std::out_of_range& err) {
               throw py::index_error(err.what());
             }
             return py::make_tuple(ok, delta);
           }, py::arg("position"), py::arg("xfer"),
           "(applied, cost change): apply a listed transformation; (False, 0.0) drops an entry "
           "that no longer applies (a far rewrite changed its convexity).")
      .def("refresh_all", &RewriteEnvCore::refresh_all, "Recompute every gate's list (O(n)).")
      .def("topo_order", [](const RewriteEnvCore& e) {
             std::vector<int> t = e.topo_order();
             py::array_t<int64_t> out(static_cast<py::ssize_t>(t.size()));
             auto a = out.mutable_unchecked<1>();
             for (size_t i = 0; i < t.size(); i++) a(i) = t[i];
             return out;
           }, "Positions in circuit order: circuit() gate i is position topo_order()[i].")
      .def("graph", [](const RewriteEnvCore& e) {
             const Dag& d = e.dag();
             const int n = d.num_gates();
             int ne = 0;
             for (int i = 0; i < n; i++) {
               int v = d.live_node(i);
               for (int k = 0; k < d.num_qubits_of(v); k++) ne += d.next(v, k) >= 0;
             }
             py::array_t<int64_t> types(n), edges({2, 2 * ne});
             py::array_t<float> angles({n, 2 * kMaxGateParams}), attr({2 * ne, 3});
             auto ty = types.mutable_unchecked<1>();
             auto an = angles.mutable_unchecked<2>();
             auto ed = edges.mutable_unchecked<2>();
             auto at = attr.mutable_unchecked<2>();
             int j = 0;
             for (int i = 0; i < n; i++) {
               int v = d.live_node(i);
               ty(i) = static_cast<int64_t>(d.type(v));
               for (int k = 0; k < kMaxGateParams; k++) {
                 bool used = k < d.num_params_of(v);
                 double r = used ? d.param(v, k).const_radians() : 0.0;
                 an(i, k) = used ? static_cast<float>(std::cos(r)) : 0.0f;
                 an(i, kMaxGateParams + k) = used ? static_cast<float>(std::sin(r)) : 0.0f;
               }
               for (int k = 0; k < d.num_qubits_of(v); k++) {
                 int w = d.next(v, k);
                 if (w < 0) continue;
                 int port = 0;
                 while (d.qubit(w, port) != d.qubit(v, k)) port++;
                 int pw = d.live_pos(w);
                 ed(0, j) = i; ed(1, j) = pw;
                 ed(0, ne + j) = pw; ed(1, ne + j) = i;
                 at(j, 0) = static_cast<float>(k); at(j, 1) = static_cast<float>(port); at(j, 2) = 0.0f;
                 at(ne + j, 0) = static_cast<float>(port); at(ne + j, 1) = static_cast<float>(k);
                 at(ne + j, 2) = 1.0f;
                 j++;
               }
             }
             return py::make_tuple(types, angles, edges, attr);
           }, "(gate_type[n], angles[n,6], edge_index[2,2e], edge_attr[2e,3]) by position, as "
              "quartz.rl.graph.circuit_arrays gives for circuit() up to the order of the gates.");
}
