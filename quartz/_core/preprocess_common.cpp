// Shared pieces of the preprocessing passes: gate lists, wire parities, rotation emission.
#include <algorithm>
#include <cmath>
#include <utility>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

std::vector<PGate> to_list(const Circuit& c) {
  std::vector<PGate> out;
  out.reserve(c.num_gates());
  for (int i = 0; i < c.num_gates(); i++) {
    const Gate& g = c.gates()[i];
    PGate p;
    p.type = g.type;
    p.nq = g.num_qubits;
    p.np = g.num_params;
    for (int k = 0; k < g.num_qubits; k++) p.q[k] = g.qubits[k];
    for (int k = 0; k < g.num_params; k++) p.p[k] = c.param(i, k);
    out.push_back(p);
  }
  return out;
}

Circuit from_list(int n, const std::vector<PGate>& gates, const Param& phase) {
  Circuit c(n);
  std::vector<int> qs;
  std::vector<Param> ps;
  for (const PGate& g : gates) {
    qs.assign(g.q, g.q + g.nq);
    ps.assign(g.p, g.p + g.np);
    c.add_gate(g.type, qs, ps);
  }
  Param ph = phase;
  ph.reduce_mod(1);
  c.set_global_phase(ph);
  return c;
}

PGate make_gate(GateType t, int q0, int q1, int q2) {
  PGate g;
  g.type = t;
  const GateInfo& info = gate_info(t);
  g.nq = static_cast<uint8_t>(info.num_qubits);
  g.np = static_cast<uint8_t>(info.num_params);
  g.q[0] = q0;
  g.q[1] = q1;
  g.q[2] = q2;
  return g;
}

PGate make_rot(GateType t, int q, const Param& angle) {
  PGate g = make_gate(t, q);
  g.p[0] = angle;
  return g;
}

