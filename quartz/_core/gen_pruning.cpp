#include "gen_pruning.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace quartz {

const char* const kPruningPasses[7] = {
    "drop singletons",        "split identity classes",    "remove unused qubits",
    "remove unused symbols",  "drop fresh-symbol classes", "merge permuted classes",
    "common-subcircuit pruning"};

namespace {

// The parameter table seen by the passes: canonical ids, their order and symbol renaming.
struct Params {
  std::vector<GenParam> table;
  std::vector<int> canonical;   // id -> first id of equal value
  std::vector<int> rank;        // canonical id -> position in pruning.py's parameter order
  std::map<std::pair<int, int>, int> by_symbols;  // (a, b) -> id (b = -1: the bare symbol)

  explicit Params(const std::vector<GenParam>& t) : table(t) {
    const int n = static_cast<int>(t.size());
    canonical.resize(n);
    for (int i = 0; i < n; i++) {
      canonical[i] = i;
      for (int j = 0; j < i; j++)
        if (t[j].a == t[i].a && t[j].b == t[i].b &&
            (t[i].a >= 0 || t[j].num * t[i].den == t[i].num * t[j].den)) {
          canonical[i] = canonical[j];
          break;
        }
      if (t[i].a >= 0) by_symbols.emplace(std::make_pair(t[i].a, t[i].b), i);
    }
    // pruning.py's _param_key: a bare symbol (0, a), a sum of two (1, a, b), a constant
    // (3, value).
    std::vector<int> ids(n);
    std::iota(ids.begin(), ids.end(), 0);
    auto key_less = [&](int x, int y) {
      const GenParam &p = t[x], &q = t[y];
      auto kind = [](const GenParam& g) { return g.a < 0 ? 3 : g.b < 0 ? 0 : 1; };
      int kx = kind(p), ky = kind(q);
      if (kx != ky) return kx < ky;
      if (kx == 3) return p.num * q.den < q.num * p.den;
      if (p.a != q.a) return p.a < q.a;
      return p.b < q.b;
    };
    std::stable_sort(ids.begin(), ids.end(), key_less);
    rank.assign(n, 0);
    int r = -1;
    for (int k = 0; k < n; k++) {
      if (k == 0 || key_less(ids[k - 1], ids[k])) r++;
      rank[ids[k]] = r;
    }
  }
  // The id of parameter `id` with its symbols renamed by smap.
  int rename(int id, const int* smap) const {
    const GenParam& p = table[id];
    if (p.a < 0) return id;
    int a = smap[p.a], b = p.b >= 0 ? smap[p.b] : -1;
    if (b >= 0 && b < a) std::swap(a, b);
    auto it = by_symbols.find({a, b});
    if (it == by_symbols.end()) throw std::logic_error("pruning: renamed parameter not in the table");
    return it->second;
  }
};

struct CircHash {
  size_t operator()(const std::pair<int, PCirc>& k) const {
    uint64_t h = 1469598103934665603ULL ^ static_cast<uint64_t>(k.first);
    const unsigned char* b = reinterpret_cast<const unsigned char*>(k.second.g);
    for (size_t i = 0; i < sizeof(PGate) * k.second.n; i++) h = (h ^ b[i]) * 1099511628211ULL;
    return static_cast<size_t>(h ^ k.second.n);
  }
};

int min_qubit(const PGate& g) {
  int m = g.q[0];
  for (int k = 1; k < g.nq; k++) m = std::min<int>(m, g.q[k]);
  return m;
}

// light.canonical: repeatedly the ready gate with the smallest minimum qubit.
PCirc canonical(const PCirc& c) {
  const int n = c.n;
  if (n <= 1) return c;
  uint32_t preds[kMaxGenGates] = {};
  int last[64];
  std::fill(last, last + 64, -1);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < c.g[i].nq; k++) {
      int q = c.g[i].q[k];
      if (last[q] >= 0) preds[i] |= 1u << last[q];
      last[q] = i;
    }
  PCirc out;
  out.n = c.n;
  uint32_t done = 0;
  for (int step = 0; step < n; step++) {
    int best = -1;
    for (int i = 0; i < n; i++) {
      if (done >> i & 1 || (preds[i] & ~done)) continue;
      if (best < 0 || min_qubit(c.g[i]) < min_qubit(c.g[best])) best = i;
    }
    out.g[step] = c.g[best];
    done |= 1u << best;
  }
  return out;
}

