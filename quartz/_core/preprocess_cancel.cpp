// Cancellation of inverse pairs and merging of same-axis rotations on the gate DAG.
//
// A gate is moved forward along its wires past gates it commutes with exactly: two gates
// commute when, on every qubit they share, both act in the same basis (Z: diagonal gates and
// controls; X: x, rx, sx, cx targets; Y: y, ry, cy targets), because each such gate is
// block-diagonal in that basis on its shared qubits. When the gate meets its inverse the pair
// is removed; when it meets a rotation of the same kind on the same qubits the angles add.
#include <algorithm>
#include <cmath>
#include <vector>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

namespace {

enum Role : uint8_t { NONE, RZR, RXR, RYR };

Role role(const PGate& g, int k) {
  switch (g.type) {
    case GateType::RZ: case GateType::P: case GateType::U1: case GateType::Z: case GateType::S:
    case GateType::SDG: case GateType::T: case GateType::TDG: case GateType::CZ: case GateType::CP:
    case GateType::RZZ: case GateType::CCZ:
      return RZR;
    case GateType::X: case GateType::RX: case GateType::SX: case GateType::SXDG: case GateType::RXX:
      return RXR;
    case GateType::Y: case GateType::RY: case GateType::RYY:
      return RYR;
    case GateType::CX: return k == 0 ? RZR : RXR;
    case GateType::CY: return k == 0 ? RZR : RYR;
    case GateType::CH: return k == 0 ? RZR : NONE;
    case GateType::CCX: return k < 2 ? RZR : RXR;
    default: return NONE;
  }
}

bool commutes(const PGate& a, const PGate& b) {
  for (int i = 0; i < a.nq; i++)
    for (int j = 0; j < b.nq; j++)
      if (a.q[i] == b.q[j]) {
        Role r = role(a, i);
        if (r == NONE || r != role(b, j)) return false;
      }
  return true;
}

GateType inverse_type(GateType t) {
  switch (t) {
    case GateType::S: return GateType::SDG;
    case GateType::SDG: return GateType::S;
    case GateType::T: return GateType::TDG;
    case GateType::TDG: return GateType::T;
    case GateType::SX: return GateType::SXDG;
    case GateType::SXDG: return GateType::SX;
    case GateType::H: case GateType::X: case GateType::Y: case GateType::Z: case GateType::CX:
    case GateType::CY: case GateType::CZ: case GateType::CH: case GateType::SWAP: case GateType::CCX:
    case GateType::CCZ:
      return t;
    default: return GateType::NUM_TYPES;
  }
}

bool rz_like(GateType t) {  // period 4pi, and -I at 2pi
  return t == GateType::RZ || t == GateType::RX || t == GateType::RY || t == GateType::RZZ ||
         t == GateType::RXX || t == GateType::RYY;
}
bool p_like(GateType t) { return t == GateType::P || t == GateType::U1 || t == GateType::CP; }

bool same_placement(const PGate& a, const PGate& b) {
  if (a.nq != b.nq) return false;
  if (a.type == GateType::CCX)
    return a.q[2] == b.q[2] && std::minmax(a.q[0], a.q[1]) == std::minmax(b.q[0], b.q[1]);
  if (gate_info(a.type).symmetric) {
    for (int i = 0; i < a.nq; i++)
      if (std::find(b.q, b.q + b.nq, a.q[i]) == b.q + b.nq) return false;
    return true;  // distinct qubits, same count: same set
  }
  return std::equal(a.q, a.q + a.nq, b.q);
}

// Normalise a merged rotation's constant part; true when it is now the identity.
bool normalize_rotation(PGate& g, Param& phase) {
  Param c = g.p[0].constant_part();
  const int64_t w = c.reduce_mod(1);
  if (rz_like(g.type) && w % 2 != 0) phase = phase + Param::pi_frac(1, 1);
  g.p[0] = c + g.p[0].symbolic_part();
  if (g.p[0].is_symbolic()) return false;
  return c.exact ? c.num == 0 : std::fabs(c.rad) < kFloatTol;
}

class Canceller {
 public:
  Canceller(const Circuit& c, int window)
      : g_(to_list(c)), n_(c.num_qubits()), window_(std::max(1, window)), phase_(c.global_phase()) {
    const size_t m = g_.size();
    alive_.assign(m, 1);
    prev_.assign(3 * m, -1);
    next_.assign(3 * m, -1);
    queued_.assign(m, 0);
    std::vector<int> last(n_, -1);
    for (size_t i = 0; i < m; i++)
      for (int k = 0; k < g_[i].nq; k++) {
        int q = g_[i].q[k], p = last[q];
        prev_[3 * i + k] = p;
        if (p >= 0) next_[3 * p + slot(p, q)] = static_cast<int>(i);
        last[q] = static_cast<int>(i);
      }
  }

