// Pattern matching of ECC transformations (source -> target) on a circuit's DAG view.
//
// Each transformation is compiled into a pattern anchored at its source's first gate: a
// BFS order over the pattern's wires (so every further gate is found by following one wire
// from an already matched gate), and a plan that solves the symbolic parameters from the
// circuit's angles (p_j alone, or linear expressions with one unknown of coefficient +-1)
// and checks every other parameter slot against the bound values.
#pragma once
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "circuit.h"

namespace quartz {

constexpr int kMaxPatternQubits = 8;
constexpr int kMaxPatternSymbols = 16;

// e^{i phase}: (cnum/cden)*pi + sum_k (num_k/den_k) * p_{sym_k}.
struct PhaseExpr {
  int64_t cnum = 0, cden = 1;
  std::vector<std::tuple<int, int64_t, int64_t>> terms;
};

struct Xfer {
  Circuit src, dst;
  PhaseExpr phase;  // U_dst = e^{i phase} U_src
  bool valid = false;
  std::string why_invalid;
  int num_symbols = 0;
  // Match order: order[0] = 0; gate order[i] (i >= 1) is reached from matched gate
  // step_from[i] along its slot step_from_slot[i], forward (next) or backward (prev), and
  // arrives at slot step_to_slot[i] of the new gate.
  std::vector<int> order, step_from, step_from_slot, step_to_slot;
  std::vector<char> step_forward;
  // Pattern wire links (per gate, per slot), -1 at the pattern boundary.
  std::vector<int> pprev, pnext;  // [gate * kMaxGateQubits + slot]
  // Parameter plan. solve: (gate, param slot, symbol, sign): symbol = sign*(angle - rest).
  std::vector<std::tuple<int, int, int, int>> solve;
  std::vector<std::pair<int, int>> check;  // (gate, param slot) checked after solving
  int src_gates = 0, dst_gates = 0;
};

// Compile a transformation; sets valid/why_invalid.
Xfer compile_xfer(const Circuit& src, const Circuit& dst, const PhaseExpr& phase);

struct Match {
  std::vector<int> gates;          // circuit gate of each source gate
  int qmap[kMaxPatternQubits];     // pattern qubit -> circuit qubit (-1 unused)
  Param binding[kMaxPatternSymbols];
};

// Try to match xfer x anchored at circuit gate g (source gate 0 -> g). Structural match plus
// parameter binding; convexity is checked when rewriting.
bool match_at(const Circuit& c, const Xfer& x, int g, Match& m);

// Angles equal: exact rationals exactly, floats within 1e-9 radians.
bool angles_equal(const Param& a, const Param& b);

// All xfers of a set indexed by the type of their first source gate.
struct XferIndex {
  std::vector<Xfer> xfers;
  std::vector<std::vector<int>> by_type;  // kNumGateTypes lists of valid xfer indices
  void build();
};

}  // namespace quartz
