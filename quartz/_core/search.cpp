#include "search.h"

#include <algorithm>
#include <climits>
#include <exception>
#include <stdexcept>
#include <queue>
#include <random>
#include <thread>
#include <unordered_set>

#include "preprocess.h"
#include "rewrite.h"

namespace quartz {

using Clock = std::chrono::steady_clock;

namespace {
// Match and rewrite; an angle whose exact arithmetic overflows just makes the rewrite fail.
bool try_rewrite(const Circuit& c, const Xfer& x, int g, Match& m, Circuit& out, int* pos) {
  try {
    return match_at(c, x, g, m) && apply_match(c, x, m, out, pos);
  } catch (const std::overflow_error&) {
    return false;
  }
}
}  // namespace

bool placeable(const uint8_t* allowed, int n, GateType t, const int* q, int nq) {
  if (allowed == nullptr || n <= 0 || nq < 2) return true;
  if (nq > 2 || q[0] >= n || q[1] >= n) return false;
  return allowed[q[0] * n + q[1]] || (gate_info(t).symmetric && allowed[q[1] * n + q[0]]);
}

bool placeable(const uint8_t* allowed, int n, const Circuit& c) {
  if (allowed == nullptr || n <= 0) return true;
  for (const Gate& g : c.gates())
    if (!placeable(allowed, n, g.type, g.qubits, g.num_qubits)) return false;
  return true;
}

double CostSpec::operator()(const Circuit& c) const {
  if (callback) return callback(c);
  double s = 0.0;
  for (const Gate& g : c.gates()) s += weight[static_cast<int>(g.type)];
  if (t_weight != 0.0) s += t_weight * c.t_count();
  if (depth_weight != 0.0) s += depth_weight * c.depth();
  return s;
}

void SearchProgress::report(double cost, int gates) {
  std::lock_guard<std::mutex> lk(mu);
  if (history.empty() || cost < best_cost - 1e-12) {
    const double t = std::chrono::duration<double>(Clock::now() - start).count();
    if (!history.empty()) last_improvement.store(t + time_offset, std::memory_order_relaxed);
    best_cost = cost;
    if (gates > 0) best_gates.store(gates, std::memory_order_relaxed);
    history.emplace_back(t, cost);
  }
}

Searcher::Searcher(const XferIndex& ix, const CostSpec& cost, const SearchOptions& opt,
                   SearchProgress& pr)
    : ix_(ix), trie_(ix), cost_(cost), opt_(opt), pr_(pr) {
  reducing_.assign(ix.xfers.size(), 0);
  CostSpec formula = cost;
  formula.callback = nullptr;
  bool additive = cost.additive();
  for (size_t i = 0; i < ix.xfers.size(); i++) {
    const Xfer& x = ix.xfers[i];
    if (!x.valid) continue;
    double delta = additive ? formula(x.dst) - formula(x.src)
                            : static_cast<double>(x.dst_gates - x.src_gates);
    reducing_[i] = delta < -1e-9;
  }
  deadline_ = Clock::now() + std::chrono::microseconds(static_cast<long long>(opt.timeout * 1e6));
}

bool Searcher::out_of_time(Clock::time_point until) const {
  if (pr_.stop.load(std::memory_order_relaxed)) return true;
  const Clock::time_point now = Clock::now();
  if (now >= until) return true;
  if (opt_.patience < 0) return false;
  const double t = std::chrono::duration<double>(now - pr_.start).count() + opt_.time_offset;
  const double last = pr_.last_improvement.load(std::memory_order_relaxed);
  const double window = opt_.patience +
                        opt_.patience_per_gate * pr_.best_gates.load(std::memory_order_relaxed) +
                        opt_.patience_growth * last;
  if (t - last < window) return false;
  pr_.converged.store(true, std::memory_order_relaxed);
  return true;
}

Circuit Searcher::greedy(const Circuit& c) const {
  Circuit cur = c, tmp;
  double cc = cost_(cur);
  Match m;
  for (;;) {
    bool changed = false;
    for (int i = 0; i < cur.num_gates();) {
      if ((i & 31) == 0 && out_of_time(deadline_)) return cur;
      bool applied = false;
      for (int xi : ix_.by_type[static_cast<int>(cur.gates()[i].type)]) {
        if (!reducing_[xi]) continue;
        const Xfer& x = ix_.xfers[xi];
        int pos = 0;
        if (!try_rewrite(cur, x, i, m, tmp, &pos) || !placeable(tmp)) continue;
        double nc = cost_(tmp);
        if (nc < cc - 1e-9) {
          cur = std::move(tmp);
          cc = nc;
          applied = changed = true;
          i = std::max(0, pos - 4);
          break;
        }
      }
      if (!applied) i++;
    }
    if (!changed) break;
  }
  return cur;
}

Circuit Searcher::polish(const Circuit& c) const {
  if (opt_.polish_style < 0) return c;
  auto style = static_cast<preprocess::DiagStyle>(opt_.polish_style);
  double cc = cost_(c);
  Circuit best = c;
  for (int last = 0; last < 2; last++) {
    Circuit r;
    try {
      r = preprocess::cancel_inverses(preprocess::rotation_merge(c, style, last == 1, nullptr), 64);
    } catch (const std::overflow_error&) {
      continue;
    }
    double rc = cost_(r);
    if (rc < cc - 1e-9 && placeable(r)) { best = std::move(r); cc = rc; }
  }
  {  // Hadamard-conjugated cx networks reversed, then merged again over the joined regions
    int removed = 0;
    Circuit h = preprocess::reverse_hadamard_networks(best, &removed);
    if (removed > 0) {
      try {
        h = preprocess::cancel_inverses(preprocess::rotation_merge(h, style, false, nullptr), 64);
      } catch (const std::overflow_error&) {
      }
      const double hc = cost_(h);
      if (hc < cc - 1e-9 && placeable(h)) { best = std::move(h); cc = hc; }
    }
  }
  if (opt_.resynth_1q || opt_.exact_1q) {
    int changed = 0;
    Circuit r = preprocess::resynthesize_1q_runs(best, &changed, !opt_.resynth_1q);
    if (changed) {
      try {  // the new rotations may merge with others across cx gates
        r = preprocess::cancel_inverses(preprocess::rotation_merge(r, style, false, nullptr), 64);
      } catch (const std::overflow_error&) {
      }
      if (cost_(r) < cc - 1e-9 && placeable(r)) best = std::move(r);
    }
  }
  return best;
}

Circuit Searcher::resynthesize(const Circuit& c) const {
  if (opt_.polish_style < 0) return c;
  auto style = static_cast<preprocess::DiagStyle>(opt_.polish_style);
  try {
    // 4-qubit blocks first, then the 3-qubit ones their boundaries left (fewer gates than
    // either alone on the Nam suite's preprocessed circuits).
    Circuit r = c;
    int total = 0;
    for (int q = std::min(4, opt_.block_qubits); q >= std::min(3, opt_.block_qubits); q--) {
      int changed = 0;
      Circuit s = preprocess::resynthesize_blocks(r, style, &changed, q);
      if (changed == 0) continue;
      r = preprocess::cancel_inverses(s, 64);
      total += changed;
    }
    return total && placeable(r) ? r : c;
  } catch (const std::overflow_error&) {
    return c;
  }
}

Circuit Searcher::simplify(const Circuit& c) const {
  Circuit cur = greedy(c);
  double cc = cost_(cur);
  while (opt_.polish_style >= 0 && !out_of_time(deadline_)) {
    Circuit p = polish(cur);
    double pc = cost_(p);
    if (pc >= cc - 1e-9) break;
    cur = greedy(p);
    cc = cost_(cur);
  }
  return cur;
}

Circuit Searcher::best_first(const Circuit& c, double seconds, long max_expansions, uint64_t seed,
                             bool report) const {
  Clock::time_point until = std::min(
      deadline_, Clock::now() + std::chrono::microseconds(static_cast<long long>(seconds * 1e6)));
  struct Item {
    double cost;
    uint64_t tie;
    int id;
    bool operator>(const Item& o) const { return cost != o.cost ? cost > o.cost : tie > o.tie; }
  };
  std::mt19937_64 rng(seed);
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  std::vector<Circuit> store;
  std::unordered_set<uint64_t> seen;
  Circuit best = c;
  double bc = cost_(c);
  store.push_back(c);
  seen.insert(c.hash());
  pq.push({bc, rng(), 0});
  long expanded = 0;
  Match m;
  Circuit cand;
  while (!pq.empty() && expanded < max_expansions && !out_of_time(until)) {
    Item it = pq.top();
    pq.pop();
    Circuit cur = std::move(store[it.id]);
    store[it.id] = Circuit();
    expanded++;
    pr_.expansions.fetch_add(1, std::memory_order_relaxed);
    for (int i = 0; i < cur.num_gates(); i++) {
      if ((i & 7) == 0 && out_of_time(until)) break;
      for (int xi : ix_.by_type[static_cast<int>(cur.gates()[i].type)]) {
        const Xfer& x = ix_.xfers[xi];
        if (!try_rewrite(cur, x, i, m, cand, nullptr) || !placeable(cand)) continue;
        if (opt_.polish_candidates) cand = polish(cand);
        double nc = cost_(cand);
        if (nc >= opt_.gamma * bc && nc >= bc + 1e-9) continue;
        if (!seen.insert(cand.hash()).second) continue;
        if (nc < bc - 1e-9) {
          if (opt_.polish_style >= 0) {
            cand = simplify(cand);
            nc = cost_(cand);
          }
          best = cand;
          bc = nc;
          if (report) pr_.report(bc, best.num_gates());
        }
        store.push_back(std::move(cand));
        cand = Circuit();
        pq.push({nc, rng(), static_cast<int>(store.size() - 1)});
      }
    }
    if (static_cast<int>(pq.size()) > opt_.queue_cap) {
      std::vector<Item> keep;
      while (static_cast<int>(keep.size()) < opt_.queue_cap / 2) {
        keep.push_back(pq.top());
        pq.pop();
      }
      while (!pq.empty()) {
        store[pq.top().id] = Circuit();
        pq.pop();
      }
      for (auto& k : keep) pq.push(k);
    }
  }
  return best;
}

Circuit reorder_by_qubits(const Circuit& c, uint64_t seed) {
  const int n = c.num_gates();
  std::mt19937_64 rng(seed);
  std::vector<int> rank(c.num_qubits());
  for (int q = 0; q < c.num_qubits(); q++) rank[q] = q;
  std::shuffle(rank.begin(), rank.end(), rng);
  std::vector<int> indeg(n, 0);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < c.gates()[i].num_qubits; k++)
      if (c.prev_on_wire(i, k) >= 0) indeg[i]++;
  using Key = std::pair<int, int>;  // (best qubit rank, index)
  auto key = [&](int i) {
    const Gate& g = c.gates()[i];
    int r = INT_MAX;
    for (int k = 0; k < g.num_qubits; k++) r = std::min(r, rank[g.qubits[k]]);
    return Key(r, i);
  };
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> ready;
  for (int i = 0; i < n; i++)
    if (indeg[i] == 0) ready.push(key(i));
  Circuit out(c.num_qubits());
  while (!ready.empty()) {
    int i = ready.top().second;
    ready.pop();
    copy_gate(out, c, i);
    for (int k = 0; k < c.gates()[i].num_qubits; k++) {
      int j = c.next_on_wire(i, k);
      if (j >= 0 && --indeg[j] == 0) ready.push(key(j));
    }
  }
  out.set_global_phase(c.global_phase());
  return out;
}

