// pybind11 layer of quartz._core: conversions only, no logic.
#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "circuit.h"

namespace py = pybind11;
using namespace quartz;

namespace {

GateType type_of(const std::string& name) {
  GateType t = gate_type_from_name(name);
  if (t == GateType::NUM_TYPES) throw py::value_error("unknown gate '" + name + "'");
  return t;
}

py::array_t<cplx> as_square(const std::vector<cplx>& m, size_t dim) {
  py::array_t<cplx> a({dim, dim});
  std::copy(m.begin(), m.end(), a.mutable_data());
  return a;
}

py::tuple gate_tuple(const Circuit& c, int i) {
  const Gate& g = c.gate(i);
  py::tuple qs(g.num_qubits), ps(g.num_params);
  for (int k = 0; k < g.num_qubits; k++) qs[k] = g.qubits[k];
  for (int k = 0; k < g.num_params; k++) ps[k] = c.param(i, k);
  return py::make_tuple(gate_info(g.type).name, qs, ps);
}

py::tuple param_state(const Param& p) {
  py::list terms;
  for (int i = 0; i < p.nterms; i++) terms.append(py::make_tuple(p.sym[i], p.coef[i]));
  return py::make_tuple(p.exact, p.num, p.den, p.rad, terms);
}

Param param_from_state(const py::tuple& t) {
  Param p = t[0].cast<bool>() ? Param::pi_frac(t[1].cast<int64_t>(), t[2].cast<int64_t>())
                              : Param::radians(t[3].cast<double>());
  for (auto item : t[4].cast<py::list>()) {
    auto st = item.cast<py::tuple>();
    p = p + Param::symbol(st[0].cast<int>(), st[1].cast<int>());
  }
  return p;
}

}  // namespace

// Subsystem bindings, each in its own file (bind_<subsystem>.cpp).
void bind_generator(py::module_& m);
void bind_search(py::module_& m);
void bind_rl(py::module_& m);
void bind_preprocess(py::module_& m);

