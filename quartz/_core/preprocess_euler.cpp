// Shortest {h, x, rz} form of every run of one-qubit h, x and rz gates (an inexact move), and
// shortest {rx, rz} form of runs with rx (see candidates).
//
// A run's 2x2 unitary U is written as e^{i phi} rz(a) rx(b) rz(c) (ZXZ Euler angles, and the
// equivalent (a + pi, -b, c + pi)), with rx(b) = h rz(b) h. Special angles shorten the form:
// b = 0 gives rz(a + c); b = pi gives rz(c - a) then x; b = pi/2 gives rz(c - pi/2), h,
// rz(a - pi/2) (rz(pi/2) rx(pi/2) rz(pi/2) = e^{-i pi/2} h); rz gates with a zero angle are
// dropped. The shortest candidate whose unitary is within kTol of U (entrywise, after the
// phase is taken out) replaces the run when it has fewer gates; the phase goes to the
// circuit's global phase. Angles within kSnap of a multiple of pi/4 are written exactly
// (pi/4 fractions), the others as float radians, so results need a numeric check.
#include <cmath>

#include "gates.h"
#include "preprocess.h"

namespace quartz {
namespace preprocess {

namespace {

using M2 = std::array<cplx, 4>;  // row-major 2x2

constexpr double kPi = 3.14159265358979323846;
constexpr double kTol = 1e-11;   // entrywise distance allowed between the new run and the old
constexpr double kSnap = 1e-12;  // angles this close to k pi/4 become exact
constexpr double kZero = 1e-12;  // rz angles this close to 0 (mod 4 pi up to phase) are dropped
// exact_only: longest run taken. The entries of a run of h, x and k pi/4 rotations lie in
// Z[e^{i pi/4}, 1/2] with a denominator of at most sqrt(2)^(run length); two different such
// unitaries of runs this short differ by far more than kTol, so a match within kTol is equality.
constexpr size_t kExactRunMax = 40;

M2 mul(const M2& a, const M2& b) {  // a * b
  return {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
          a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
}

M2 matrix_of(GateType t, double angle) {
  const std::vector<cplx> m = gate_matrix(t, &angle);
  return {m[0], m[1], m[2], m[3]};
}

// An angle as a Param: exact k pi/4 when it is one (to kSnap), else radians in (-pi, pi].
Param angle_param(double x) {
  double r = std::remainder(x, 4 * kPi);  // rz has period 4 pi (2 pi up to a phase of -1)
  double k = std::round(r / (kPi / 4));
  if (std::fabs(r - k * kPi / 4) < kSnap) return Param::pi_frac(static_cast<int64_t>(k), 4);
  return Param::radians(r);
}

// phase + x radians, exact when the sum is a multiple of pi/4 (to kSnap), in (-pi, pi].
Param add_phase(const Param& phase, double x) {
  const double k = std::round(x / (kPi / 4));
  if (phase.exact && std::fabs(x - k * kPi / 4) < kSnap) {
    Param p = phase + Param::pi_frac(static_cast<int64_t>(k), 4);
    p.reduce_mod(1);
    return p;
  }
  return Param::radians(std::remainder(phase.const_radians() + x, 2 * kPi));
}

struct Step {
  GateType type;
  double angle;
};

bool is_zero_angle(double a) { return std::fabs(std::remainder(a, 2 * kPi)) < kZero; }

// Candidate runs for the ZXZ angles (a, b, c), in no particular order; the caller keeps the
// shortest one that checks out. rx_form: a run of rx and rz gates (gate sets with rx, no h:
// Rigetti's), written with rx and rz only: rz(c) rx(b) rz(a) in time order, rz(c - a) rx(pi)
// when b = pi (rx(pi) is x up to a phase); it never adds h or x, which such gate sets lack.
void candidates(double a, double b, double c, bool rx_form, std::vector<std::vector<Step>>& out) {
  auto rz = [](std::vector<Step>& s, double x) {
    if (!is_zero_angle(x)) s.push_back({GateType::RZ, x});
  };
  const double bb = std::remainder(b, 2 * kPi);
  if (std::fabs(bb) < kZero) {
    std::vector<Step> s;
    rz(s, a + c);
    out.push_back(s);
  }
  if (std::fabs(std::fabs(bb) - kPi) < kZero) {
    std::vector<Step> s;
    rz(s, c - a);
    s.push_back(rx_form ? Step{GateType::RX, kPi} : Step{GateType::X, 0});
    out.push_back(s);
  }
  if (!rx_form && std::fabs(bb - kPi / 2) < kZero) {
    std::vector<Step> s;
    rz(s, c - kPi / 2);
    s.push_back({GateType::H, 0});
    rz(s, a - kPi / 2);
    out.push_back(s);
  }
  std::vector<Step> s;
  rz(s, c);
  if (rx_form) {
    s.push_back({GateType::RX, b});
  } else {
    s.push_back({GateType::H, 0});
    rz(s, b);
    s.push_back({GateType::H, 0});
  }
  rz(s, a);
  out.push_back(s);
}

// ZXZ Euler angles of U up to phase: U = e^{i phi} rz(a) rx(b) rz(c).
void zxz(const M2& u, double& a, double& b, double& c) {
  // rz(a) rx(b) rz(c) = [[cos(b/2) e^{-i(a+c)/2}, -i sin(b/2) e^{-i(a-c)/2}],
  //                      [-i sin(b/2) e^{i(a-c)/2}, cos(b/2) e^{i(a+c)/2}]]
  const double c0 = std::abs(u[0]), s0 = std::abs(u[2]);
  b = 2 * std::atan2(s0, c0);
  const double sum = (c0 > 1e-9) ? std::arg(u[3]) - std::arg(u[0]) : 0.0;         // a + c
  const double diff = (s0 > 1e-9) ? std::arg(u[2]) - std::arg(u[1]) : 0.0;  // a - c
  if (c0 <= 1e-9) {  // b = pi: only a - c matters
    a = diff / 2;
    c = -diff / 2;
  } else if (s0 <= 1e-9) {  // b = 0: only a + c matters
    a = sum / 2;
    c = sum / 2;
  } else {
    a = (sum + diff) / 2;
    c = (sum - diff) / 2;
  }
}

M2 run_matrix(const std::vector<Step>& s) {
  M2 u = {1, 0, 0, 1};
  for (const Step& st : s) u = mul(matrix_of(st.type, st.angle), u);
  return u;
}

// The phase phi with u = e^{i phi} v when they agree to kTol up to phase; false otherwise.
bool same_up_to_phase(const M2& u, const M2& v, double& phi) {
  int k = 0;
  for (int i = 1; i < 4; i++)
    if (std::abs(v[i]) > std::abs(v[k])) k = i;
  const cplx ph = u[k] / v[k];
  if (std::fabs(std::abs(ph) - 1.0) > kTol) return false;
  for (int i = 0; i < 4; i++)
    if (std::abs(u[i] - ph * v[i]) > kTol) return false;
  phi = std::arg(ph);
  return true;
}

bool run_gate(const PGate& g) {
  if (g.nq != 1) return false;
  if (g.type == GateType::H || g.type == GateType::X) return true;
  return (g.type == GateType::RZ || g.type == GateType::RX) && !g.p[0].is_symbolic();
}

}  // namespace

Circuit resynthesize_1q_runs(const Circuit& c, int* changed, bool exact_only) {
  std::vector<PGate> g = to_list(c);
  const int m = static_cast<int>(g.size());
  std::vector<char> removed(m, 0);
  std::vector<std::vector<PGate>> replace_at(m);  // new gates emitted in place of gate i
  Param phase = c.global_phase();
  int count = 0;
  std::vector<std::vector<int>> run(c.num_qubits());

  auto close = [&](int q) {
    std::vector<int>& r = run[q];
    bool take = r.size() >= 2 && (!exact_only || r.size() <= kExactRunMax);
    if (take && exact_only) {  // rx in the run, every angle an exact k pi/4
      bool rx = false;
      for (int i : r) {
        rx = rx || g[i].type == GateType::RX;
        if (g[i].np && !(g[i].p[0].exact && g[i].p[0].den > 0 && 4 % g[i].p[0].den == 0)) take = false;
      }
      take = take && rx && phase.exact;
    }
    if (take) {
      std::vector<Step> old;
      bool has_h = false, has_rx = false;
      for (int i : r) {
        old.push_back({g[i].type, g[i].np ? g[i].p[0].const_radians() : 0.0});
        has_h = has_h || g[i].type == GateType::H;
        has_rx = has_rx || g[i].type == GateType::RX;
      }
      const M2 u = run_matrix(old);
      double a, b, cc;
      zxz(u, a, b, cc);
      std::vector<std::vector<Step>> cand;
      // a and c come from phase differences known mod 2 pi, so b's sign is not known: try
      // both, each also as (a + pi, -b, c + pi); the check below keeps the right ones. A run
      // with rx is written with rx and rz only (its gate set may have no h or x).
      for (double sb : {b, -b}) {
        candidates(a, sb, cc, has_rx, cand);
        candidates(a + kPi, -sb, cc + kPi, has_rx, cand);
      }
      size_t best_len = r.size();  // a candidate must be strictly shorter than the run
      bool found = false;
      double best_phi = 0;
      for (const std::vector<Step>& cs : cand) {
        if (cs.size() >= best_len) continue;
        bool new_h = false;
        for (const Step& st : cs) new_h = new_h || st.type == GateType::H;
        if (new_h && !has_h) continue;  // a run without h never gains one (gate sets without h)
        // Check the run as it will be written (snapped angles), not the unsnapped candidate.
        std::vector<PGate> written;
        std::vector<Step> snapped;
        bool all_exact = true;
        for (const Step& st : cs) {
          if (st.type == GateType::RZ || st.type == GateType::RX) {
            Param p = angle_param(st.angle);
            // exact_only keeps rx hardware-native (multiples of pi/2, Rigetti's), rz any k pi/4
            all_exact = all_exact && p.exact && (st.type == GateType::RZ || p.den <= 2);
            written.push_back(make_rot(st.type, q, p));
            snapped.push_back({st.type, p.const_radians()});
          } else {
            written.push_back(make_gate(st.type, q));
            snapped.push_back(st);
          }
        }
        if (exact_only && !all_exact) continue;
        double phi;
        if (!same_up_to_phase(u, run_matrix(snapped), phi)) continue;
        if (exact_only && !add_phase(phase, phi).exact) continue;
        best_len = cs.size();
        found = true;
        best_phi = phi;
        replace_at[r.back()] = std::move(written);
      }
      if (found) {
        for (int i : r) removed[i] = 1;
        removed[r.back()] = 2;  // replaced
        phase = add_phase(phase, best_phi);
        count++;
      }
    }
    r.clear();
  };

  for (int i = 0; i < m; i++) {
    const PGate& x = g[i];
    if (run_gate(x)) {
      run[x.q[0]].push_back(i);
      continue;
    }
    for (int k = 0; k < x.nq; k++) close(x.q[k]);
  }
  for (int q = 0; q < c.num_qubits(); q++) close(q);
  if (changed) *changed = count;
  if (count == 0) return c;
  std::vector<PGate> out;
  out.reserve(m);
  for (int i = 0; i < m; i++) {
    if (removed[i] == 2) out.insert(out.end(), replace_at[i].begin(), replace_at[i].end());
    else if (!removed[i]) out.push_back(g[i]);
  }
  return from_list(c.num_qubits(), out, phase);
}

}  // namespace preprocess
}  // namespace quartz
