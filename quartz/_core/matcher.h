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

// A matcher view of a gate graph: type/qubit/param of gate i and its wire neighbours
// (-1 at the circuit's ends). CircuitView adapts a Circuit; the search's Dag is another.
struct CircuitView {
  const Circuit& c;
  GateType type(int i) const { return c.gates()[i].type; }
  int qubit(int i, int k) const { return c.gates()[i].qubits[k]; }
  int next(int i, int k) const { return c.next_on_wire(i, k); }
  int prev(int i, int k) const { return c.prev_on_wire(i, k); }
  const Param& param(int i, int k) const { return c.param(i, k); }
};

// e with the symbols bound (skip_symbol, when given, is left out).
inline Param eval_expr(const Param& e, const Param* binding, int skip_symbol = -1) {
  Param r = e.constant_part();
  for (int t = 0; t < e.nterms; t++) {
    if (e.sym[t] == skip_symbol) continue;
    r = r + binding[e.sym[t]].scaled(e.coef[t]);
  }
  return r;
}

// match_at over any view V (see CircuitView): structural match along the pattern's BFS
// order, every pattern wire link a graph wire link, then the parameter plan.
template <class V>
bool match_view(const V& c, const Xfer& x, int g, Match& m) {
  const Circuit& p = x.src;
  const int n = x.src_gates;
  const std::vector<Gate>& pg = p.gates();
  if (c.type(g) != pg[0].type) return false;
  m.gates.assign(n, -1);
  for (int i = 0; i < kMaxPatternQubits; i++) m.qmap[i] = -1;
  auto assign = [&](int pj, int cg) {
    const Gate& a = pg[pj];
    for (int k = 0; k < a.num_qubits; k++) {
      int pq = a.qubits[k], cq = c.qubit(cg, k);
      if (m.qmap[pq] == -1) {
        for (int o = 0; o < kMaxPatternQubits; o++)
          if (m.qmap[o] == cq) return false;
        m.qmap[pq] = cq;
      } else if (m.qmap[pq] != cq) {
        return false;
      }
    }
    m.gates[pj] = cg;
    return true;
  };
  if (!assign(0, g)) return false;
  for (int i = 1; i < n; i++) {
    int pj = x.order[i];
    int u = m.gates[x.step_from[i]];
    int slot = x.step_from_slot[i];
    int cand = x.step_forward[i] ? c.next(u, slot) : c.prev(u, slot);
    if (cand < 0) return false;
    if (c.type(cand) != pg[pj].type) return false;
    if (c.qubit(cand, x.step_to_slot[i]) != c.qubit(u, slot)) return false;
    for (int j = 0; j < n; j++)
      if (m.gates[j] == cand) return false;
    if (!assign(pj, cand)) return false;
  }
  // Every pattern wire link must be a graph wire link.
  for (int j = 0; j < n; j++)
    for (int k = 0; k < pg[j].num_qubits; k++) {
      int pp = x.pprev[j * kMaxGateQubits + k];
      if (pp >= 0 && c.prev(m.gates[j], k) != m.gates[pp]) return false;
    }
  // Parameters.
  for (auto& st : x.solve) {
    int j = std::get<0>(st), k = std::get<1>(st), s = std::get<2>(st), sign = std::get<3>(st);
    const Param& e = p.param(j, k);
    Param rest = eval_expr(e, m.binding, s);
    m.binding[s] = (c.param(m.gates[j], k) - rest).scaled(sign);
  }
  for (auto& ck : x.check) {
    Param v = eval_expr(p.param(ck.first, ck.second), m.binding);
    if (!angles_equal(v, c.param(m.gates[ck.first], ck.second))) return false;
  }
  return true;
}

// All xfers of a set indexed by the type of their first source gate.
struct XferIndex {
  std::vector<Xfer> xfers;
  std::vector<std::vector<int>> by_type;  // kNumGateTypes lists of valid xfer indices
  void build();
};

}  // namespace quartz
