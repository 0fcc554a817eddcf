#include "rewrite.h"

#include <algorithm>
#include <cmath>

namespace quartz {

namespace {

bool has_4pi_period(GateType t) {
  return t == GateType::RX || t == GateType::RY || t == GateType::RZ || t == GateType::RXX ||
         t == GateType::RYY || t == GateType::RZZ;
}

bool is_rotation(GateType t) {
  return has_4pi_period(t) || t == GateType::P || t == GateType::U1 || t == GateType::CP;
}

Param times_rational(const Param& a, int64_t num, int64_t den) {
  if (a.exact) return Param::pi_frac(a.num * num, a.den * den);
  return Param::radians(a.rad * static_cast<double>(num) / static_cast<double>(den));
}

Param eval_target(const Param& e, const Param* binding) {
  Param r = e.constant_part();
  for (int t = 0; t < e.nterms; t++) r = r + binding[e.sym[t]].scaled(e.coef[t]);
  return r;
}

}  // namespace

bool normalize_rotation(GateType t, Param& angle, Param& phase) {
  if (!is_rotation(t) || angle.is_symbolic()) return true;
  int64_t w = angle.reduce_mod(1);
  if (w != 0 && has_4pi_period(t)) phase = phase + Param::pi_frac(w, 1);
  if (angle.exact) return angle.num != 0;
  return std::fabs(angle.rad) >= 1e-12;
}

void copy_gate(Circuit& out, const Circuit& c, int i) {
  thread_local std::vector<int> qs;
  thread_local std::vector<Param> ps;
  const Gate& g = c.gates()[i];
  qs.assign(g.qubits, g.qubits + g.num_qubits);
  ps.clear();
  for (int k = 0; k < g.num_params; k++) ps.push_back(c.param(i, k));
  out.add_gate(g.type, qs, ps);
}

Circuit normalize_circuit(const Circuit& c) {
  Circuit out(c.num_qubits());
  Param phase = c.global_phase();
  std::vector<int> qs;
  std::vector<Param> ps;
  for (int i = 0; i < c.num_gates(); i++) {
    const Gate& g = c.gates()[i];
    qs.assign(g.qubits, g.qubits + g.num_qubits);
    ps.clear();
    for (int k = 0; k < g.num_params; k++) ps.push_back(c.param(i, k));
    if (g.num_params == 1 && !normalize_rotation(g.type, ps[0], phase)) continue;
    out.add_gate(g.type, qs, ps);
  }
  if (!phase.is_symbolic()) phase.reduce_mod(1);
  out.set_global_phase(phase);
  return out;
}


bool match_is_convex(const Circuit& c, const Match& m) {
  int lo, hi;
  std::vector<char> st;
  return c.convex_span(m.gates, lo, hi, st);
}

bool bound_phase(const Xfer& x, const Match& m, Param& phase) {
  phase = Param::pi_frac(x.phase.cnum, x.phase.cden);
  for (auto& t : x.phase.terms) {
    const Param& a = m.binding[std::get<0>(t)];
    if (a.is_symbolic()) return false;
    phase = phase + times_rational(a, std::get<1>(t), std::get<2>(t));
  }
  return true;
}

bool apply_match(const Circuit& c, const Xfer& x, const Match& m, Circuit& out, int* target_pos) {
  Param phase;
  if (!bound_phase(x, m, phase)) return false;
  int lo, hi;
  thread_local std::vector<char> st;
  if (!c.convex_span(m.gates, lo, hi, st)) return false;  // not convex
  Param gp = c.global_phase() - phase;
  Circuit r(c.num_qubits());
  for (int i = 0; i < lo; i++) copy_gate(r, c, i);
  for (int i = lo; i <= hi; i++)
    if (st[i - lo] == 0) copy_gate(r, c, i);
  if (target_pos) *target_pos = r.num_gates();
  std::vector<int> qs;
  std::vector<Param> ps;
  const Circuit& d = x.dst;
  for (int i = 0; i < d.num_gates(); i++) {
    const Gate& g = d.gates()[i];
    qs.resize(g.num_qubits);
    for (int k = 0; k < g.num_qubits; k++) qs[k] = m.qmap[g.qubits[k]];
    ps.clear();
    bool keep = true;
    for (int k = 0; k < g.num_params; k++) {
      ps.push_back(eval_target(d.param(i, k), m.binding));
    }
    if (g.num_params == 1) keep = normalize_rotation(g.type, ps[0], gp);
    if (keep) r.add_gate(g.type, qs, ps);
  }
  for (int i = lo; i <= hi; i++)
    if (st[i - lo] == 2) copy_gate(r, c, i);
  for (int i = hi + 1; i < c.num_gates(); i++) copy_gate(r, c, i);
  gp.reduce_mod(1);
  r.set_global_phase(gp);
  out = std::move(r);
  return true;
}

Circuit splice(const Circuit& c, int begin, int end, const Circuit& rep) {
  Circuit r(c.num_qubits());
  for (int i = 0; i < begin; i++) copy_gate(r, c, i);
  for (int i = 0; i < rep.num_gates(); i++) copy_gate(r, rep, i);
  for (int i = end; i < c.num_gates(); i++) copy_gate(r, c, i);
  Param gp = c.global_phase() + rep.global_phase();
  gp.reduce_mod(1);
  r.set_global_phase(gp);
  return r;
}

}  // namespace quartz
