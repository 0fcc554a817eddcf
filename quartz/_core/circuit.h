// The circuit IR: a gate sequence of compact records plus a parameter table, with a
// per-qubit wire view (O(1) predecessor/successor of a gate on each of its qubits).
#pragma once
#include <cstdint>
#include <vector>

#include "gates.h"
#include "param.h"

namespace quartz {

struct Gate {
  GateType type;
  uint8_t num_qubits;
  uint8_t num_params;
  int32_t qubits[kMaxGateQubits];
  int32_t param_index;  // first of num_params consecutive entries of Circuit::params
};

class Circuit {
 public:
  explicit Circuit(int num_qubits = 0);

  int num_qubits() const { return num_qubits_; }
  int num_gates() const { return static_cast<int>(gates_.size()); }
  const std::vector<Gate>& gates() const { return gates_; }
  const Gate& gate(int i) const;
  const Param& param(int gate_index, int k) const;
  const Param& global_phase() const { return global_phase_; }
  // Sets the (constant) global phase, reduced into (-pi, pi].
  void set_global_phase(const Param& p);
  // Number of distinct symbols (1 + largest symbol index used), 0 when concrete.
  int num_symbols() const;

  void add_gate(GateType t, const std::vector<int>& qubits, const std::vector<Param>& params);
  void append(const Circuit& other);  // same qubit count; global phases add
  void clear();

  // Statistics.
  int count(GateType t) const;
  int two_qubit_count() const;
  int t_count() const;  // t, tdg and p/u1/rz/cp by an odd multiple of pi/4
  int depth() const;

  // Wire view: prev/next gate index on the wire of the gate's k-th qubit, or -1.
  int prev_on_wire(int gate_index, int k) const;
  int next_on_wire(int gate_index, int k) const;

  // Canonical topological order (ready gate with smallest min-qubit, then type, qubits,
  // params first) and the structural hash over it, angles included.
  std::vector<int> canonical_order() const;
  Circuit canonical() const;
  uint64_t hash() const;
  bool equals(const Circuit& o) const;  // same DAG, same angles, same global phase

  Circuit inverse() const;
  // Circuit with gates [begin, end) of this one (global phase zero).
  Circuit slice(int begin, int end) const;
  // Marks the gates in [lo, hi], the span of `gates` (non-empty): 1 = one of `gates`, 2 = a
  // descendant of one of them, 0 = other. False when one of `gates` descends from a marked
  // descendant: the set is not convex (one block in its place would make a cycle).
  bool convex_span(const std::vector<int>& gates, int& lo, int& hi, std::vector<char>& marks) const;

  // Numeric simulation; symbol_values are radians for symbols p0, p1, ...
  void apply(std::vector<cplx>& state, const std::vector<double>& symbol_values,
             bool include_global_phase = true) const;
  std::vector<cplx> unitary(const std::vector<double>& symbol_values,
                            bool include_global_phase = true) const;

 private:
  void build_wires() const;
  int num_qubits_;
  std::vector<Gate> gates_;
  std::vector<Param> params_;
  Param global_phase_;
  mutable bool wires_valid_ = false;
  mutable std::vector<int32_t> prev_, next_;
};

// A T-like gate (counted by Circuit::t_count): t, tdg, or p/u1/rz/cp by an odd multiple of pi/4.
bool is_t_like(GateType t, const Param& first_param);

// Apply one dense k-qubit matrix to a state vector of n qubits.
void apply_matrix(std::vector<cplx>& state, int n, const std::vector<cplx>& m,
                  const int32_t* qubits, int k);

constexpr int kMaxSimulatedQubits = 30;
constexpr int kMaxUnitaryQubits = 12;  // 2^24 amplitudes = 256 MiB

}  // namespace quartz