  Circuit run() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (int i = static_cast<int>(g_.size()) - 1; i >= 0; i--) push(i);
      while (!stack_.empty()) {
        int i = stack_.back();
        stack_.pop_back();
        queued_[i] = 0;
        if (alive_[i] && reduce(i)) changed = true;
      }
    }
    std::vector<PGate> out;
    for (size_t i = 0; i < g_.size(); i++)
      if (alive_[i]) out.push_back(g_[i]);
    return from_list(n_, out, phase_);
  }

 private:
  int slot(int j, int q) const {
    for (int k = 0; k < g_[j].nq; k++)
      if (g_[j].q[k] == q) return k;
    return -1;
  }

  void push(int i) {
    if (i >= 0 && alive_[i] && !queued_[i]) {
      queued_[i] = 1;
      stack_.push_back(i);
    }
  }

  void remove(int x) {
    alive_[x] = 0;
    for (int k = 0; k < g_[x].nq; k++) {
      const int q = g_[x].q[k], p = prev_[3 * x + k], nx = next_[3 * x + k];
      if (p >= 0) next_[3 * p + slot(p, q)] = nx;
      if (nx >= 0) prev_[3 * nx + slot(nx, q)] = p;
      // Gates before x on this wire may now reach a partner.
      int cur = p;
      for (int s = 0; cur >= 0 && s < 8; s++) {
        push(cur);
        cur = prev_[3 * cur + slot(cur, q)];
      }
    }
  }

  // Every gate between i and j on i's wires other than slot 0 commutes with i.
  bool path_ok(int i, int j) const {
    for (int k = 1; k < g_[i].nq; k++) {
      const int q = g_[i].q[k];
      int cur = next_[3 * i + k];
      for (int s = 0; cur != j; s++) {
        if (cur < 0 || cur > j || s > window_ || !commutes(g_[i], g_[cur])) return false;
        cur = next_[3 * cur + slot(cur, q)];
      }
    }
    return true;
  }

  bool reduce(int i) {
    PGate& a = g_[i];
    const bool rot = rz_like(a.type) || p_like(a.type);
    if (rot) {
      PGate t = a;
      Param ph = phase_;
      if (normalize_rotation(t, ph)) {
        phase_ = ph;
        remove(i);
        return true;
      }
    }
    const GateType inv = inverse_type(a.type);
    const int q0 = a.q[0];
    int cur = next_[3 * i];
    for (int s = 0; cur >= 0 && s < window_; s++) {
      PGate& b = g_[cur];
      const bool pair = (inv != GateType::NUM_TYPES && b.type == inv) || (rot && b.type == a.type);
      if (pair && same_placement(a, b) && path_ok(i, cur)) {
        if (!rot) {
          remove(i);
          remove(cur);
        } else {
          b.p[0] = a.p[0] + b.p[0];
          remove(i);
          if (normalize_rotation(b, phase_)) remove(cur);
          else push(cur);
        }
        return true;
      }
      if (!commutes(a, b)) break;
      cur = next_[3 * cur + slot(cur, q0)];
    }
    return false;
  }

  std::vector<PGate> g_;
  int n_;
  int window_;
  Param phase_;
  std::vector<uint8_t> alive_, queued_;
  std::vector<int> prev_, next_, stack_;
};

}  // namespace

Circuit cancel_inverses(const Circuit& c, int window) { return Canceller(c, window).run(); }

}  // namespace preprocess
}  // namespace quartz
