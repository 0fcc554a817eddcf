// Exact preprocessing passes run before search: phase-polynomial rotation merging with the
// affine (negation) bit tracked, adjacent-inverse cancellation with exact commutation, and
// greedy-polarity CCZ/CCX decomposition into Nam gates. Every pass keeps the unitary exactly,
// global phase included (the phase is accumulated into Circuit::global_phase).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "circuit.h"

namespace quartz {
namespace preprocess {

// Which gates a merged diagonal rotation is written back as.
enum class DiagStyle : uint8_t {
  RZ,   // rz(theta)
  P,    // p(lambda)
  U1,   // u1(lambda)
  T,    // t / tdg / s / sdg / z (angles must be multiples of pi/4; others fall back to rz)
  TNZ,  // as T, but pi is written s s (gate sets without z)
};

// A mutable gate record with its parameters inline.
struct PGate {
  GateType type;
  uint8_t nq = 0;
  uint8_t np = 0;
  int32_t q[kMaxGateQubits] = {-1, -1, -1};
  Param p[kMaxGateParams];
};

std::vector<PGate> to_list(const Circuit& c);
Circuit from_list(int num_qubits, const std::vector<PGate>& gates, const Param& phase);
PGate make_gate(GateType t, int q0, int q1 = -1, int q2 = -1);
PGate make_rot(GateType t, int q, const Param& angle);

// Affine parity of a wire: XOR of the variables in `vars` (sorted), negated when neg is set.
// Variables are the circuit inputs and a fresh one per qubit of every non-affine gate.
struct Parity {
  std::vector<uint32_t> vars;
  uint64_t hash = 0;  // XOR of per-variable keys (only a bucket key; equality compares vars)
  bool neg = false;
};

struct ParityHash {
  size_t operator()(const Parity& p) const { return static_cast<size_t>(p.hash); }
};
struct ParityLinearEq {  // equality of the linear part only
  bool operator()(const Parity& a, const Parity& b) const { return a.hash == b.hash && a.vars == b.vars; }
};

void parity_xor(Parity& target, const Parity& source);  // target ^= source (incl. neg)
uint64_t var_key(uint32_t v);

// How the rotation merger sees a gate.
enum class Kind : uint8_t { CX, X, SWAP, ROT, DIAG, OTHER };

// Tracks every wire's parity while walking a circuit in order.
class WireTracker {
 public:
  explicit WireTracker(int n);
  const Parity& wire(int q) const { return w_[q]; }
  void fresh(int q);
  // Update wires for gate g of the given kind (ROT/DIAG change nothing).
  void apply(const PGate& g, Kind k);

 private:
  std::vector<Parity> w_;
  uint32_t next_var_;
};

// Kind of gate g for rotation merging under `style` (ROT: a 1-qubit diagonal rotation that
// can be merged; symbolic phase-type angles are DIAG because the phase would be symbolic).
Kind classify(const PGate& g, DiagStyle style);
// For a ROT gate: its angle as rz(theta) and the global phase with gate = e^{i phase} rz(theta).
void rot_as_rz(const PGate& g, Param& theta, Param& phase);
// Append the gates realising rz(theta) on qubit q in `style`, adding the phase they need to
// `phase`. Returns the number of gates appended (0 when the rotation is the identity).
int emit_rz(std::vector<PGate>& out, int q, Param theta, DiagStyle style, Param& phase);
// Gates needed for rz(theta) in `style` (0 for identity), without emitting.
int rz_cost(const Param& theta, DiagStyle style);
// Float angles within this of a multiple of the period count as that multiple.
constexpr double kFloatTol = 1e-12;

struct MergeStats {
  int terms = 0;   // distinct parity terms seen
  int merged = 0;  // rotations folded into another one
};

// Phase-polynomial rotation merging. placement_last: put each merged rotation at the last
// occurrence of its parity instead of the first.
Circuit rotation_merge(const Circuit& c, DiagStyle style, bool placement_last, MergeStats* stats);

// Cancel adjacent inverse pairs and merge same-axis rotations, commuting gates only where it is
// exact, until nothing changes. `window` bounds how far a gate is commuted along a wire.
Circuit cancel_inverses(const Circuit& c, int window);

// Shortest cx sequence (pairs of wire indices: control, target) on `wires` (2 to 4) wires from
// the identity to the linear map `rows` (rows[k]: bit j set when wire k ends holding input j)
// that shows every parity mask m with bit m-1 of `need` set on some wire (input parities are
// shown at the start). False when no sequence exists (rows not invertible), and for 4 wires
// also when the search gives up (a bounded A*; 2 and 3 wires read a precomputed table).
bool shortest_ladder(int wires, const int* rows, int need, std::vector<std::pair<int, int>>& moves);

// Replace convex blocks of cx, x and mergeable diagonal rotations on at most `max_qubits`
// (2 to 4) qubits by the shortest equivalent cx ladder (rotations where their parity first
// appears, x gates last) when that is fewer gates. `changed` receives the number of blocks
// replaced.
Circuit resynthesize_blocks(const Circuit& c, DiagStyle style, int* changed, int max_qubits = 3);

// Replace every run of one-qubit h, x and constant rz gates on a qubit by its shortest
// {h, x, rz} form (at most rz h rz h rz) when that is fewer gates. Inexact: new angles are
// float radians unless they round to multiples of pi/4 (see preprocess_euler.cpp), equal to
// the run to 1e-11 entrywise with the phase moved into the global phase. `changed` receives
// the number of runs replaced. exact_only: only runs with an rx gate, every angle an exact
// multiple of pi/4 before and after (rx angles after: multiples of pi/2, hardware-native) and
// the phase too (an exact move: two such short runs within 1e-11 of each other are equal), at
// most kExactRunMax gates.
Circuit resynthesize_1q_runs(const Circuit& c, int* changed, bool exact_only = false);

// Write every convex network of cx gates on qubits P with H on A (of P) before it and H on B
// after it as H on P \ A, the network with each cx reversed, H on P \ B, when that is fewer
// H gates (|A| + |B| > |P|), until none is left. Exact. `removed` receives the gates saved.
Circuit reverse_hadamard_networks(const Circuit& c, int* removed);

struct CczStats {
  int num_ccz = 0;        // ccz + ccx gates decomposed
  int negative = 0;       // decomposed with the negative polarity
  int refined_flips = 0;  // polarity flips made by the refinement passes
  int rotation_cost = 0;  // predicted rotation gates after merging
  int cx = 0;             // cx gates written for the decompositions
};

// Replace every ccz/ccx by a 6-cx + 7-rotation decomposition, choosing each polarity greedily
// (in circuit order) by the predicted gate count after rotation merging; then, when
// refine_passes > 0, flip single polarities while that lowers the prediction. With resynthesize
// the rotations are merged at the same time (every parity class written once, with its total)
// and each Toffoli gets the shortest cx ladder for the parities it still has to carry.
Circuit decompose_ccz_greedy(const Circuit& c, DiagStyle style, int refine_passes, bool resynthesize,
                             CczStats* stats);

}  // namespace preprocess
}  // namespace quartz