class Pruner {
 public:
  Pruner(const Params& p) : P(p) {}

  // light.order_key's total order.
  bool less(const PCirc& a, const PCirc& b) const {
    if (a.n != b.n) return a.n < b.n;
    for (int i = 0; i < a.n; i++) {
      const PGate &x = a.g[i], &y = b.g[i];
      if (x.t != y.t) return x.t < y.t;
      for (int k = 0; k < std::min(x.nq, y.nq); k++)
        if (x.q[k] != y.q[k]) return x.q[k] < y.q[k];
      if (x.nq != y.nq) return x.nq < y.nq;
      for (int k = 0; k < std::min(x.np, y.np); k++)
        if (x.p[k] != y.p[k] && P.rank[x.p[k]] != P.rank[y.p[k]])
          return P.rank[x.p[k]] < P.rank[y.p[k]];
      if (x.np != y.np) return x.np < y.np;
    }
    return false;
  }
  // pruning.sort_class: deduplicated, sorted.
  void sort_class(std::vector<PCirc>& cs) const {
    std::sort(cs.begin(), cs.end(), [&](const PCirc& a, const PCirc& b) { return less(a, b); });
    cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
  }
  PCirc relabel(const PCirc& c, const int* qmap, const int* smap) const {
    PCirc r = c;
    for (int i = 0; i < r.n; i++) {
      PGate& g = r.g[i];
      for (int k = 0; k < g.nq; k++) g.q[k] = static_cast<int8_t>(qmap[g.q[k]]);
      if (smap)
        for (int k = 0; k < g.np; k++) g.p[k] = static_cast<int16_t>(P.rename(g.p[k], smap));
    }
    return canonical(r);
  }
  uint32_t qubits_used(const PCirc& c) const {
    uint32_t m = 0;
    for (int i = 0; i < c.n; i++)
      for (int k = 0; k < c.g[i].nq; k++) m |= 1u << c.g[i].q[k];
    return m;
  }
  uint32_t symbols_used(const PCirc& c) const {
    uint32_t m = 0;
    for (int i = 0; i < c.n; i++)
      for (int k = 0; k < c.g[i].np; k++) {
        const GenParam& p = P.table[c.g[i].p[k]];
        if (p.a >= 0) m |= 1u << p.a;
        if (p.b >= 0) m |= 1u << p.b;
      }
    return m;
  }

