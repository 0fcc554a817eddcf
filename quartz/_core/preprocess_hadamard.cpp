// Hadamard-conjugated cx networks written with their cx gates reversed.
//
// H (x) H . cx(a, b) . H (x) H = cx(b, a), so for a network L of cx gates on the qubits P,
// H on A (a subset of P) before it and H on B after it,
//     H^A . L . H^B = H^(P \ A) . rev(L) . H^(P \ B),
// rev(L) being L with every cx's control and target swapped, in the same order on every wire.
// The right side has 2|P| - |A| - |B| Hadamards instead of |A| + |B|. The pass finds the
// networks as connected components of maximal cx runs on the wires (a run per wire and
// component, with the H just before and just after the run when there is one), keeps those
// that are convex with their Hadamards and have |A| + |B| > |P|, and rewrites them in place
// until none is left. The search's local rules reach the same circuits one gate pair at a time
// through costlier states (the gf2 multipliers' output registers: 14 to 62 gates); this pass
// takes them in O(n) per round. Exact, global phase unchanged.
#include <algorithm>
#include <array>
#include <numeric>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

namespace {

// A component's span in gate order beyond which its convexity is not checked (keeps a round
// linear on long circuits; such components are left alone).
constexpr int kMaxSpan = 1 << 14;

struct Run {
  int qubit;
  int left = -1, right = -1;  // the H just before / just after the run on its wire, or -1
  int first, last;            // positions of the run's first and last cx on the wire
};

int find_root(std::vector<int>& parent, int x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// One round on g (the gate list of cur): rewrite every profitable convex network found;
// returns the gates removed.
int one_round(std::vector<PGate>& g, const Circuit& cur) {
  const int m = static_cast<int>(g.size());
  const int n = cur.num_qubits();
  std::vector<std::vector<int>> wire(n);
  for (int i = 0; i < m; i++)
    for (int k = 0; k < g[i].nq; k++) wire[g[i].q[k]].push_back(i);
  // Maximal cx runs on every wire; run_of[i][k]: the run of gate i on its k-th wire.
  std::vector<Run> runs;
  std::vector<std::array<int, 2>> run_of(m, {-1, -1});
  for (int q = 0; q < n; q++) {
    const std::vector<int>& w = wire[q];
    const int len = static_cast<int>(w.size());
    for (int k = 0; k < len;) {
      if (g[w[k]].type != GateType::CX) { k++; continue; }
      int j = k;
      while (j < len && g[w[j]].type == GateType::CX) j++;
      Run r;
      r.qubit = q;
      r.first = k;
      r.last = j - 1;
      if (k > 0 && g[w[k - 1]].type == GateType::H) r.left = w[k - 1];
      if (j < len && g[w[j]].type == GateType::H) r.right = w[j];
      const int id = static_cast<int>(runs.size());
      runs.push_back(r);
      for (int t = k; t < j; t++) run_of[w[t]][g[w[t]].q[0] == q ? 0 : 1] = id;
      k = j;
    }
  }
  const int nr = static_cast<int>(runs.size());
  std::vector<int> parent(nr);
  std::iota(parent.begin(), parent.end(), 0);
  for (int i = 0; i < m; i++)
    if (g[i].type == GateType::CX) {
      const int a = find_root(parent, run_of[i][0]), b = find_root(parent, run_of[i][1]);
      if (a != b) parent[a] = b;
    }
  std::vector<std::vector<int>> members(nr);
  for (int r = 0; r < nr; r++) members[find_root(parent, r)].push_back(r);

  std::vector<char> used(m, 0), drop(m, 0), flip(m, 0), marks;
  std::vector<std::vector<int>> h_before(m), h_after(m);  // H gates (qubits) to insert
  std::vector<char> seen_qubit(n, 0);
  std::vector<int> set;
  int removed = 0;
  for (int c = 0; c < nr; c++) {
    const std::vector<int>& mem = members[c];
    if (mem.empty()) continue;
    int na = 0, nb = 0;
    bool distinct = true;
    for (int r : mem) {
      if (seen_qubit[runs[r].qubit]) distinct = false;
      seen_qubit[runs[r].qubit] = 1;
      na += runs[r].left >= 0;
      nb += runs[r].right >= 0;
    }
    for (int r : mem) seen_qubit[runs[r].qubit] = 0;
    const int np = static_cast<int>(mem.size());
    // One run per qubit (else the network is not one block), and fewer H gates after.
    if (!distinct || na + nb <= np) continue;
    set.clear();
    for (int r : mem) {
      const std::vector<int>& w = wire[runs[r].qubit];
      for (int t = runs[r].first; t <= runs[r].last; t++) set.push_back(w[t]);
      if (runs[r].left >= 0) set.push_back(runs[r].left);
      if (runs[r].right >= 0) set.push_back(runs[r].right);
    }
    const auto [lo, hi] = std::minmax_element(set.begin(), set.end());
    if (*hi - *lo > kMaxSpan ||
        std::any_of(set.begin(), set.end(), [&](int i) { return used[i]; }))
      continue;
    int span_lo, span_hi;
    if (!cur.convex_span(set, span_lo, span_hi, marks)) continue;
    for (int r : mem) {
      const Run& run = runs[r];
      const std::vector<int>& w = wire[run.qubit];
      for (int t = run.first; t <= run.last; t++) flip[w[t]] = used[w[t]] = 1;
      // An end with an H loses it; an end without one gets one (next to the run's cx).
      auto end = [&](int h, std::vector<int>& insert_here) {
        if (h >= 0) {
          drop[h] = used[h] = 1;
          removed++;
        } else {
          insert_here.push_back(run.qubit);
          removed--;
        }
      };
      end(run.left, h_before[w[run.first]]);
      end(run.right, h_after[w[run.last]]);
    }
  }
  if (removed <= 0) return 0;
  std::vector<PGate> out;
  out.reserve(m);
  for (int i = 0; i < m; i++) {
    for (int q : h_before[i]) out.push_back(make_gate(GateType::H, q));
    if (!drop[i]) {
      PGate x = g[i];
      if (flip[i]) std::swap(x.q[0], x.q[1]);
      out.push_back(x);
    }
    for (int q : h_after[i]) out.push_back(make_gate(GateType::H, q));
  }
  g.swap(out);
  return removed;
}

}  // namespace

Circuit reverse_hadamard_networks(const Circuit& c, int* removed) {
  std::vector<PGate> g = to_list(c);
  int total = 0;
  // Every round removes gates, so this ends; the bound only caps pathological inputs.
  for (int round = 0; round < 64; round++) {
    const int r = one_round(g, from_list(c.num_qubits(), g, Param()));
    if (r <= 0) break;
    total += r;
  }
  if (removed) *removed = total;
  return total ? from_list(c.num_qubits(), g, c.global_phase()) : c;
}

}  // namespace preprocess
}  // namespace quartz
