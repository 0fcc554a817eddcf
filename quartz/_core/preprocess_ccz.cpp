// CCZ / CCX decomposition into Nam gates with greedily chosen polarity (Quartz's Toffoli flip).
//
// CCZ(a,b,c) = exp(i pi/4 [a + b + c - a^b - a^c - b^c + a^b^c]) is 6 cx + 7 rz(+-pi/4) (times
// the phase e^{i pi/8}); CCZ is self-inverse, so flipping every sign is a second decomposition.
// The decomposition's cx gates restore every wire, so the parity of each of its 7 rotations is
// known before any polarity is chosen. The gate count after rotation merging is then the number
// of parity classes whose total angle is not the identity, so the greedy choice of each gate
// (in circuit order, against the rotations already fixed, as Quartz does by re-running rotation
// merging on the whole circuit) needs only its 7 classes: O(1) per gate.
//
// Resynthesis: once the polarities are fixed, every class total is known. Each non-identity
// class is written once: at its first existing rotation if it has one, else in the first Toffoli
// that carries it; a Toffoli then needs a cx ladder only for the parities it carries.
#include <unordered_map>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

namespace {

// Parities of the 7 terms, as row masks over (a, b, c), and their signs in polarity +1.
const int kRows[7] = {1, 2, 4, 3, 5, 6, 7};
const int kSigma[7] = {1, 1, 1, -1, -1, -1, 1};

struct CczInfo {
  int cls[7];
  bool neg[7];  // the wire holding this parity is negated
  int8_t sign[7];  // contribution of polarity +1 to the class, in units of pi/4
};

void emit_nam(std::vector<PGate>& out, int a, int b, int c, int s, DiagStyle style, Param& phase) {
  const Param q = Param::pi_frac(s, 4);
  auto R = [&](int sigma, int qubit) { emit_rz(out, qubit, sigma > 0 ? q : -q, style, phase); };
  out.push_back(make_gate(GateType::CX, b, c));
  R(-1, c);
  out.push_back(make_gate(GateType::CX, a, c));
  R(+1, c);
  out.push_back(make_gate(GateType::CX, b, c));
  R(-1, c);
  out.push_back(make_gate(GateType::CX, a, c));
  out.push_back(make_gate(GateType::CX, a, b));
  R(+1, c);
  R(-1, b);
  out.push_back(make_gate(GateType::CX, a, b));
  R(+1, a);
  R(+1, b);
}

}  // namespace