  std::vector<PClass> drop_singletons(std::vector<PClass> in) const {
    std::vector<PClass> out;
    for (auto& c : in)
      if (c.cs.size() >= 2) out.push_back(std::move(c));
    return out;
  }
  std::vector<PClass> split_identity(std::vector<PClass> in) const {
    std::vector<PClass> out;
    for (auto& c : in) {
      bool has_empty = std::any_of(c.cs.begin(), c.cs.end(), [](const PCirc& x) { return x.n == 0; });
      if (c.cs.size() > 2 && has_empty) {
        for (const PCirc& x : c.cs)
          if (x.n != 0) out.push_back(PClass{c.nq, {PCirc{}, x}});
      } else {
        out.push_back(std::move(c));
      }
    }
    return out;
  }
  // Renumber the used qubits (or symbols) to 0..u-1 in order.
  void renumber(std::vector<PClass>& cls, bool symbols) const {
    for (auto& c : cls) {
      uint32_t used = 0;
      for (const PCirc& x : c.cs) used |= symbols ? symbols_used(x) : qubits_used(x);
      const int u = __builtin_popcount(used);
      if (symbols ? used == (1u << u) - 1 : (used == (1u << u) - 1 && u == c.nq)) continue;
      int map[32], ident[32], j = 0;
      for (int b = 0; b < 32; b++) {
        ident[b] = b;
        map[b] = used >> b & 1 ? j++ : -1;
      }
      for (PCirc& x : c.cs) x = symbols ? relabel(x, ident, map) : relabel(x, map, nullptr);
      if (!symbols) c.nq = std::max(1, u);
      sort_class(c.cs);
    }
  }
  std::vector<PClass> drop_fresh_symbols(std::vector<PClass> in) const {
    std::vector<PClass> out;
    for (auto& c : in) {
      // symbol -> the distinct parameters it appears in
      std::vector<std::vector<int>> exprs(32);
      for (const PCirc& x : c.cs)
        for (int i = 0; i < x.n; i++)
          for (int k = 0; k < x.g[i].np; k++) {
            int id = x.g[i].p[k];
            const GenParam& p = P.table[id];
            for (int s : {p.a, p.b})
              if (s >= 0 && std::find(exprs[s].begin(), exprs[s].end(), id) == exprs[s].end())
                exprs[s].push_back(id);
          }
      bool redundant = false;
      for (int s = 0; s < 32 && !redundant; s++)
        if (exprs[s].size() == 1) {
          const GenParam& p = P.table[exprs[s][0]];
          redundant = !(p.a == s && p.b < 0);
        }
      if (!redundant) out.push_back(std::move(c));
    }
    return out;
  }
  std::vector<PClass> merge_permuted(const std::vector<PClass>& in) const {
    std::unordered_map<std::pair<int, PCirc>, int, CircHash> where;
    std::vector<PClass> out;
    for (const PClass& c : in) {
      uint32_t used = 0;
      for (const PCirc& x : c.cs) used |= symbols_used(x);
      std::vector<int> syms;
      for (int b = 0; b < 32; b++)
        if (used >> b & 1) syms.push_back(b);
      int qp[32], smap[32];
      for (int b = 0; b < 32; b++) qp[b] = smap[b] = b;
      int target = -1;
      std::vector<PCirc> moved(c.cs.size());
      std::vector<int> sp;
      do {
        sp = syms;
        do {
          for (size_t k = 0; k < syms.size(); k++) smap[syms[k]] = sp[k];
          for (size_t k = 0; k < c.cs.size(); k++) {
            moved[k] = relabel(c.cs[k], qp, smap);
            auto it = where.find({c.nq, moved[k]});
            if (it != where.end()) {
              target = it->second;
              for (size_t r = k + 1; r < c.cs.size(); r++) moved[r] = relabel(c.cs[r], qp, smap);
              break;
            }
          }
        } while (target < 0 && std::next_permutation(sp.begin(), sp.end()));
      } while (target < 0 && std::next_permutation(qp, qp + c.nq));
      if (target < 0) {
        out.push_back(c);
        for (const PCirc& x : c.cs) where[{c.nq, x}] = static_cast<int>(out.size()) - 1;
        continue;
      }
      std::vector<PCirc>& tcs = out[target].cs;
      for (const PCirc& x : moved) {
        if (std::find(tcs.begin(), tcs.end(), x) != tcs.end()) continue;
        tcs.push_back(x);
        where[{c.nq, x}] = target;
      }
    }
    for (PClass& c : out) sort_class(c.cs);
    return out;
  }
  static int first_gates(const PCirc& c, bool reversed, PGate* out) {
    uint32_t seen = 0;
    int n = 0;
    for (int j = 0; j < c.n; j++) {
      const PGate& g = c.g[reversed ? c.n - 1 - j : j];
      uint32_t m = 0;
      for (int k = 0; k < g.nq; k++) m |= 1u << g.q[k];
      if (!(seen & m)) out[n++] = g;
      seen |= m;
    }
    return n;
  }
  std::vector<PClass> common_subcircuit(std::vector<PClass> in) const {
    auto contains = [](const std::vector<PGate>& set, const PGate& g) {
      return std::any_of(set.begin(), set.end(),
                         [&](const PGate& h) { return std::memcmp(&g, &h, sizeof(PGate)) == 0; });
    };
    for (PClass& c : in) {
      std::vector<PCirc> kept;
      std::vector<PGate> firsts, lasts;
      for (const PCirc& x : c.cs) {
        PGate f[kMaxGenGates], l[kMaxGenGates];
        int nf = first_gates(x, false, f), nl = first_gates(x, true, l);
        bool shares = false;
        for (int i = 0; i < nf && !shares; i++) shares = contains(firsts, f[i]);
        for (int i = 0; i < nl && !shares; i++) shares = contains(lasts, l[i]);
        if (!kept.empty() && shares) continue;
        kept.push_back(x);
        for (int i = 0; i < nf; i++)
          if (!contains(firsts, f[i])) firsts.push_back(f[i]);
        for (int i = 0; i < nl; i++)
          if (!contains(lasts, l[i])) lasts.push_back(l[i]);
      }
      c.cs = std::move(kept);
    }
    return in;
  }

