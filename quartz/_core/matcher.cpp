#include "matcher.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace quartz {

bool angles_equal(const Param& a, const Param& b) {
  if (a == b) return true;
  if (a.is_symbolic() || b.is_symbolic()) {
    if (a.symbolic_part() != b.symbolic_part()) return false;
  }
  if (a.exact && b.exact) return false;
  return std::fabs(a.const_radians() - b.const_radians()) < 1e-9;
}

Xfer compile_xfer(const Circuit& src, const Circuit& dst, const PhaseExpr& phase) {
  Xfer x;
  x.src = src;
  x.dst = dst;
  x.phase = phase;
  x.src_gates = src.num_gates();
  x.dst_gates = dst.num_gates();
  auto fail = [&x](const std::string& why) {
    x.valid = false;
    x.why_invalid = why;
    return x;
  };
  const int n = src.num_gates();
  if (n == 0) return fail("empty source");
  if (src.num_qubits() > kMaxPatternQubits || dst.num_qubits() > kMaxPatternQubits)
    return fail("too many qubits");
  std::vector<char> used(std::max(src.num_qubits(), dst.num_qubits()), 0);
  for (const Gate& g : src.gates())
    for (int k = 0; k < g.num_qubits; k++) used[g.qubits[k]] = 1;
  for (const Gate& g : dst.gates())
    for (int k = 0; k < g.num_qubits; k++)
      if (g.qubits[k] >= static_cast<int>(used.size()) || !used[g.qubits[k]])
        return fail("target uses a qubit the source does not touch");
  // Symbols.
  int nsym = 0;
  auto scan = [&nsym](const Param& p) {
    for (int t = 0; t < p.nterms; t++) nsym = std::max(nsym, p.sym[t] + 1);
  };
  for (int i = 0; i < n; i++)
    for (int k = 0; k < src.gate(i).num_params; k++) scan(src.param(i, k));
  for (int i = 0; i < dst.num_gates(); i++)
    for (int k = 0; k < dst.gate(i).num_params; k++) scan(dst.param(i, k));
  for (auto& t : phase.terms) nsym = std::max(nsym, std::get<0>(t) + 1);
  if (nsym > kMaxPatternSymbols) return fail("too many symbols");
  x.num_symbols = nsym;
  // Wire links.
  x.pprev.assign(n * kMaxGateQubits, -1);
  x.pnext.assign(n * kMaxGateQubits, -1);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < src.gate(i).num_qubits; k++) {
      x.pprev[i * kMaxGateQubits + k] = src.prev_on_wire(i, k);
      x.pnext[i * kMaxGateQubits + k] = src.next_on_wire(i, k);
    }
  // BFS match order from gate 0.
  std::vector<char> seen(n, 0);
  x.order = {0};
  x.step_from = {-1};
  x.step_from_slot = {-1};
  x.step_to_slot = {-1};
  x.step_forward = {0};
  std::vector<int> pos(n, -1);
  pos[0] = 0;
  seen[0] = 1;
  for (size_t h = 0; h < x.order.size(); h++) {
    int u = x.order[h];
    const Gate& gu = src.gate(u);
    for (int dir = 0; dir < 2; dir++)
      for (int k = 0; k < gu.num_qubits; k++) {
        int v = (dir == 0 ? x.pnext : x.pprev)[u * kMaxGateQubits + k];
        if (v < 0 || seen[v]) continue;
        seen[v] = 1;
        const Gate& gv = src.gate(v);
        int to = -1;
        for (int s = 0; s < gv.num_qubits; s++)
          if (gv.qubits[s] == gu.qubits[k]) to = s;
        x.order.push_back(v);
        x.step_from.push_back(u);
        x.step_from_slot.push_back(k);
        x.step_to_slot.push_back(to);
        x.step_forward.push_back(dir == 0);
      }
  }
  if (static_cast<int>(x.order.size()) != n) return fail("source is not qubit-connected");
  // Parameter plan.
  std::vector<char> known(nsym, 0);
  std::vector<std::pair<int, int>> pending;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < src.gate(i).num_params; k++) pending.emplace_back(i, k);
  bool progress = true;
  while (progress) {
    progress = false;
    for (size_t s = 0; s < pending.size(); s++) {
      const Param& e = src.param(pending[s].first, pending[s].second);
      int unknown = 0, which = -1, coef = 0;
      for (int t = 0; t < e.nterms; t++)
        if (!known[e.sym[t]]) { unknown++; which = e.sym[t]; coef = e.coef[t]; }
      if (unknown == 1 && (coef == 1 || coef == -1)) {
        x.solve.emplace_back(pending[s].first, pending[s].second, which, coef);
        known[which] = 1;
        pending.erase(pending.begin() + s);
        progress = true;
        break;
      }
    }
  }
  for (auto& ps : pending) {
    const Param& e = src.param(ps.first, ps.second);
    for (int t = 0; t < e.nterms; t++)
      if (!known[e.sym[t]]) return fail("source parameters cannot be solved");
    x.check.push_back(ps);
  }
  for (int s = 0; s < nsym; s++)
    if (!known[s]) return fail("target or phase uses a symbol absent from the source");
  x.valid = true;
  return x;
}

bool match_at(const Circuit& c, const Xfer& x, int g, Match& m) {
  return match_view(CircuitView{c}, x, g, m);
}

void XferIndex::build() {
  by_type.assign(kNumGateTypes, {});
  for (size_t i = 0; i < xfers.size(); i++)
    if (xfers[i].valid) by_type[static_cast<int>(xfers[i].src.gate(0).type)].push_back(static_cast<int>(i));
}

}  // namespace quartz
