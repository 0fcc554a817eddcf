// pybind11 bindings of the search core: Matcher (compiled transformations), cost specs,
// greedy/normalize helpers, and the optimizer (GIL released, Ctrl-C checked).
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "bind_common.h"
#include "dag.h"
#include "matcher.h"
#include "rewrite.h"
#include "search.h"

namespace py = pybind11;
using namespace quartz;

namespace {

void check_index(const Circuit& c, int g) {
  if (g < 0 || g >= c.num_gates())
    throw py::index_error("gate index " + std::to_string(g) + " out of range");
}

void check_xfer(const XferIndex& ix, int x) {
  if (x < 0 || x >= static_cast<int>(ix.xfers.size()))
    throw py::index_error("transformation index " + std::to_string(x) + " out of range");
}

}  // namespace

void bind_search(py::module_& m) {
  py::class_<PyMatcher>(m, "Matcher", "Compiled transformations, indexed by first gate type.")
      .def(py::init([](const py::list& items) {
             PyMatcher pm;
             for (auto item : items) {
               auto t = item.cast<py::tuple>();
               PhaseExpr ph;
               ph.cnum = t[2].cast<int64_t>();
               ph.cden = t[3].cast<int64_t>();
               for (auto term : t[4].cast<py::list>()) {
                 auto tt = term.cast<py::tuple>();
                 ph.terms.emplace_back(tt[0].cast<int>(), tt[1].cast<int64_t>(), tt[2].cast<int64_t>());
               }
               pm.ix->xfers.push_back(compile_xfer(t[0].cast<Circuit>(), t[1].cast<Circuit>(), ph));
             }
             pm.ix->build();
             return pm;
           }),
           py::arg("xfers"),
           "From [(source, target, phase_num, phase_den, [(symbol, num, den)])]: U_target = e^{i phase} U_source.")
      .def_property_readonly("num_xfers", [](const PyMatcher& pm) { return pm.ix->xfers.size(); })
      .def("is_valid", [](const PyMatcher& pm, int x) { check_xfer(*pm.ix, x); return pm.ix->xfers[x].valid; })
      .def("why_invalid", [](const PyMatcher& pm, int x) { check_xfer(*pm.ix, x); return pm.ix->xfers[x].why_invalid; })
      .def("match", [](const PyMatcher& pm, const Circuit& c, int g, int x) -> py::object {
             check_index(c, g);
             check_xfer(*pm.ix, x);
             const Xfer& xf = pm.ix->xfers[x];
             Match mt;
             if (!xf.valid || !match_at(c, xf, g, mt) || !match_is_convex(c, mt)) return py::none();
             return py::cast(mt.gates);
           }, "Circuit gates matched by the source (in source order), or None.")
      .def("applicable_at", [](const PyMatcher& pm, const Circuit& c, int g) {
             check_index(c, g);
             std::vector<int> out;
             Match mt;
             for (int x : pm.ix->by_type[static_cast<int>(c.gate(g).type)])
               if (match_at(c, pm.ix->xfers[x], g, mt) && match_is_convex(c, mt)) out.push_back(x);
             return out;
           })
      .def("applicable", [](const PyMatcher& pm, const Circuit& c) {
             std::vector<std::pair<int, int>> out;
             {
               py::gil_scoped_release rel;
               Match mt;
               for (int g = 0; g < c.num_gates(); g++)
                 for (int x : pm.ix->by_type[static_cast<int>(c.gate(g).type)])
                   if (match_at(c, pm.ix->xfers[x], g, mt) && match_is_convex(c, mt)) out.emplace_back(g, x);
             }
             return out;
           })
      .def("apply", [](const PyMatcher& pm, const Circuit& c, int g, int x) -> py::object {
             check_index(c, g);
             check_xfer(*pm.ix, x);
             const Xfer& xf = pm.ix->xfers[x];
             Match mt;
             Circuit out;
             if (!xf.valid || !match_at(c, xf, g, mt) || !apply_match(c, xf, mt, out)) return py::none();
             return py::cast(std::move(out));
           });

  py::class_<PyCost>(m, "CostSpec", "Gate weights, T and depth weights, or a Python callable.")
      .def(py::init([](const py::dict& weights, double default_weight, double t_weight,
                       double depth_weight, py::object fn) {
             PyCost pc;
             for (double& w : pc.spec.weight) w = default_weight;
             for (auto kv : weights) {
               std::string name = kv.first.cast<std::string>();
               GateType t = gate_type_from_name(name);
               if (t == GateType::NUM_TYPES) throw py::value_error("unknown gate '" + name + "' in cost weights");
               pc.spec.weight[static_cast<int>(t)] = kv.second.cast<double>();
             }
             pc.spec.t_weight = t_weight;
             pc.spec.depth_weight = depth_weight;
             if (!fn.is_none()) {
               pc.fn = fn;
               PyObject* raw = fn.ptr();
               auto err = pc.error;
               auto stop = pc.stop_on_error;
               pc.spec.callback = [raw, err, stop](const Circuit& c) -> double {
                 py::gil_scoped_acquire gil;
                 try {
                   py::handle h(raw);
                   return h(py::cast(Circuit(c))).cast<double>();
                 } catch (py::error_already_set& e) {
                   if (err->empty()) *err = e.what();
                   stop->store(true);
                   return 1e300;
                 } catch (py::cast_error& e) {
                   if (err->empty()) *err = std::string("cost callable must return a number: ") + e.what();
                   stop->store(true);
                   return 1e300;
                 }
               };
             }
             return pc;
           }),
           py::arg("weights") = py::dict(), py::arg("default_weight") = 1.0, py::arg("t_weight") = 0.0,
           py::arg("depth_weight") = 0.0, py::arg("callable") = py::none())
      .def("__call__", [](const PyCost& pc, const Circuit& c) { return pc.spec(c); })
      .def_property_readonly("additive", [](const PyCost& pc) { return pc.spec.additive(); });

  m.def("dag_random_walk", [](const PyMatcher& pm, const Circuit& c, int steps, uint64_t seed) {
          // Applies `steps` random matching rewrites (any cost change) on the working Dag,
          // checking its links, labels and cost after each one (for tests).
          GateCost gc;
          for (double& w : gc.weight) w = 1.0;
          Dag dag(c, gc);
          std::mt19937_64 rng(seed);
          Match mt;
          PreparedRewrite rw;
          int applied = 0;
          bool ok = dag.check();
          for (int s = 0; s < steps && ok && dag.num_gates() > 0; s++) {
            if (!propose_move(*pm.ix, dag, dag.random_node(rng), rng, mt, rw)) continue;
            dag.commit(rw);
            applied++;
            ok = dag.check() && static_cast<int>(dag.cost() + 0.5) == dag.num_gates();
          }
          return py::make_tuple(dag.to_circuit(), applied, ok, dag.relabels());
        }, py::arg("matcher"), py::arg("circuit"), py::arg("steps"), py::arg("seed") = 0,
        "(circuit, rewrites applied, every consistency check passed, relabellings) after a random walk.");
  m.def("normalize_rotations", &normalize_circuit,
        "Rotation angles reduced into (-pi, pi] (phase kept exactly), identity rotations dropped.");
  m.def("reorder_by_qubits", &reorder_by_qubits, py::arg("circuit"), py::arg("seed") = 0);
  m.def("splice", &splice, "Gates [0,begin) + replacement + gates [end,n).");

  m.def("optimize", [](const PyMatcher& pm, const Circuit& c, PyCost& cost, double timeout,
                       uint64_t seed, double gamma, int threads, int full_limit, int window,
                       int window_expansions, bool greedy_only, int polish_style,
                       bool polish_candidates, py::object progress, double progress_interval,
                       int algorithm, double temperature, double restart_after,
                       double patience, double patience_per_gate, double patience_growth,
                       double time_offset, double last_improvement, bool resynth_1q,
                       int proposal, double epoch_seconds, double epoch_per_gate,
                       double epoch_growth, long work_limit, int block_qubits, bool exact_1q,
                       const std::vector<std::pair<int, int>>& allowed, int allowed_n) {
          SearchOptions opt;
          opt.timeout = timeout;
          opt.seed = seed;
          opt.gamma = gamma;
          opt.threads = threads;
          opt.full_limit = full_limit;
          opt.window = window;
          opt.window_expansions = window_expansions;
          opt.greedy_only = greedy_only;
          opt.polish_style = polish_style;
          opt.polish_candidates = polish_candidates;
          if (algorithm < 0 || algorithm > 1) throw py::value_error("algorithm must be 0 or 1");
          opt.algorithm = algorithm;
          opt.temperature = temperature;
          opt.restart_after = restart_after;
          opt.patience = patience;
          opt.patience_per_gate = patience_per_gate;
          opt.patience_growth = patience_growth;
          opt.time_offset = time_offset;
          opt.last_improvement = last_improvement;
          opt.resynth_1q = resynth_1q;
          if (proposal < 0 || proposal > 1) throw py::value_error("proposal must be 0 or 1");
          opt.proposal = proposal;
          if (!(epoch_per_gate >= 0) || !(epoch_growth >= 0))
            throw py::value_error("epoch_per_gate and epoch_growth must be >= 0");
          opt.epoch_seconds = epoch_seconds;
          opt.epoch_per_gate = epoch_per_gate;
          opt.epoch_growth = epoch_growth;
          opt.work_limit = work_limit;
          if (block_qubits < 2 || block_qubits > 4) throw py::value_error("block_qubits must be 2, 3 or 4");
          opt.block_qubits = block_qubits;
          opt.exact_1q = exact_1q;
          if (allowed_n > 0) {
            if (c.num_qubits() > allowed_n)
              throw py::value_error("the coupling covers fewer qubits than the circuit has");
            opt.allowed_n = allowed_n;
            opt.allowed.assign(static_cast<size_t>(allowed_n) * allowed_n, 0);
            for (const auto& [a, b] : allowed) {
              if (a < 0 || b < 0 || a >= allowed_n || b >= allowed_n || a == b)
                throw py::value_error("a coupling pair names a qubit outside the circuit");
              opt.allowed[static_cast<size_t>(a) * allowed_n + b] = 1;
            }
          }
          SearchProgress pr;
          cost.error->clear();
          cost.stop_on_error->store(false);
          Searcher s(*pm.ix, cost.spec, opt, pr);
          Circuit result;
          std::exception_ptr ep;
          std::atomic<bool> done{false};
          bool interrupted = false;
          std::thread worker([&] {
            try { result = s.optimize(c); } catch (...) { ep = std::current_exception(); }
            done = true;
          });
          auto last = std::chrono::steady_clock::now();
          std::string cb_error;
          while (!done) {
            {
              py::gil_scoped_release rel;
              for (int i = 0; i < 10 && !done; i++) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            if (cost.stop_on_error->load()) pr.stop = true;
            if (PyErr_CheckSignals() != 0) {
              PyErr_Clear();
              interrupted = true;
              pr.stop = true;
            }
            auto now = std::chrono::steady_clock::now();
            if (!progress.is_none() && !pr.stop &&
                std::chrono::duration<double>(now - last).count() >= progress_interval) {
              last = now;
              double bc;
              {
                std::lock_guard<std::mutex> lk(pr.mu);
                bc = pr.best_cost;
              }
              try {
                progress(std::chrono::duration<double>(now - pr.start).count(), bc, pr.expansions.load());
              } catch (py::error_already_set& e) {
                pr.stop = true;
                // A signal handled while the callback ran Python (e.g. drawing the progress
                // line) surfaces here as KeyboardInterrupt: an interruption, not a failure.
                if (e.matches(PyExc_KeyboardInterrupt)) interrupted = true;
                else cb_error = e.what();
              }
            }
          }
          {
            py::gil_scoped_release rel;
            worker.join();
          }
          if (ep) std::rethrow_exception(ep);
          if (!cost.error->empty()) throw py::value_error("cost function failed: " + *cost.error);
          if (!cb_error.empty()) throw py::value_error("progress callback failed: " + cb_error);
          return py::make_tuple(result, pr.history, interrupted, pr.expansions.load(),
                                pr.converged.load(), pr.last_improvement.load(),
                                pr.restarts.load());
        },
        py::arg("matcher"), py::arg("circuit"), py::arg("cost"), py::arg("timeout") = 60.0,
        py::arg("seed") = 0, py::arg("gamma") = 1.05, py::arg("threads") = 2, py::arg("full_limit") = 300,
        py::arg("window") = 80, py::arg("window_expansions") = 40, py::arg("greedy_only") = false,
        py::arg("polish_style") = -1, py::arg("polish_candidates") = false,
        py::arg("progress") = py::none(), py::arg("progress_interval") = 0.5,
        py::arg("algorithm") = 0, py::arg("temperature") = 0.3, py::arg("restart_after") = 2.0,
        py::arg("patience") = -1.0, py::arg("patience_per_gate") = 0.0,
        py::arg("patience_growth") = 0.0, py::arg("time_offset") = 0.0,
        py::arg("last_improvement") = 0.0, py::arg("resynth_1q") = false, py::arg("proposal") = 0,
        py::arg("epoch_seconds") = -1.0, py::arg("epoch_per_gate") = 0.05,
        py::arg("epoch_growth") = 1.0, py::arg("work_limit") = -1, py::arg("block_qubits") = 3,
        py::arg("exact_1q") = false, py::arg("allowed") = std::vector<std::pair<int, int>>(),
        py::arg("allowed_n") = 0,
        "(best circuit, [(seconds, best cost)], interrupted, expansions, converged, seconds of "
        "the last improvement (with time_offset), anneal restarts). patience < 0: no convergence stop. "
        "epoch_seconds >= 0: the anneal restarts from the input once its best has not improved "
        "for epoch_seconds + epoch_per_gate x gates + epoch_growth x the epoch's time to it. "
        "work_limit >= 0: each anneal chain also stops after that many work units. "
        "block_qubits: the polish's block resynthesis takes blocks of up to that many qubits. "
        "exact_1q: the polish also merges rx/rz runs with exact pi/4 angles, exactly.");
}