PYBIND11_MODULE(_core, m) {
  m.doc() = "quartz native core: circuit IR, parameters, gate unitaries, simulation.";

  m.def("gate_names", [] {
    std::vector<std::string> v;
    for (int i = 0; i < kNumGateTypes; i++) v.push_back(gate_info(static_cast<GateType>(i)).name);
    return v;
  }, "Names of all gate types the core knows, in type order.");
  m.def("gate_info", [](const std::string& name) {
    const GateInfo& g = gate_info(type_of(name));
    return py::make_tuple(g.num_qubits, g.num_params, g.symmetric, g.diagonal);
  }, "(num_qubits, num_params, symmetric, diagonal) of a gate type.");
  m.def("gate_matrix", [](const std::string& name, const std::vector<double>& params) {
    GateType t = type_of(name);
    const GateInfo& g = gate_info(t);
    if (static_cast<int>(params.size()) != g.num_params)
      throw py::value_error("gate '" + name + "' takes " + std::to_string(g.num_params) + " parameter(s)");
    double pv[kMaxGateParams] = {0, 0, 0};
    for (size_t i = 0; i < params.size(); i++) pv[i] = params[i];
    return as_square(gate_matrix(t, pv), static_cast<size_t>(1) << g.num_qubits);
  }, py::arg("name"), py::arg("params") = std::vector<double>{},
     "Unitary of one gate for numeric parameters (radians), qubit 0 = least significant bit.");

  py::class_<Param>(m, "Param", "A gate angle: exact k/d*pi, float radians, plus integer multiples of symbols.")
      .def(py::init<>())
      .def_static("pi", &Param::pi_frac, py::arg("num"), py::arg("den") = 1, "The exact angle num/den * pi.")
      .def_static("radians", &Param::radians, py::arg("x"), "A float angle in radians, kept bit for bit.")
      .def_static("symbol", &Param::symbol, py::arg("index"), py::arg("coefficient") = 1,
                  "The symbolic input p<index> times an integer coefficient.")
      .def_property_readonly("is_symbolic", &Param::is_symbolic)
      .def_property_readonly("is_exact", [](const Param& p) { return p.exact; },
                             "True when the constant part is an exact rational multiple of pi.")
      .def_property_readonly("pi_fraction", [](const Param& p) -> py::object {
        if (!p.exact) return py::none();
        return py::make_tuple(p.num, p.den);
      }, "(num, den) of the constant part in units of pi, or None for float angles.")
      .def_property_readonly("terms", [](const Param& p) {
        std::vector<std::pair<int, int>> v;
        for (int i = 0; i < p.nterms; i++) v.emplace_back(p.sym[i], p.coef[i]);
        return v;
      }, "Symbolic terms as (symbol index, coefficient) pairs.")
      .def("constant_radians", &Param::const_radians)
      .def("constant_part", &Param::constant_part)
      .def("symbolic_part", &Param::symbolic_part)
      .def("value", [](const Param& p, const std::vector<double>& vals) {
        return p.value(vals.data(), static_cast<int>(vals.size()));
      }, py::arg("symbol_values") = std::vector<double>{})
      .def("reduced", [](const Param& p, int64_t period) {
        Param q = p;
        int64_t w = q.reduce_mod(period);
        return py::make_tuple(q, w);
      }, py::arg("period_in_pi"),
         "(angle reduced into (-period*pi, period*pi], number of 2*period*pi turns removed).")
      .def("scaled", &Param::scaled)
      .def(py::self + py::self)
      .def(py::self - py::self)
      .def(-py::self)
      .def(py::self == py::self)
      .def(py::self != py::self)
      .def("__hash__", [](const Param& p) { return static_cast<py::ssize_t>(p.hash() >> 1); })
      .def("__float__", [](const Param& p) {
        if (p.is_symbolic()) throw py::type_error("symbolic angle " + p.to_string() + " has no float value");
        return p.const_radians();
      })
      .def("__str__", &Param::to_string)
      .def("__repr__", [](const Param& p) { return "Param(" + p.to_string() + ")"; })
      .def(py::pickle([](const Param& p) { return param_state(p); },
                      [](const py::tuple& t) { return param_from_state(t); }));

  py::class_<Circuit>(m, "Circuit", "Native circuit: gate records, parameter table, wire links.")
      .def(py::init<int>(), py::arg("num_qubits"))
      .def_property_readonly("num_qubits", &Circuit::num_qubits)
      .def_property_readonly("num_gates", &Circuit::num_gates)
      .def_property_readonly("num_symbols", &Circuit::num_symbols)
      .def_property("global_phase", &Circuit::global_phase, &Circuit::set_global_phase)
      .def("add_gate", [](Circuit& c, const std::string& name, const std::vector<int>& qs,
                          const std::vector<Param>& ps) { c.add_gate(type_of(name), qs, ps); },
           py::arg("name"), py::arg("qubits"), py::arg("params") = std::vector<Param>{})
      .def("gate", &gate_tuple, py::arg("index"), "(name, qubits, params) of gate i.")
      .def("gates", [](const Circuit& c) {
        py::list l;
        for (int i = 0; i < c.num_gates(); i++) l.append(gate_tuple(c, i));
        return l;
      })
      .def("gate_arrays", [](const Circuit& c) {
        const int n = c.num_gates();
        py::array_t<int32_t> types(n), qubits({n, kMaxGateQubits});
        auto t = types.mutable_unchecked<1>();
        auto q = qubits.mutable_unchecked<2>();
        for (int i = 0; i < n; i++) {
          const Gate& g = c.gates()[i];
          t(i) = static_cast<int32_t>(g.type);
          for (int k = 0; k < kMaxGateQubits; k++) q(i, k) = g.qubits[k];
        }
        return py::make_tuple(types, qubits);
      }, "(types[n], qubits[n,3]) as int32 arrays; unused qubit slots are -1.")
      .def("wire_arrays", [](const Circuit& c) {
        const int n = c.num_gates();
        py::array_t<int32_t> prev({n, kMaxGateQubits}), next({n, kMaxGateQubits});
        auto p = prev.mutable_unchecked<2>();
        auto x = next.mutable_unchecked<2>();
        for (int i = 0; i < n; i++)
          for (int k = 0; k < kMaxGateQubits; k++) {
            bool used = k < c.gates()[i].num_qubits;
            p(i, k) = used ? c.prev_on_wire(i, k) : -1;
            x(i, k) = used ? c.next_on_wire(i, k) : -1;
          }
        return py::make_tuple(prev, next);
      }, "(prev[n,3], next[n,3]): neighbouring gate on each qubit slot's wire, -1 if none.")
      .def("append", &Circuit::append)
      .def("clear", &Circuit::clear)
      .def("count", [](const Circuit& c, const std::string& name) { return c.count(type_of(name)); })
      .def("two_qubit_count", &Circuit::two_qubit_count)
      .def("t_count", &Circuit::t_count)
      .def("depth", &Circuit::depth)
      .def("prev_on_wire", &Circuit::prev_on_wire)
      .def("next_on_wire", &Circuit::next_on_wire)
      .def("canonical_order", &Circuit::canonical_order)
      .def("canonical", &Circuit::canonical)
      .def("hash", &Circuit::hash)
      .def("equals", &Circuit::equals)
      .def("inverse", &Circuit::inverse)
      .def("slice", &Circuit::slice)
      .def("copy", [](const Circuit& c) { return Circuit(c); })
      .def("apply", [](const Circuit& c, py::array_t<cplx, py::array::c_style | py::array::forcecast> state,
                       const std::vector<double>& vals, bool gp) {
        std::vector<cplx> st(state.data(), state.data() + state.size());
        {
          py::gil_scoped_release release;
          c.apply(st, vals, gp);
        }
        py::array_t<cplx> out(st.size());
        std::copy(st.begin(), st.end(), out.mutable_data());
        return out;
      }, py::arg("state"), py::arg("symbol_values") = std::vector<double>{},
         py::arg("include_global_phase") = true, "The state after the circuit (a new array).")
      .def("unitary", [](const Circuit& c, const std::vector<double>& vals, bool gp) {
        std::vector<cplx> u;
        {
          py::gil_scoped_release release;
          u = c.unitary(vals, gp);
        }
        return as_square(u, static_cast<size_t>(1) << c.num_qubits());
      }, py::arg("symbol_values") = std::vector<double>{}, py::arg("include_global_phase") = true)
      .def(py::pickle(
          [](const Circuit& c) {
            py::list gs;
            for (int i = 0; i < c.num_gates(); i++) gs.append(gate_tuple(c, i));
            return py::make_tuple(c.num_qubits(), gs, c.global_phase());
          },
          [](const py::tuple& t) {
            Circuit c(t[0].cast<int>());
            for (auto item : t[1].cast<py::list>()) {
              auto g = item.cast<py::tuple>();
              c.add_gate(type_of(g[0].cast<std::string>()), g[1].cast<std::vector<int>>(),
                         g[2].cast<std::vector<Param>>());
            }
            c.set_global_phase(t[2].cast<Param>());
            return c;
          }));

  bind_generator(m);
  bind_search(m);
  bind_rl(m);
  bind_preprocess(m);
}