Circuit Searcher::windowed(const Circuit& c, Clock::time_point until, uint64_t seed, bool whole,
                           double* part_cost) const {
  Circuit cur = c;
  std::mt19937_64 rng(seed);
  bool additive = cost_.additive();
  double cc = cost_(cur);
  auto publish = [&] {
    if (whole) {
      pr_.report(cc, cur.num_gates());
    } else if (part_cost) {
      double total;
      {
        std::lock_guard<std::mutex> lk(pr_.mu);
        *part_cost = cc;
        total = 0;
        for (double v : pr_.parts) total += v;
      }
      pr_.report(total, 0);
    }
  };
  int stale = 0;
  for (int round = 0; !out_of_time(until); round++) {
    int n = cur.num_gates();
    if (n == 0) break;
    const double round_start = cc;
    int W = std::min(opt_.window, std::max(8, n * 2 / 3));
    if (n <= 8) W = n;
    int step = std::max(1, W / 2);
    int s = -static_cast<int>(rng() % step);
    for (; s < n && !out_of_time(until); s += step) {
      int b = std::max(0, s), e = std::min(n, s + W);
      if (e - b < 2) continue;
      Circuit sub = cur.slice(b, e);
      double sc = cost_(sub);
      Circuit o = best_first(sub, 2.0, opt_.window_expansions, rng(), false);
      o = simplify(o);
      if (additive) {
        double oc = cost_(o);
        if (oc < sc - 1e-9) {
          cur = splice(cur, b, e, o);
          cc = cc - sc + oc;
          s += o.num_gates() - (e - b);
          n = cur.num_gates();
          publish();
        }
      } else {
        Circuit full = splice(cur, b, e, o);
        double fc = cost_(full);
        if (fc < cc - 1e-9) {
          cur = std::move(full);
          cc = fc;
          s += o.num_gates() - (e - b);
          n = cur.num_gates();
          publish();
        }
      }
    }
    if (out_of_time(until)) break;
    Circuit g = simplify(cur);
    double gc = cost_(g);
    if (gc < cc - 1e-9) { cur = std::move(g); cc = gc; publish(); }
    stale = cc < round_start - 1e-9 ? 0 : stale + 1;
    if (whole && stale >= 8) break;  // nothing left to find in this circuit's windows
    if (round % 2 == 0) {
      Circuit r = reorder_by_qubits(cur, rng());
      if (!additive) {
        double rc = cost_(r);
        if (rc > cc + 1e-9) continue;
        cc = rc;
      }
      cur = std::move(r);
    }
  }
  return cur;
}

