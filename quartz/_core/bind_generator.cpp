// pybind11 bindings of the generator core: quartz._core.Generator (RepGen + fingerprints).
#include <pybind11/complex.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <tuple>

#include "gen_pruning.h"
#include "generator.h"

namespace py = pybind11;
using namespace quartz;

void bind_generator(py::module_& m) {
  py::class_<Generator>(m, "Generator",
                        "RepGen enumeration of canonical circuits with incremental fingerprints.")
      .def(py::init([](const std::vector<std::string>& gates, int q, int nsym, bool sums, uint64_t seed,
                       bool qubit_major,
                       const std::vector<std::tuple<std::string, int64_t, int64_t>>& consts) {
             std::vector<GateType> ts;
             for (const auto& g : gates) {
               GateType t = gate_type_from_name(g);
               if (t == GateType::NUM_TYPES) throw py::value_error("unknown gate '" + g + "'");
               ts.push_back(t);
             }
             std::vector<GenConstant> cs;
             for (const auto& [g, num, den] : consts) {
               GateType t = gate_type_from_name(g);
               if (t == GateType::NUM_TYPES) throw py::value_error("unknown gate '" + g + "'");
               cs.push_back({t, num, den});
             }
             return new Generator(ts, q, nsym, sums, seed, qubit_major, cs);
           }),
           py::arg("gates"), py::arg("num_qubits"), py::arg("num_symbols"), py::arg("sums") = true,
           py::arg("seed") = 0, py::arg("qubit_major") = false,
           py::arg("constants") = std::vector<std::tuple<std::string, int64_t, int64_t>>{})
      .def_property_readonly("num_qubits", &Generator::num_qubits)
      .def("choices", [](const Generator& g) {
        py::list out;
        for (const GateChoice& c : g.choices()) {
          py::tuple qs(c.nq), ps(c.np);
          for (int k = 0; k < c.nq; k++) qs[k] = c.qubits[k];
          for (int k = 0; k < c.np; k++) ps[k] = c.params[k];
          out.append(py::make_tuple(gate_info(c.type).name, qs, ps));
        }
        return out;
      }, "Gate choices in the total order: (gate name, qubits, parameter-table indices).")
      .def("params", [](const Generator& g) {
        std::vector<std::tuple<int, int, int64_t, int64_t>> v;
        for (const GenParam& p : g.params()) v.emplace_back(p.a, p.b, p.num, p.den);
        return v;
      }, "Parameter table: (a, -1, 0, 1) is p_a, (a, b, 0, 1) is p_a + p_b, (-1, -1, k, d) is k/d*pi.")
      .def_property_readonly("symbol_values", &Generator::symbol_values)
      .def("begin_round", &Generator::begin_round, py::arg("last") = false,
           "Start the next round; last=True: no round follows, so its representatives skip the "
           "bookkeeping that only expanding them needs (begin_round then refuses to go on).")
      .def("expand", [](Generator& g, size_t max_reps, int threads) {
        py::gil_scoped_release release;
        return g.expand(max_reps, threads);
      }, py::arg("max_reps"), py::arg("threads") = 1)
      .def_property_readonly("frontier_size", &Generator::frontier_size)
      .def_property_readonly("frontier_done", &Generator::frontier_done)
      .def_property_readonly("rounds_started", &Generator::rounds_started)
      .def_property_readonly("num_circuits", &Generator::num_circuits)
      .def_property_readonly("num_classes", &Generator::num_classes)
      .def_property_readonly("considered_per_round", &Generator::considered_per_round)
      .def_property_readonly("kept_per_round", &Generator::kept_per_round)
      .def("results", [](const Generator& g) {
        const size_t n = g.num_circuits();
        py::array_t<int32_t> ng(n), cls(n);
        py::array_t<int32_t> gates({n, static_cast<size_t>(kMaxGenGates)});
        py::array_t<cplx> fps(n);
        auto a = ng.mutable_unchecked<1>();
        auto c = cls.mutable_unchecked<1>();
        auto gs = gates.mutable_unchecked<2>();
        auto f = fps.mutable_unchecked<1>();
        for (size_t i = 0; i < n; i++) {
          const GenCircuit& ci = g.circuit(i);
          a(i) = ci.ng;
          c(i) = g.class_of(i);
          f(i) = g.fingerprint(i);
          for (int k = 0; k < kMaxGenGates; k++) gs(i, k) = k < ci.ng ? ci.g[k] : -1;
        }
        return py::make_tuple(ng, gates, cls, fps);
      }, "(num_gates[N], choices[N, max], class[N], fingerprint[N]) of every circuit kept.")
      .def("prune", [](const Generator& g, const std::vector<std::string>& gates, bool split_identity,
                       int max_cycles) {
        std::vector<GateType> ts;
        for (const auto& name : gates) {
          GateType t = gate_type_from_name(name);
          if (t == GateType::NUM_TYPES) throw py::value_error("unknown gate '" + name + "'");
          ts.push_back(t);
        }
        PruneResult r;
        {
          py::gil_scoped_release release;
          r = prune_generated(g, ts, split_identity, max_cycles);
        }
        py::list classes;
        for (const PClass& c : r.classes) {
          py::list cs;
          for (const PCirc& x : c.cs) {
            py::tuple gs(x.n);
            for (int i = 0; i < x.n; i++) {
              const PGate& pg = x.g[i];
              py::tuple qs(pg.nq), ps(pg.np);
              for (int k = 0; k < pg.nq; k++) qs[k] = static_cast<int>(pg.q[k]);
              for (int k = 0; k < pg.np; k++) ps[k] = static_cast<int>(pg.p[k]);
              gs[i] = py::make_tuple(static_cast<int>(pg.t), qs, ps);
            }
            cs.append(gs);
          }
          classes.append(py::make_tuple(c.nq, cs));
        }
        py::list log;
        for (const PassLog& l : r.log)
          log.append(py::make_tuple(l.pass < 0 ? std::string("start") : std::string(kPruningPasses[l.pass]),
                                    l.cycle, l.classes, l.circuits));
        return py::make_tuple(classes, log);
      }, py::arg("gates"), py::arg("split_identity") = true, py::arg("max_cycles") = 10,
      "The classes of two or more circuits after the ECC simplification passes (as "
      "quartz.generator.pruning.simplify runs them): ([(num_qubits, [circuit])], [(pass, cycle, "
      "classes, circuits)]), a circuit a tuple of (gate rank, qubits, parameter-table ids).");
}