Circuit decompose_ccz_greedy(const Circuit& c, DiagStyle style, int refine_passes, bool resynthesize,
                             CczStats* stats) {
  const std::vector<PGate> g = to_list(c);
  const int n = c.num_qubits();
  std::unordered_map<Parity, int, ParityHash, ParityLinearEq> index;
  std::vector<Param> total;      // per class: fixed rotations (+ chosen decompositions)
  std::vector<int> first_fixed;  // per class: first existing rotation gate, or -1
  auto class_of = [&](const Parity& p) {
    auto it = index.find(p);
    if (it != index.end()) return it->second;
    int id = static_cast<int>(total.size());
    index.emplace(p, id);
    total.emplace_back();
    first_fixed.push_back(-1);
    return id;
  };
  std::vector<CczInfo> cczs;
  std::vector<int> rot_class(g.size(), -1);
  std::vector<uint8_t> rot_neg(g.size(), 0);
  Param phase = c.global_phase();
  WireTracker wires(n);
  for (size_t i = 0; i < g.size(); i++) {
    const PGate& gate = g[i];
    if (gate.type == GateType::CCZ || gate.type == GateType::CCX) {
      const int t = gate.q[2];
      if (gate.type == GateType::CCX) wires.fresh(t);  // ccx = h(t) ccz h(t)
      const Parity* w[3] = {&wires.wire(gate.q[0]), &wires.wire(gate.q[1]), &wires.wire(t)};
      CczInfo info;
      for (int k = 0; k < 7; k++) {
        Parity p;
        for (int j = 0; j < 3; j++)
          if (kRows[k] >> j & 1) parity_xor(p, *w[j]);
        info.cls[k] = class_of(p);
        info.neg[k] = p.neg;
        info.sign[k] = static_cast<int8_t>(p.neg ? -kSigma[k] : kSigma[k]);
      }
      cczs.push_back(info);
      if (gate.type == GateType::CCX) wires.fresh(t);
      continue;
    }
    const Kind k = classify(gate, style);
    if (k == Kind::ROT) {
      Param theta, ph;
      rot_as_rz(gate, theta, ph);
      const Parity& w = wires.wire(gate.q[0]);
      const int id = class_of(w);
      total[id] = total[id] + (w.neg ? -theta : theta);
      if (first_fixed[id] < 0) first_fixed[id] = static_cast<int>(i);
      rot_class[i] = id;
      rot_neg[i] = w.neg;
      if (resynthesize) phase = phase + ph;  // the gate is rewritten as rz plus this phase
    }
    wires.apply(gate, k);
  }

  const Param quarter = Param::pi_frac(1, 4);
  const Param minus_quarter = Param::pi_frac(-1, 4);
  auto delta_of = [&](const CczInfo& info, int s, int scale) {
    // Cost change of adding scale * s * sign * pi/4 to each of the 7 classes.
    int d = 0;
    for (int k = 0; k < 7; k++) {
      const Param& t = total[info.cls[k]];
      Param add = s * info.sign[k] > 0 ? quarter : minus_quarter;
      if (scale == 2) add = add + add;
      d += rz_cost(t + add, style) - rz_cost(t, style);
    }
    return d;
  };
  auto add_to = [&](const CczInfo& info, int s, int scale) {
    for (int k = 0; k < 7; k++) {
      Param add = (s * info.sign[k]) > 0 ? quarter : minus_quarter;
      if (scale == 2) add = add + add;
      total[info.cls[k]] = total[info.cls[k]] + add;
    }
  };
  std::vector<int> pol(cczs.size(), 1);
  for (size_t j = 0; j < cczs.size(); j++) {
    const int plus = delta_of(cczs[j], 1, 1), minus = delta_of(cczs[j], -1, 1);
    pol[j] = minus < plus ? -1 : 1;
    add_to(cczs[j], pol[j], 1);
  }
  int flips = 0;
  for (int pass = 0; pass < refine_passes; pass++) {
    bool any = false;
    for (size_t j = 0; j < cczs.size(); j++) {
      // Flipping replaces +v by -v in each class: add -2v.
      if (delta_of(cczs[j], -pol[j], 2) < 0) {
        add_to(cczs[j], -pol[j], 2);
        pol[j] = -pol[j];
        flips++;
        any = true;
      }
    }
    if (!any) break;
  }

  // Resynthesis: which Toffoli carries each class without an existing rotation (bit mask of
  // its 7 terms per Toffoli).
  std::vector<uint8_t> carry(cczs.size(), 0);
  if (resynthesize) {
    // A class without an existing rotation whose total is the identity up to phase (rz(2pi k)
    // = (-1)^k) is written nowhere: its phase goes to the global phase here.
    std::vector<PGate> none;
    for (size_t id = 0; id < total.size(); id++)
      if (first_fixed[id] < 0 && rz_cost(total[id], style) == 0) emit_rz(none, 0, total[id], style, phase);
    std::vector<uint8_t> assigned(total.size(), 0);
    for (size_t j = 0; j < cczs.size(); j++)
      for (int k = 0; k < 7; k++) {
        const int id = cczs[j].cls[k];
        if (assigned[id] || first_fixed[id] >= 0 || rz_cost(total[id], style) == 0) continue;
        assigned[id] = 1;
        carry[j] |= static_cast<uint8_t>(1 << k);
      }
  }

  std::vector<PGate> out;
  out.reserve(g.size() + 14 * cczs.size());
  size_t j = 0;
  int negative = 0, cx = 0;
  std::vector<std::pair<int, int>> ladder;
  for (size_t i = 0; i < g.size(); i++) {
    const PGate& gate = g[i];
    if (gate.type == GateType::CCZ || gate.type == GateType::CCX) {
      const int s = pol[j];
      const CczInfo& info = cczs[j];
      const int mask = carry[j];
      j++;
      negative += s < 0;
      const int q[3] = {gate.q[0], gate.q[1], gate.q[2]};
      if (gate.type == GateType::CCX) out.push_back(make_gate(GateType::H, q[2]));
      phase = phase + Param::pi_frac(s, 8);  // CCZ = e^{i s pi/8} prod rz(sigma s pi/4)
      const size_t before = out.size();
      if (!resynthesize) {
        emit_nam(out, q[0], q[1], q[2], s, style, phase);
      } else {
        // Every term's own contribution goes into its class total (written elsewhere or here).
        auto write = [&](int k, int wire) {
          const Param& t = total[info.cls[k]];
          emit_rz(out, wire, info.neg[k] ? -t : t, style, phase);
        };
        for (int k = 0; k < 3; k++)
          if (mask >> k & 1) write(k, q[k]);
        int need = 0;
        for (int k = 3; k < 7; k++)
          if (mask >> k & 1) need |= 1 << (kRows[k] - 1);
        int rows[3] = {1, 2, 4};
        shortest_ladder(3, rows, need, ladder);
        int todo = mask & ~7;
        for (const auto& mv : ladder) {
          out.push_back(make_gate(GateType::CX, q[mv.first], q[mv.second]));
          rows[mv.second] ^= rows[mv.first];
          for (int k = 3; k < 7; k++)
            if ((todo >> k & 1) && kRows[k] == rows[mv.second]) {
              write(k, q[mv.second]);
              todo &= ~(1 << k);
            }
        }
      }
      for (size_t o = before; o < out.size(); o++) cx += out[o].type == GateType::CX;
      if (gate.type == GateType::CCX) out.push_back(make_gate(GateType::H, q[2]));
      continue;
    }
    if (resynthesize && rot_class[i] >= 0) {
      const int id = rot_class[i];
      if (first_fixed[id] == static_cast<int>(i)) {
        const Param& t = total[id];
        emit_rz(out, gate.q[0], rot_neg[i] ? -t : t, style, phase);
      }
      continue;
    }
    out.push_back(gate);
  }
  if (stats) {
    stats->num_ccz = static_cast<int>(cczs.size());
    stats->negative = negative;
    stats->refined_flips = flips;
    int cost = 0;
    for (const Param& t : total) cost += rz_cost(t, style);
    stats->rotation_cost = cost;
    stats->cx = cx;
  }
  return from_list(n, out, phase);
}

}  // namespace preprocess
}  // namespace quartz
