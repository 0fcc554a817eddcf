// Cost-based optimisation over a compiled transformation set: a greedy pass of
// cost-reducing rewrites, Quartz's best-first backtracking search (priority queue on cost,
// candidates kept below gamma x best cost, dedup by a hash that includes angles, bounded
// queue), and a windowed driver that works on contiguous (hence convex) segments so large
// circuits improve too, on two threads.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

#include "circuit.h"
#include "matcher.h"
#include "xfer_trie.h"

namespace quartz {

struct CostSpec {
  double weight[kNumGateTypes];
  double t_weight = 0.0;      // per T-like gate (Circuit::t_count's rule)
  double depth_weight = 0.0;  // times the circuit depth
  std::function<double(const Circuit&)> callback;  // replaces the formula when set
  CostSpec() { for (double& w : weight) w = 1.0; }
  double operator()(const Circuit& c) const;
  // Additive over gate sequences (so a segment's cost change is the circuit's change).
  bool additive() const { return !callback && depth_weight == 0.0; }
};

struct SearchOptions {
  double timeout = 60.0;      // wall-clock seconds
  uint64_t seed = 0;
  double gamma = 1.05;        // keep candidates with cost < gamma * best
  int queue_cap = 2000;       // prune the queue to half when it grows past this
  int threads = 2;
  int full_limit = 300;       // circuits up to this size are also searched as a whole
  int window = 80;            // segment size of the windowed search
  int window_expansions = 40; // best-first expansions per segment
  bool greedy_only = false;
  // Rotation merging + inverse cancellation ("polish") in this diagonal style (index of
  // preprocess::DiagStyle), -1 for none; applied after greedy passes and to new bests, and
  // to every search candidate when polish_candidates is set.
  int polish_style = -1;
  bool polish_candidates = false;
  // 0: best-first + windowed search; 1: simulated annealing over the working Dag (one
  // chain per thread, bests exchanged), see anneal.cpp.
  int algorithm = 0;
  double temperature = 0.3;   // a move raising the cost by d is accepted with exp(-d/T)
  double restart_after = 2.0; // seconds without a new best before a chain returns to its best
  double sync_every = 0.5;    // seconds between the chains' exchanges of their bests
  // The anneal's chains keep time in work units, not seconds, so that a seed gives the same
  // search on a slow or a loaded machine (only the deadline and the patience rule read the
  // wall clock): a proposal is 1 unit, each transformation tried there 1 more, a polish
  // polish_units_per_gate per gate. The seconds of sync_every, restart_after and epoch_* are
  // converted at units_per_second, about what one thread did on the machine that tuned them.
  double units_per_second = 4.0e6;
  double polish_units_per_gate = 7.0;
  // Anneal: each chain stops once its clock reaches this many units (-1: no limit). With no
  // deadline or patience in the way, a seed then gives the same circuit on every machine.
  long work_limit = -1;
  // anneal moves at a gate: 0 uniform among the transformations that match there (XferTrie),
  // 1 the first that matches after a random offset in its first gate type's list
  int proposal = 0;
  bool resynth_blocks = true;  // anneal: also resynthesize cx/x/rotation blocks when polishing
  int block_qubits = 3;        // ... of at most this many qubits (2 to 4; 4: the 3-qubit pass too)
  // Anneal restarts ("epochs"): once the chains' best of the current epoch has not improved for
  // epoch_seconds + epoch_per_gate x (its gates) + epoch_growth x (seconds from the epoch's
  // start to its last improvement), every chain starts again from the search's input with new
  // random choices; the best of all epochs is the result. epoch_seconds < 0: one epoch.
  double epoch_seconds = -1.0;
  double epoch_per_gate = 0.05;
  double epoch_growth = 1.0;
  // Polish also writes every run of one-qubit h/x/rz gates in its shortest form
  // (preprocess::resynthesize_1q_runs): an inexact move (float angles), off by default.
  bool resynth_1q = false;
  // Polish also merges runs of rx and rz gates whose angles are exact multiples of pi/4 into
  // their shortest form with rx at multiples of pi/2, exactly (resynthesize_1q_runs'
  // exact_only): what Rigetti's small ECC set cannot do in one move. No effect on circuits
  // without rx. Off unless asked for (quartz.optimize asks for it in sets with rx, no ry).
  bool exact_1q = false;
  // Convergence ("stop when done"): with patience >= 0 the search ends once no better circuit
  // has been found for patience + patience_per_gate x (best's gates) + patience_growth x
  // (time of the last improvement) seconds. Times count from time_offset seconds before this
  // call (work done by earlier calls of one search); last_improvement is then the time of the
  // last improvement before it.
  double patience = -1.0;
  double patience_per_gate = 0.0;
  double patience_growth = 0.0;
  double time_offset = 0.0;
  double last_improvement = 0.0;
  // Connectivity: with allowed_n > 0, a two-qubit gate may stand on qubits (a, b) only where
  // allowed[a * allowed_n + b] (either order for a gate symmetric in its qubits), and no gate
  // on three or more qubits may be placed: no move, polish or resynthesis puts one elsewhere.
  std::vector<uint8_t> allowed;
  int allowed_n = 0;
};

// Whether a gate of type t on qubits q[0..nq) may stand there under `allowed` (see
// SearchOptions::allowed; an empty table allows everything).
bool placeable(const uint8_t* allowed, int n, GateType t, const int* q, int nq);
// Every gate of c placeable.
bool placeable(const uint8_t* allowed, int n, const Circuit& c);

struct SearchProgress {
  std::atomic<bool> stop{false};
  std::mutex mu;
  double best_cost = 0.0;
  std::vector<std::pair<double, double>> history;  // (seconds, best cost)
  std::vector<double> parts;  // current cost of each segment in the split mode
  std::atomic<long> expansions{0};  // expansions (best-first) or moves evaluated (anneal)
  std::atomic<double> last_improvement{0.0};  // seconds (with the time offset) of the last new best
  std::atomic<int> best_gates{0};  // gates of the best circuit (read by the patience rule)
  std::atomic<bool> converged{false};  // the search ended by its patience rule
  std::atomic<int> restarts{0};  // anneal epochs begun after the first (SearchOptions::epoch_*)
  double time_offset = 0.0;  // SearchOptions::time_offset, for report()'s times
  std::chrono::steady_clock::time_point start;
  void report(double cost, int gates);
};

class Searcher {
 public:
  Searcher(const XferIndex& ix, const CostSpec& cost, const SearchOptions& opt, SearchProgress& pr);
  // Full driver: normalize, greedy, search (whole and windowed, two threads), best found.
  Circuit optimize(const Circuit& c);
  Circuit greedy(const Circuit& c) const;
  // Greedy, then polish, repeated while either lowers the cost.
  Circuit simplify(const Circuit& c) const;
  // Rotation merging (both placements) + cancellation, and Hadamard-conjugated cx networks
  // reversed (preprocess::reverse_hadamard_networks), when that lowers the cost; else c.
  Circuit polish(const Circuit& c) const;
  // Cx/x/rotation blocks on <= 3 qubits re-written as shortest cx ladders, then cancellation.
  Circuit resynthesize(const Circuit& c) const;
  Circuit best_first(const Circuit& c, double seconds, long max_expansions, uint64_t seed,
                     bool report) const;
  // Simulated annealing until the deadline (anneal.cpp); needs an additive cost.
  Circuit anneal(const Circuit& c, int chains);

 private:
  // Stopped, past `until`, or converged by the patience rule (which then sets pr_.converged).
  bool out_of_time(std::chrono::steady_clock::time_point until) const;
  // Segment-by-segment search until `until`; `whole` reports the cost as the circuit's,
  // otherwise as this part's share (part_cost points into SearchProgress::parts).
  Circuit windowed(const Circuit& c, std::chrono::steady_clock::time_point until, uint64_t seed,
                   bool whole, double* part_cost) const;
  const XferIndex& ix_;
  XferTrie trie_;
  CostSpec cost_;
  SearchOptions opt_;
  // Every gate of c may stand where it is (SearchOptions::allowed).
  bool placeable(const Circuit& c) const {
    return quartz::placeable(opt_.allowed.data(), opt_.allowed_n, c);
  }
  SearchProgress& pr_;
  std::vector<char> reducing_;
  std::chrono::steady_clock::time_point deadline_;
};

// Gates of c in a random topological order that prefers a random qubit ranking (moves
// gates that act on the same qubits next to each other).
Circuit reorder_by_qubits(const Circuit& c, uint64_t seed);

}  // namespace quartz