  std::vector<PClass> run(int pass, std::vector<PClass> cls) const {
    switch (pass) {
      case 0: return drop_singletons(std::move(cls));
      case 1: return split_identity(std::move(cls));
      case 2: renumber(cls, false); return cls;
      case 3: renumber(cls, true); return cls;
      case 4: return drop_fresh_symbols(std::move(cls));
      case 5: return merge_permuted(cls);
      default: return common_subcircuit(std::move(cls));
    }
  }

 private:
  const Params& P;
};

size_t circuits_in(const std::vector<PClass>& cls) {
  size_t n = 0;
  for (const PClass& c : cls) n += c.cs.size();
  return n;
}

}  // namespace

PruneResult prune_generated(const Generator& gen, const std::vector<GateType>& gates,
                            bool split_identity, int max_cycles) {
  Params P(gen.params());
  if (gen.num_qubits() > 31) throw std::invalid_argument("pruning: too many qubits");
  // Light gates of the choice table.
  std::vector<PGate> light;
  for (const GateChoice& ch : gen.choices()) {
    PGate g;
    auto it = std::find(gates.begin(), gates.end(), ch.type);
    if (it == gates.end()) throw std::invalid_argument("pruning: a gate choice outside the gate set");
    g.t = static_cast<uint8_t>(it - gates.begin());
    g.nq = static_cast<uint8_t>(ch.nq);
    g.np = static_cast<uint8_t>(ch.np);
    for (int k = 0; k < ch.nq; k++) g.q[k] = static_cast<int8_t>(ch.qubits[k]);
    for (int k = 0; k < ch.np; k++) g.p[k] = static_cast<int16_t>(P.canonical[ch.params[k]]);
    light.push_back(g);
  }
  // The classes of two or more circuits, by class id, members in generation order.
  const size_t n = gen.num_circuits();
  std::vector<int> size(gen.num_classes(), 0);
  for (size_t i = 0; i < n; i++) size[gen.class_of(i)]++;
  std::vector<int> slot(gen.num_classes(), -1);
  std::vector<PClass> cls;
  for (size_t c = 0; c < size.size(); c++)
    if (size[c] >= 2) {
      slot[c] = static_cast<int>(cls.size());
      cls.push_back(PClass{gen.num_qubits(), {}});
      cls.back().cs.reserve(size[c]);
    }
  for (size_t i = 0; i < n; i++) {
    int s = slot[gen.class_of(i)];
    if (s < 0) continue;
    const GenCircuit& gc = gen.circuit(i);
    PCirc x;
    x.n = gc.ng;
    for (int k = 0; k < gc.ng; k++) x.g[k] = light[gc.g[k]];
    cls[s].cs.push_back(x);
  }
  PruneResult res;
  res.param_canonical = P.canonical;
  res.log.push_back({-1, 0, cls.size(), circuits_in(cls)});
  Pruner pr(P);
  for (int cycle = 1; cycle <= max_cycles; cycle++) {
    std::vector<PClass> before = cls;
    for (int pass = 0; pass < 7; pass++) {
      if (pass == 1 && !split_identity) continue;
      cls = pr.run(pass, std::move(cls));
      res.log.push_back({pass, cycle, cls.size(), circuits_in(cls)});
    }
    if (cls == before) break;
  }
  res.classes = std::move(cls);
  return res;
}

}  // namespace quartz
