#include "dag.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "rewrite.h"
#include "search.h"

namespace quartz {

namespace {

constexpr uint64_t kLabelStep = static_cast<uint64_t>(1) << 32;

// The source's second gate is not where x needs it (a cheap test before match_view).
inline bool second_gate_absent(const Dag& d, const Xfer& x, int v) {
  if (x.src_gates < 2) return false;
  int nb = x.step_forward[1] ? d.next(v, x.step_from_slot[1]) : d.prev(v, x.step_from_slot[1]);
  return nb < 0 || d.type(nb) != x.src.gates()[x.order[1]].type;
}

}  // namespace

bool propose_move(const XferIndex& ix, Dag& dag, int v, std::mt19937_64& rng, Match& m,
                  PreparedRewrite& rw, long* tried) {
  const std::vector<int>& lst = ix.by_type[static_cast<int>(dag.type(v))];
  const size_t L = lst.size();
  if (L == 0) return false;
  const size_t off = rng() % L;
  for (size_t j = 0; j < L; j++) {
    const Xfer& x = ix.xfers[lst[(off + j) % L]];
    if (second_gate_absent(dag, x, v)) continue;
    if (tried) ++*tried;
    try {
      if (match_view(dag, x, v, m) && dag.prepare(x, m, rw)) return true;
    } catch (const std::overflow_error&) {  // exact angle arithmetic overflowed: no move
    }
  }
  return false;
}

bool propose_move(const XferTrie& trie, const XferIndex& ix, Dag& dag, int v,
                  std::mt19937_64& rng, Match& m, PreparedRewrite& rw, std::vector<int>& scratch,
                  long* tried) {
  scratch.clear();
  trie.candidates(dag, v, scratch);
  for (size_t left = scratch.size(); left > 0; left--) {
    const size_t k = rng() % left;
    const Xfer& x = ix.xfers[scratch[k]];
    std::swap(scratch[k], scratch[left - 1]);
    if (tried) ++*tried;
    try {
      if (match_view(dag, x, v, m) && dag.prepare(x, m, rw)) return true;
    } catch (const std::overflow_error&) {  // exact angle arithmetic overflowed: no move
    }
  }
  return false;
}

double GateCost::operator()(GateType t, const Param* params) const {
  double c = weight[static_cast<int>(t)];
  if (t_weight != 0.0 && is_t_like(t, params[0])) c += t_weight;
  return c;
}

Dag::Dag(const Circuit& c, const GateCost& cost)
    : num_qubits_(c.num_qubits()), gc_(cost), head_(c.num_qubits(), -1),
      tail_(c.num_qubits(), -1), phase_(c.global_phase()) {
  const int n = c.num_gates();
  nodes_.resize(n);
  live_.resize(n);
  for (int i = 0; i < n; i++) {
    const Gate& g = c.gates()[i];
    Node& d = nodes_[i];
    d.type = g.type;
    d.nq = g.num_qubits;
    d.np = g.num_params;
    d.alive = true;
    for (int k = 0; k < g.num_qubits; k++) {
      d.q[k] = g.qubits[k];
      d.prv[k] = c.prev_on_wire(i, k);
      d.nxt[k] = c.next_on_wire(i, k);
      if (d.prv[k] < 0) head_[g.qubits[k]] = i;
      if (d.nxt[k] < 0) tail_[g.qubits[k]] = i;
    }
    for (int k = 0; k < g.num_params; k++) d.p[k] = c.param(i, k);
    d.label = (static_cast<uint64_t>(i) + 1) * kLabelStep;
    d.sprev = i - 1;
    d.snext = i + 1 < n ? i + 1 : -1;
    d.live_pos = i;
    live_[i] = i;
    cost_ += node_cost(d);
  }
  shead_ = n ? 0 : -1;
  stail_ = n - 1;
}

Circuit Dag::to_circuit() const {
  Circuit out(num_qubits_);
  std::vector<int> qs;
  std::vector<Param> ps;
  for (int i = shead_; i >= 0; i = nodes_[i].snext) {
    const Node& d = nodes_[i];
    qs.assign(d.q, d.q + d.nq);
    ps.assign(d.p, d.p + d.np);
    out.add_gate(d.type, qs, ps);
  }
  out.set_global_phase(phase_);
  return out;
}

int Dag::new_node(const preprocess::PGate& g) {
  int id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = static_cast<int>(nodes_.size());
    nodes_.emplace_back();
  }
  Node& d = nodes_[id];
  d = Node();
  d.type = g.type;
  d.nq = g.nq;
  d.np = g.np;
  d.alive = true;
  for (int k = 0; k < g.nq; k++) d.q[k] = g.q[k];
  for (int k = 0; k < g.np; k++) d.p[k] = g.p[k];
  d.live_pos = static_cast<int32_t>(live_.size());
  live_.push_back(id);
  return id;
}