Circuit Searcher::optimize(const Circuit& input) {
  pr_.start = Clock::now();
  pr_.time_offset = opt_.time_offset;
  pr_.last_improvement = opt_.last_improvement;
  pr_.best_gates = input.num_gates();
  deadline_ = pr_.start + std::chrono::microseconds(static_cast<long long>(opt_.timeout * 1e6));
  Circuit start = normalize_circuit(input);
  double start_cost = cost_(start);
  pr_.report(start_cost, start.num_gates());
  Circuit cur = simplify(start);
  double cc = cost_(cur);
  pr_.report(cc, cur.num_gates());
  if (opt_.greedy_only || out_of_time(deadline_)) return cc <= start_cost ? cur : start;
  const int n = cur.num_gates();
  const bool two = opt_.threads >= 2;
  if (opt_.algorithm == 1 && cost_.additive()) {
    // Small circuits: one thread runs the exhaustive best-first search beside the chains
    // (it wins there; annealing wins on larger ones).
    Circuit r;
    // (Not with a work limit: the best-first thread runs to the deadline, which would make the
    // result depend on the machine's speed.)
    if (two && n <= opt_.full_limit && opt_.work_limit < 0) {
      Circuit b;
      std::exception_ptr ep;
      std::thread t([&] {
        try {
          b = simplify(best_first(cur, 1e9, LONG_MAX, opt_.seed, true));
          pr_.report(cost_(b), b.num_gates());
          if (!out_of_time(deadline_)) b = windowed(b, deadline_, opt_.seed + 7, true, nullptr);
        } catch (...) { ep = std::current_exception(); pr_.stop = true; }
      });
      try { r = simplify(anneal(cur, opt_.threads - 1)); } catch (...) { pr_.stop = true; t.join(); throw; }
      t.join();
      if (ep) std::rethrow_exception(ep);
      if (cost_(b) < cost_(r)) r = std::move(b);
    } else {
      r = simplify(anneal(cur, opt_.threads));
    }
    double rc = cost_(r);
    pr_.report(rc, r.num_gates());
    return rc <= start_cost ? r : start;
  }
  std::mt19937_64 rng(opt_.seed * 0x9e3779b97f4a7c15ULL + 12345);
  if (n <= opt_.full_limit) {
    Circuit a, b;
    auto whole = [&] {
      Circuit r = best_first(cur, 1e9, LONG_MAX, opt_.seed, true);
      r = simplify(r);
      pr_.report(cost_(r), r.num_gates());
      if (!out_of_time(deadline_)) r = windowed(r, deadline_, opt_.seed + 7, true, nullptr);
      a = std::move(r);
    };
    auto wind = [&] { b = windowed(cur, deadline_, opt_.seed + 1, true, nullptr); };
    if (two) {
      std::exception_ptr ep;
      std::thread t([&] {
        try { wind(); } catch (...) { ep = std::current_exception(); pr_.stop = true; }
      });
      try { whole(); } catch (...) { pr_.stop = true; t.join(); throw; }
      t.join();
      if (ep) std::rethrow_exception(ep);
    } else {
      whole();
      b = a;
    }
    Circuit& r = cost_(a) <= cost_(b) ? a : b;
    return cost_(r) <= start_cost ? r : start;
  }
  for (int round = 0; !out_of_time(deadline_); round++) {
    const int m = cur.num_gates();
    double left = std::chrono::duration<double>(deadline_ - Clock::now()).count();
    double len = std::min(std::max(left / 3.0, 5.0), 30.0);
    Clock::time_point until =
        std::min(deadline_, Clock::now() + std::chrono::microseconds(static_cast<long long>(len * 1e6)));
    int mid = m / 2 + static_cast<int>(rng() % (m / 3 + 1)) - m / 6;
    mid = std::max(1, std::min(m - 1, mid));
    Circuit A = cur.slice(0, mid), B = cur.slice(mid, m);
    {
      std::lock_guard<std::mutex> lk(pr_.mu);
      pr_.parts = {cost_(A), cost_(B)};
    }
    Circuit A2, B2;
    uint64_t sa = rng(), sb = rng();
    if (two) {
      std::exception_ptr ep;
      std::thread t([&] {
        try { B2 = windowed(B, until, sb, false, &pr_.parts[1]); }
        catch (...) { ep = std::current_exception(); pr_.stop = true; }
      });
      try { A2 = windowed(A, until, sa, false, &pr_.parts[0]); }
      catch (...) { pr_.stop = true; t.join(); throw; }
      t.join();
      if (ep) std::rethrow_exception(ep);
    } else {
      Clock::time_point half = Clock::now() + (until - Clock::now()) / 2;
      A2 = windowed(A, half, sa, false, &pr_.parts[0]);
      B2 = windowed(B, until, sb, false, &pr_.parts[1]);
    }
    Circuit joined(cur.num_qubits());
    joined.set_global_phase(cur.global_phase());
    joined.append(A2);
    joined.append(B2);
    Param gp = joined.global_phase();
    gp.reduce_mod(1);
    joined.set_global_phase(gp);
    double jc = cost_(joined);
    if (jc <= cc) { cur = std::move(joined); cc = jc; }
    if (!out_of_time(deadline_)) {
      Circuit g = simplify(cur);
      double gc = cost_(g);
      if (gc < cc) { cur = std::move(g); cc = gc; }
    }
    pr_.report(cc, cur.num_gates());
    if (round % 2 == 1) cur = reorder_by_qubits(cur, rng());
    if (!cost_.additive()) cc = cost_(cur);
  }
  return cc <= start_cost ? cur : start;
}

}  // namespace quartz
