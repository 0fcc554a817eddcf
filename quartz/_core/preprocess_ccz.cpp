// CCZ / CCX decomposition into Nam gates with greedily chosen polarity (Quartz's Toffoli flip).
//
// CCZ(a,b,c) = exp(i pi/4 [a + b + c - a^b - a^c - b^c + a^b^c]) is 6 cx + 7 rz(+-pi/4) (times
// the phase e^{i pi/8}); CCZ is self-inverse, so flipping every sign is a second decomposition.
// The decomposition's cx gates restore every wire, so the parity of each of its 7 rotations is
// known before any polarity is chosen. The gate count after rotation merging is then the number
// of parity classes whose total angle is not the identity, so the greedy choice of each gate
// (in circuit order, against the rotations already fixed, as Quartz does by re-running rotation
// merging on the whole circuit) needs only its 7 classes: O(1) per gate.
#include <unordered_map>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

namespace {

struct CczInfo {
  int cls[7];
  int8_t sign[7];  // contribution of polarity +1 to the class, in units of pi/4
};

void emit_decomposition(std::vector<PGate>& out, int a, int b, int c, int s, DiagStyle style,
                        Param& phase) {
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
  phase = phase + Param::pi_frac(s, 8);  // CCZ = e^{i s pi/8} prod rz(sigma s pi/4)
}

}  // namespace

Circuit decompose_ccz_greedy(const Circuit& c, DiagStyle style, int refine_passes, CczStats* stats) {
  const std::vector<PGate> g = to_list(c);
  const int n = c.num_qubits();
  std::unordered_map<Parity, int, ParityHash, ParityLinearEq> index;
  std::vector<Param> total;  // per class: fixed rotations (+ chosen decompositions)
  auto class_of = [&](const Parity& p) {
    auto it = index.find(p);
    if (it != index.end()) return it->second;
    int id = static_cast<int>(total.size());
    index.emplace(p, id);
    total.emplace_back();
    return id;
  };
  std::vector<CczInfo> cczs;
  WireTracker wires(n);
  for (const PGate& gate : g) {
    if (gate.type == GateType::CCZ || gate.type == GateType::CCX) {
      const int a = gate.q[0], b = gate.q[1], t = gate.q[2];
      if (gate.type == GateType::CCX) wires.fresh(t);  // ccx = h(t) ccz h(t)
      Parity pa = wires.wire(a), pb = wires.wire(b), pc = wires.wire(t);
      Parity ab = pa, ac = pa, bc = pb;
      parity_xor(ab, pb);
      parity_xor(ac, pc);
      parity_xor(bc, pc);
      Parity abc = ab;
      parity_xor(abc, pc);
      const Parity* ps[7] = {&pa, &pb, &pc, &ab, &ac, &bc, &abc};
      static const int sigma[7] = {1, 1, 1, -1, -1, -1, 1};
      CczInfo info;
      for (int k = 0; k < 7; k++) {
        info.cls[k] = class_of(*ps[k]);
        info.sign[k] = static_cast<int8_t>(ps[k]->neg ? -sigma[k] : sigma[k]);
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
      const int v = s * info.sign[k];
      Param add = v > 0 ? quarter : minus_quarter;
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

  std::vector<PGate> out;
  out.reserve(g.size() + 14 * cczs.size());
  Param phase = c.global_phase();
  size_t j = 0;
  int negative = 0;
  for (const PGate& gate : g) {
    if (gate.type == GateType::CCZ || gate.type == GateType::CCX) {
      const int s = pol[j++];
      negative += s < 0;
      const int a = gate.q[0], b = gate.q[1], t = gate.q[2];
      if (gate.type == GateType::CCX) out.push_back(make_gate(GateType::H, t));
      emit_decomposition(out, a, b, t, s, style, phase);
      if (gate.type == GateType::CCX) out.push_back(make_gate(GateType::H, t));
    } else {
      out.push_back(gate);
    }
  }
  if (stats) {
    stats->num_ccz = static_cast<int>(cczs.size());
    stats->negative = negative;
    stats->refined_flips = flips;
    int cost = 0;
    for (const Param& t : total) cost += rz_cost(t, style);
    stats->rotation_cost = cost;
  }
  return from_list(n, out, phase);
}

}  // namespace preprocess
}  // namespace quartz