uint64_t var_key(uint32_t v) {
  uint64_t z = static_cast<uint64_t>(v) * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void parity_xor(Parity& t, const Parity& s) {
  std::vector<uint32_t> out;
  out.reserve(t.vars.size() + s.vars.size());
  size_t i = 0, j = 0;
  while (i < t.vars.size() || j < s.vars.size()) {
    if (j >= s.vars.size() || (i < t.vars.size() && t.vars[i] < s.vars[j])) out.push_back(t.vars[i++]);
    else if (i >= t.vars.size() || s.vars[j] < t.vars[i]) out.push_back(s.vars[j++]);
    else { i++; j++; }
  }
  t.vars.swap(out);
  t.hash ^= s.hash;
  t.neg ^= s.neg;
}

WireTracker::WireTracker(int n) : w_(n), next_var_(static_cast<uint32_t>(n)) {
  for (int q = 0; q < n; q++) {
    w_[q].vars = {static_cast<uint32_t>(q)};
    w_[q].hash = var_key(q);
  }
}

void WireTracker::fresh(int q) {
  Parity& p = w_[q];
  p.vars.assign(1, next_var_);
  p.hash = var_key(next_var_);
  p.neg = false;
  next_var_++;
}

void WireTracker::apply(const PGate& g, Kind k) {
  switch (k) {
    case Kind::CX: parity_xor(w_[g.q[1]], w_[g.q[0]]); break;
    case Kind::X: w_[g.q[0]].neg = !w_[g.q[0]].neg; break;
    case Kind::SWAP: std::swap(w_[g.q[0]], w_[g.q[1]]); break;
    case Kind::ROT:
    case Kind::DIAG: break;
    case Kind::OTHER:
      for (int k2 = 0; k2 < g.nq; k2++) fresh(g.q[k2]);
      break;
  }
}

Kind classify(const PGate& g, DiagStyle style) {
  const bool phase_style = style != DiagStyle::RZ;
  switch (g.type) {
    case GateType::CX: return Kind::CX;
    case GateType::X: return Kind::X;
    case GateType::SWAP: return Kind::SWAP;
    case GateType::RZ: return (phase_style && g.p[0].is_symbolic()) ? Kind::DIAG : Kind::ROT;
    case GateType::P:
    case GateType::U1: return g.p[0].is_symbolic() ? Kind::DIAG : Kind::ROT;
    case GateType::T: case GateType::TDG: case GateType::S: case GateType::SDG: case GateType::Z:
      return Kind::ROT;
    default:
      return gate_info(g.type).diagonal ? Kind::DIAG : Kind::OTHER;
  }
}

void rot_as_rz(const PGate& g, Param& theta, Param& phase) {
  switch (g.type) {
    case GateType::RZ: theta = g.p[0]; phase = Param(); return;
    case GateType::P:
    case GateType::U1:  // p(l) = e^{i l/2} rz(l)
      theta = g.p[0];
      phase = g.p[0].exact ? Param::pi_frac(g.p[0].num, g.p[0].den * 2) : Param::radians(g.p[0].rad / 2);
      return;
    case GateType::T: theta = Param::pi_frac(1, 4); phase = Param::pi_frac(1, 8); return;
    case GateType::TDG: theta = Param::pi_frac(-1, 4); phase = Param::pi_frac(-1, 8); return;
    case GateType::S: theta = Param::pi_frac(1, 2); phase = Param::pi_frac(1, 4); return;
    case GateType::SDG: theta = Param::pi_frac(-1, 2); phase = Param::pi_frac(-1, 4); return;
    case GateType::Z: theta = Param::pi_frac(1, 1); phase = Param::pi_frac(1, 2); return;
    default: theta = Param(); phase = Param(); return;
  }
}

namespace {

bool const_is_zero(const Param& p) {
  return p.exact ? p.num == 0 : std::fabs(p.rad) < kFloatTol;
}

Param half(const Param& p) {
  return p.exact ? Param::pi_frac(p.num, p.den * 2) : Param::radians(p.rad / 2);
}

// rz(theta) written as rz with the constant part reduced into (-pi, pi]; rz(t + 2pi) = -rz(t).
int emit_as_rz(std::vector<PGate>* out, int q, const Param& theta, Param& phase) {
  Param c = theta.constant_part();
  int64_t w = c.reduce_mod(1);
  if (w % 2 != 0) phase = phase + Param::pi_frac(1, 1);
  Param t = c + theta.symbolic_part();
  if (!t.is_symbolic() && const_is_zero(t)) return 0;
  if (out) out->push_back(make_rot(GateType::RZ, q, t));
  return 1;
}

}  // namespace

int emit_rz(std::vector<PGate>& out, int q, Param theta, DiagStyle style, Param& phase) {
  std::vector<PGate>* o = &out;
  if (style == DiagStyle::RZ || theta.is_symbolic()) return emit_as_rz(o, q, theta, phase);
  if (style == DiagStyle::P || style == DiagStyle::U1) {
    // rz(t) = e^{-i t/2} p(t); p has period 2pi.
    Param l = theta;
    l.reduce_mod(1);
    if (const_is_zero(l)) {
      // Still exact: rz(t) with p(t) = I means t = 2pi k, rz = (-1)^k.
      return emit_as_rz(o, q, theta, phase);
    }
    phase = phase - half(theta);
    o->push_back(make_rot(style == DiagStyle::P ? GateType::P : GateType::U1, q, l));
    return 1;
  }
  // Clifford+T style: needs an exact multiple of pi/4.
  if (!theta.exact || (theta.num * 4) % theta.den != 0) return emit_as_rz(o, q, theta, phase);
  int64_t k = ((theta.num * 4 / theta.den) % 8 + 8) % 8;
  phase = phase - half(theta);
  static const GateType seq[8][2] = {
      {GateType::NUM_TYPES, GateType::NUM_TYPES}, {GateType::T, GateType::NUM_TYPES},
      {GateType::S, GateType::NUM_TYPES},         {GateType::S, GateType::T},
      {GateType::Z, GateType::NUM_TYPES},         {GateType::SDG, GateType::TDG},
      {GateType::SDG, GateType::NUM_TYPES},       {GateType::TDG, GateType::NUM_TYPES}};
  int n = 0;
  if (k == 4 && style == DiagStyle::TNZ) {
    out.push_back(make_gate(GateType::S, q));
    out.push_back(make_gate(GateType::S, q));
    return 2;
  }
  for (GateType t : seq[k])
    if (t != GateType::NUM_TYPES) { out.push_back(make_gate(t, q)); n++; }
  return n;
}

int rz_cost(const Param& theta, DiagStyle style) {
  Param c = theta.constant_part();
  if (style == DiagStyle::RZ || style == DiagStyle::P || style == DiagStyle::U1 || theta.is_symbolic() ||
      !theta.exact || (theta.num * 4) % theta.den != 0) {
    c.reduce_mod(1);
    return (!theta.is_symbolic() && const_is_zero(c)) ? 0 : 1;
  }
  int64_t k = ((theta.num * 4 / theta.den) % 8 + 8) % 8;
  static const int cost[8] = {0, 1, 1, 2, 1, 2, 1, 1};
  if (k == 4 && style == DiagStyle::TNZ) return 2;
  return cost[k];
}

}  // namespace preprocess
}  // namespace quartz