void Dag::free_node(int i) {
  Node& d = nodes_[i];
  d.alive = false;
  int last = live_.back();
  live_[d.live_pos] = last;
  nodes_[last].live_pos = d.live_pos;
  live_.pop_back();
  d.live_pos = -1;
  free_.push_back(i);
}

int Dag::slot_of(const Node& n, int qubit) {
  for (int k = 0; k < n.nq; k++)
    if (n.q[k] == qubit) return k;
  return -1;
}

void Dag::link(int a, int b, int qubit) {
  if (a < 0) head_[qubit] = b;
  else nodes_[a].nxt[slot_of(nodes_[a], qubit)] = b;
  if (b < 0) tail_[qubit] = a;
  else nodes_[b].prv[slot_of(nodes_[b], qubit)] = a;
}

void Dag::seq_insert_after(int after, int i) {
  Node& d = nodes_[i];
  d.sprev = after;
  d.snext = after < 0 ? shead_ : nodes_[after].snext;
  if (d.snext >= 0) nodes_[d.snext].sprev = i;
  else stail_ = i;
  if (after >= 0) nodes_[after].snext = i;
  else shead_ = i;
}

void Dag::seq_unlink(int i) {
  Node& d = nodes_[i];
  if (d.sprev >= 0) nodes_[d.sprev].snext = d.snext;
  else shead_ = d.snext;
  if (d.snext >= 0) nodes_[d.snext].sprev = d.sprev;
  else stail_ = d.sprev;
  d.sprev = d.snext = -1;
}

void Dag::relabel() {
  relabels_++;
  uint64_t l = 0;
  for (int i = shead_; i >= 0; i = nodes_[i].snext) nodes_[i].label = (l += kLabelStep);
}

bool Dag::prepare(const Xfer& x, const Match& m, PreparedRewrite& rw) {
  if (in_match_.size() < nodes_.size()) {
    in_match_.resize(nodes_.size(), 0);
    seen_.resize(nodes_.size(), 0);
  }
  if (++stamp_ == 0) {  // wrapped: clear the marks once
    std::fill(in_match_.begin(), in_match_.end(), 0);
    std::fill(seen_.begin(), seen_.end(), 0);
    stamp_ = 1;
  }
  Param phase;
  if (!bound_phase(x, m, phase)) return false;
  uint64_t hi = 0;
  rw.anchor = -1;
  rw.delta = 0.0;
  for (int g : m.gates) {
    in_match_[g] = stamp_;
    if (nodes_[g].label >= hi) { hi = nodes_[g].label; rw.anchor = g; }
    rw.delta -= node_cost(nodes_[g]);
  }
  // Convexity: no path from a matched gate through an unmatched one back into the match.
  // Such a path only runs through labels below the largest matched label; the unmatched
  // gates it reaches are the descendants that must move after the target.
  rw.descendants.clear();
  auto visit = [&](int u) {
    for (int k = 0; k < nodes_[u].nq; k++) {
      int v = nodes_[u].nxt[k];
      if (v < 0 || in_match_[v] == stamp_ || seen_[v] == stamp_) continue;
      if (nodes_[v].label > hi) continue;
      seen_[v] = stamp_;
      rw.descendants.push_back(v);
    }
  };
  for (int g : m.gates) visit(g);
  for (size_t h = 0; h < rw.descendants.size(); h++) {
    int u = rw.descendants[h];
    for (int k = 0; k < nodes_[u].nq; k++) {
      int v = nodes_[u].nxt[k];
      if (v >= 0 && in_match_[v] == stamp_) return false;
    }
    visit(u);
  }
  std::sort(rw.descendants.begin(), rw.descendants.end(),
            [this](int a, int b) { return nodes_[a].label < nodes_[b].label; });
  // The target, bound and normalized.
  rw.matched = m.gates;
  rw.phase_change = -phase;
  rw.gates.clear();
  const Circuit& d = x.dst;
  for (int i = 0; i < d.num_gates(); i++) {
    const Gate& g = d.gates()[i];
    preprocess::PGate ng;
    ng.type = g.type;
    ng.nq = g.num_qubits;
    ng.np = g.num_params;
    for (int k = 0; k < g.num_qubits; k++) ng.q[k] = m.qmap[g.qubits[k]];
    for (int k = 0; k < g.num_params; k++) ng.p[k] = eval_expr(d.param(i, k), m.binding);
    if (g.num_params == 1 && !normalize_rotation(g.type, ng.p[0], rw.phase_change)) continue;
    if (gc_.allowed && !placeable(gc_.allowed, gc_.allowed_n, ng.type, ng.q, ng.nq)) return false;
    rw.delta += gc_(ng.type, ng.p);
    rw.gates.push_back(ng);
  }
  return true;
}

