// Phase-polynomial rotation merging (Nam et al. 2018 / phase folding) with the affine bit.
//
// Every wire carries an affine parity of path variables (inputs, plus a fresh variable per
// qubit of each non-affine gate). A diagonal rotation rz(t) on a wire whose value is NOT(f)
// equals rz(-t) on f exactly, and p-type gates are e^{i l/2} rz(l), so every rotation is a
// signed term of the phase polynomial. Terms with the same linear part add up; the sum is
// written back once, at the first (or last) place where a wire carries that parity.
#include <unordered_map>

#include "preprocess.h"

namespace quartz {
namespace preprocess {

Circuit rotation_merge(const Circuit& c, DiagStyle style, bool placement_last, MergeStats* stats) {
  const std::vector<PGate> g = to_list(c);
  const int n = c.num_qubits();
  struct Term {
    Param angle;  // total rz angle on the un-negated parity
    int first, last;
    bool first_neg, last_neg;
  };
  std::unordered_map<Parity, int, ParityHash, ParityLinearEq> index;
  std::vector<Term> terms;
  std::vector<int> term_of(g.size(), -1);
  Param phase = c.global_phase();
  WireTracker wires(n);
  int rotations = 0;
  for (size_t i = 0; i < g.size(); i++) {
    const Kind k = classify(g[i], style);
    if (k == Kind::ROT) {
      rotations++;
      const Parity& w = wires.wire(g[i].q[0]);
      Param theta, ph;
      rot_as_rz(g[i], theta, ph);
      phase = phase + ph;
      if (w.neg) theta = -theta;
      auto it = index.find(w);
      int id;
      if (it == index.end()) {
        id = static_cast<int>(terms.size());
        index.emplace(w, id);
        terms.push_back({theta, static_cast<int>(i), static_cast<int>(i), w.neg, w.neg});
      } else {
        id = it->second;
        Term& t = terms[id];
        t.angle = t.angle + theta;
        t.last = static_cast<int>(i);
        t.last_neg = w.neg;
      }
      term_of[i] = id;
    }
    wires.apply(g[i], k);
  }
  std::vector<PGate> out;
  out.reserve(g.size());
  for (size_t i = 0; i < g.size(); i++) {
    const int id = term_of[i];
    if (id < 0) {
      out.push_back(g[i]);
      continue;
    }
    const Term& t = terms[id];
    const int pos = placement_last ? t.last : t.first;
    if (static_cast<int>(i) != pos) continue;
    const bool neg = placement_last ? t.last_neg : t.first_neg;
    emit_rz(out, g[i].q[0], neg ? -t.angle : t.angle, style, phase);
  }
  if (stats) {
    stats->terms = static_cast<int>(terms.size());
    stats->merged = rotations - static_cast<int>(terms.size());
  }
  return from_list(n, out, phase);
}

}  // namespace preprocess
}  // namespace quartz