void Dag::commit(const PreparedRewrite& rw) {
  // Wire ends of the matched region: the gate before its first and after its last gate on
  // each wire (the matched gates of one wire are consecutive on it).
  struct End { int qubit, pred, succ, cur; };
  End ends[kMaxPatternQubits];
  int nends = 0;
  auto end_of = [&](int q) -> End& {
    for (int e = 0; e < nends; e++)
      if (ends[e].qubit == q) return ends[e];
    ends[nends] = {q, -1, -1, -1};
    return ends[nends++];
  };
  for (int u : rw.matched)
    for (int k = 0; k < nodes_[u].nq; k++) {
      End& e = end_of(nodes_[u].q[k]);
      int pv = nodes_[u].prv[k], nv = nodes_[u].nxt[k];
      if (pv < 0 || in_match_[pv] != stamp_) e.pred = pv;
      if (nv < 0 || in_match_[nv] != stamp_) e.succ = nv;
    }
  for (int e = 0; e < nends; e++) ends[e].cur = ends[e].pred;
  int after = rw.anchor;
  added_.clear();
  for (const preprocess::PGate& g : rw.gates) {
    int id = new_node(g);
    added_.push_back(id);
    for (int k = 0; k < g.nq; k++) {
      End& e = end_of(g.q[k]);
      link(e.cur, id, e.qubit);
      e.cur = id;
    }
    seq_insert_after(after, id);
    after = id;
  }
  for (int e = 0; e < nends; e++) link(ends[e].cur, ends[e].succ, ends[e].qubit);
  for (int v : rw.descendants) {
    seq_unlink(v);
    seq_insert_after(after, v);
    after = v;
  }
  // Labels for the moved and new gates, between the anchor and what follows them; when
  // the gap is used up, every gate is relabelled (O(n), rare).
  const int k = static_cast<int>(rw.gates.size() + rw.descendants.size());
  bool relabel_all = false;
  if (k > 0) {
    uint64_t lo = nodes_[rw.anchor].label;
    int nx = nodes_[after].snext;
    uint64_t hi = nx >= 0 ? nodes_[nx].label : std::numeric_limits<uint64_t>::max();
    uint64_t step = (hi - lo) / static_cast<uint64_t>(k + 1);
    relabel_all = step == 0;
    uint64_t l = lo;
    for (int i = nodes_[rw.anchor].snext, c = 0; !relabel_all && c < k; i = nodes_[i].snext, c++)
      nodes_[i].label = (l += step);
  }
  for (int u : rw.matched) seq_unlink(u);
  for (int u : rw.matched) free_node(u);
  if (relabel_all) relabel();
  cost_ += rw.delta;
  phase_ = phase_ + rw.phase_change;
  phase_.reduce_mod(1);
}

bool Dag::check() const {
  int count = 0;
  double cost = 0.0;
  uint64_t last = 0;
  for (int i = shead_; i >= 0; i = nodes_[i].snext) {
    const Node& d = nodes_[i];
    if (!d.alive || (count > 0 && d.label <= last)) return false;
    last = d.label;
    count++;
    cost += node_cost(d);
    for (int k = 0; k < d.nq; k++) {
      int p = d.prv[k], n = d.nxt[k];
      if (p >= 0 && (nodes_[p].label >= d.label || nodes_[p].nxt[slot_of(nodes_[p], d.q[k])] != i))
        return false;
      if (p < 0 && head_[d.q[k]] != i) return false;
      if (n >= 0 && (nodes_[n].label <= d.label || nodes_[n].prv[slot_of(nodes_[n], d.q[k])] != i))
        return false;
      if (n < 0 && tail_[d.q[k]] != i) return false;
    }
  }
  for (int q = 0; q < num_qubits_; q++)
    if ((head_[q] < 0) != (tail_[q] < 0)) return false;
  return count == num_gates() && std::fabs(cost - cost_) < 1e-6 * (1 + std::fabs(cost));
}

}  // namespace quartz
