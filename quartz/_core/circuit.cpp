#include "circuit.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>

namespace quartz {

Circuit::Circuit(int num_qubits) : num_qubits_(num_qubits) {
  if (num_qubits < 0) throw std::invalid_argument("number of qubits must be non-negative");
}

const Gate& Circuit::gate(int i) const {
  if (i < 0 || i >= num_gates())
    throw std::out_of_range("gate index " + std::to_string(i) + " out of range");
  return gates_[i];
}

const Param& Circuit::param(int gi, int k) const {
  const Gate& g = gate(gi);
  if (k < 0 || k >= g.num_params) throw std::out_of_range("parameter index out of range");
  return params_[g.param_index + k];
}

void Circuit::set_global_phase(const Param& p) {
  if (p.is_symbolic()) throw std::invalid_argument("global phase must be a constant");
  global_phase_ = p;
  global_phase_.reduce_mod(1);  // phases are kept in (-pi, pi]
}

int Circuit::num_symbols() const {
  int n = 0;
  for (const Param& p : params_)
    for (int i = 0; i < p.nterms; i++) n = std::max(n, p.sym[i] + 1);
  return n;
}

void Circuit::add_gate(GateType t, const std::vector<int>& qubits, const std::vector<Param>& ps) {
  const GateInfo& info = gate_info(t);
  if (static_cast<int>(qubits.size()) != info.num_qubits)
    throw std::invalid_argument(std::string("gate '") + info.name + "' takes " +
                                std::to_string(info.num_qubits) + " qubit(s), got " +
                                std::to_string(qubits.size()));
  if (static_cast<int>(ps.size()) != info.num_params)
    throw std::invalid_argument(std::string("gate '") + info.name + "' takes " +
                                std::to_string(info.num_params) + " parameter(s), got " +
                                std::to_string(ps.size()));
  Gate g{};
  g.type = t;
  g.num_qubits = static_cast<uint8_t>(info.num_qubits);
  g.num_params = static_cast<uint8_t>(info.num_params);
  for (int k = 0; k < info.num_qubits; k++) {
    int q = qubits[k];
    if (q < 0 || q >= num_qubits_)
      throw std::invalid_argument(std::string("gate '") + info.name + "': qubit " +
                                  std::to_string(q) + " out of range for a " +
                                  std::to_string(num_qubits_) + "-qubit circuit");
    for (int j = 0; j < k; j++)
      if (qubits[j] == q)
        throw std::invalid_argument(std::string("gate '") + info.name + "': qubit " +
                                    std::to_string(q) + " used twice");
    g.qubits[k] = q;
  }
  for (int k = info.num_qubits; k < kMaxGateQubits; k++) g.qubits[k] = -1;
  g.param_index = static_cast<int32_t>(params_.size());
  for (const Param& p : ps) params_.push_back(p);
  gates_.push_back(g);
  wires_valid_ = false;
}

void Circuit::append(const Circuit& o) {
  if (o.num_qubits_ != num_qubits_) throw std::invalid_argument("append: qubit counts differ");
  for (const Gate& g : o.gates_) {
    Gate h = g;
    h.param_index = static_cast<int32_t>(params_.size());
    for (int k = 0; k < g.num_params; k++) params_.push_back(o.params_[g.param_index + k]);
    gates_.push_back(h);
  }
  set_global_phase(global_phase_ + o.global_phase_);
  wires_valid_ = false;
}

void Circuit::clear() {
  gates_.clear();
  params_.clear();
  global_phase_ = Param();
  wires_valid_ = false;
}

int Circuit::count(GateType t) const {
  int c = 0;
  for (const Gate& g : gates_) c += (g.type == t);
  return c;
}

int Circuit::two_qubit_count() const {
  int c = 0;
  for (const Gate& g : gates_) c += (g.num_qubits == 2);
  return c;
}

bool is_t_like(GateType t, const Param& p) {
  if (t == GateType::T || t == GateType::TDG) return true;
  if (t == GateType::RZ || t == GateType::P || t == GateType::U1 || t == GateType::CP)
    return !p.is_symbolic() && p.exact && p.den == 4;  // odd multiple of pi/4
  return false;
}

int Circuit::t_count() const {
  static const Param none;
  int c = 0;
  for (const Gate& g : gates_)
    c += is_t_like(g.type, g.num_params ? params_[g.param_index] : none);
  return c;
}

int Circuit::depth() const {
  std::vector<int> d(num_qubits_, 0);
  int best = 0;
  for (const Gate& g : gates_) {
    int m = 0;
    for (int k = 0; k < g.num_qubits; k++) m = std::max(m, d[g.qubits[k]]);
    m++;
    for (int k = 0; k < g.num_qubits; k++) d[g.qubits[k]] = m;
    best = std::max(best, m);
  }
  return best;
}

void Circuit::build_wires() const {
  if (wires_valid_) return;
  const int n = num_gates();
  prev_.assign(static_cast<size_t>(n) * kMaxGateQubits, -1);
  next_.assign(static_cast<size_t>(n) * kMaxGateQubits, -1);
  std::vector<int> last(num_qubits_, -1), last_slot(num_qubits_, -1);
  for (int i = 0; i < n; i++) {
    const Gate& g = gates_[i];
    for (int k = 0; k < g.num_qubits; k++) {
      int q = g.qubits[k];
      if (last[q] >= 0) {
        prev_[i * kMaxGateQubits + k] = last[q];
        next_[last[q] * kMaxGateQubits + last_slot[q]] = i;
      }
      last[q] = i;
      last_slot[q] = k;
    }
  }
  wires_valid_ = true;
}

int Circuit::prev_on_wire(int gi, int k) const {
  if (k < 0 || k >= gate(gi).num_qubits) throw std::out_of_range("qubit slot out of range");
  build_wires();
  return prev_[gi * kMaxGateQubits + k];
}

int Circuit::next_on_wire(int gi, int k) const {
  if (k < 0 || k >= gate(gi).num_qubits) throw std::out_of_range("qubit slot out of range");
  build_wires();
  return next_[gi * kMaxGateQubits + k];
}

std::vector<int> Circuit::canonical_order() const {
  build_wires();
  const int n = num_gates();
  std::vector<int> indeg(n, 0);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < gates_[i].num_qubits; k++)
      if (prev_[i * kMaxGateQubits + k] >= 0) indeg[i]++;
  // Key: (min qubit, type, qubits..., param hashes, original index as last resort).
  auto key = [&](int i) {
    const Gate& g = gates_[i];
    int mq = g.qubits[0];
    for (int k = 1; k < g.num_qubits; k++) mq = std::min(mq, g.qubits[k]);
    uint64_t ph = 0;
    for (int k = 0; k < g.num_params; k++) ph = ph * 1000003ULL + params_[g.param_index + k].hash();
    return std::make_tuple(mq, static_cast<int>(g.type), g.qubits[0], g.qubits[1], g.qubits[2], ph, i);
  };
  using Key = decltype(key(0));
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> ready;
  for (int i = 0; i < n; i++)
    if (indeg[i] == 0) ready.push(key(i));
  std::vector<int> order;
  order.reserve(n);
  while (!ready.empty()) {
    int i = std::get<6>(ready.top());
    ready.pop();
    order.push_back(i);
    for (int k = 0; k < gates_[i].num_qubits; k++) {
      int j = next_[i * kMaxGateQubits + k];
      if (j >= 0 && --indeg[j] == 0) ready.push(key(j));
    }
  }
  return order;
}

Circuit Circuit::canonical() const {
  Circuit c(num_qubits_);
  c.global_phase_ = global_phase_;
  c.gates_.reserve(gates_.size());
  for (int i : canonical_order()) {
    Gate h = gates_[i];
    h.param_index = static_cast<int32_t>(c.params_.size());
    for (int k = 0; k < h.num_params; k++) c.params_.push_back(params_[gates_[i].param_index + k]);
    c.gates_.push_back(h);
  }
  return c;
}

uint64_t Circuit::hash() const {
  uint64_t h = 0xcbf29ce484222325ULL ^ static_cast<uint64_t>(num_qubits_);
  auto mixin = [&h](uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h *= 0x100000001b3ULL;
  };
  for (int i : canonical_order()) {
    const Gate& g = gates_[i];
    mixin(static_cast<uint64_t>(g.type));
    for (int k = 0; k < g.num_qubits; k++) mixin(static_cast<uint64_t>(g.qubits[k]) + 17);
    for (int k = 0; k < g.num_params; k++) mixin(params_[g.param_index + k].hash());
  }
  return h;
}

bool Circuit::equals(const Circuit& o) const {
  if (num_qubits_ != o.num_qubits_ || gates_.size() != o.gates_.size()) return false;
  if (global_phase_ != o.global_phase_) return false;
  std::vector<int> a = canonical_order(), b = o.canonical_order();
  for (size_t i = 0; i < a.size(); i++) {
    const Gate& g = gates_[a[i]];
    const Gate& h = o.gates_[b[i]];
    if (g.type != h.type) return false;
    for (int k = 0; k < g.num_qubits; k++)
      if (g.qubits[k] != h.qubits[k]) return false;
    for (int k = 0; k < g.num_params; k++)
      if (params_[g.param_index + k] != o.params_[h.param_index + k]) return false;
  }
  return true;
}

Circuit Circuit::inverse() const {
  Circuit c(num_qubits_);
  c.set_global_phase(-global_phase_);
  auto half_pi = Param::pi_frac(1, 2);
  for (int i = num_gates() - 1; i >= 0; i--) {
    const Gate& g = gates_[i];
    std::vector<int> qs(g.qubits, g.qubits + g.num_qubits);
    std::vector<Param> ps;
    for (int k = 0; k < g.num_params; k++) ps.push_back(params_[g.param_index + k]);
    GateType t = g.type;
    switch (t) {
      case GateType::S: t = GateType::SDG; break;
      case GateType::SDG: t = GateType::S; break;
      case GateType::T: t = GateType::TDG; break;
      case GateType::TDG: t = GateType::T; break;
      case GateType::SX: t = GateType::SXDG; break;
      case GateType::SXDG: t = GateType::SX; break;
      case GateType::RX: case GateType::RY: case GateType::RZ: case GateType::P:
      case GateType::U1: case GateType::CP: case GateType::RXX: case GateType::RYY:
      case GateType::RZZ:
        ps[0] = -ps[0];
        break;
      case GateType::U2:  // u2(phi, lam)^-1 = u3(-pi/2, -lam, -phi)
        t = GateType::U3;
        ps = {-half_pi, -ps[1], -ps[0]};
        break;
      case GateType::U3:
        ps = {-ps[0], -ps[2], -ps[1]};
        break;
      default: break;  // self-inverse
    }
    c.add_gate(t, qs, ps);
  }
  return c;
}

bool Circuit::convex_span(const std::vector<int>& gates, int& lo, int& hi,
                          std::vector<char>& marks) const {
  lo = *std::min_element(gates.begin(), gates.end());
  hi = *std::max_element(gates.begin(), gates.end());
  marks.assign(hi - lo + 1, 0);
  for (int g : gates) marks[g - lo] = 1;
  for (int i = lo; i <= hi; i++) {
    bool from_set = false, from_desc = false;
    for (int k = 0; k < gates_[i].num_qubits; k++) {
      const int p = prev_on_wire(i, k);
      if (p < lo) continue;
      if (marks[p - lo] == 1) from_set = true;
      if (marks[p - lo] == 2) from_desc = true;
    }
    if (marks[i - lo] == 1) {
      if (from_desc) return false;
    } else if (from_set || from_desc) {
      marks[i - lo] = 2;
    }
  }
  return true;
}

Circuit Circuit::slice(int begin, int end) const {
  if (begin < 0 || end > num_gates() || begin > end) throw std::out_of_range("slice out of range");
  Circuit c(num_qubits_);
  for (int i = begin; i < end; i++) {
    const Gate& g = gates_[i];
    std::vector<int> qs(g.qubits, g.qubits + g.num_qubits);
    std::vector<Param> ps(params_.begin() + g.param_index, params_.begin() + g.param_index + g.num_params);
    c.add_gate(g.type, qs, ps);
  }
  return c;
}

namespace {

// Complex multiply without the NaN/inf recovery of operator* (which blocks vectorization).
inline void cmul_add(double& re, double& im, double mr, double mi, double xr, double xi) {
  re += mr * xr - mi * xi;
  im += mr * xi + mi * xr;
}

// Apply a dense k-qubit matrix to `data`, viewed as 2^n slots of `width` contiguous amplitudes
// (width 1: a state vector; width 2^n: the rows of a unitary, i.e. U <- G U).
void apply_slots(cplx* data, int n, size_t width, const std::vector<cplx>& m,
                 const int32_t* qs, int k, bool diagonal) {
  const size_t dim = static_cast<size_t>(1) << n;
  double* d = reinterpret_cast<double*>(data);
  if (diagonal) {
    const int dd = 1 << k;
    for (size_t i = 0; i < dim; i++) {
      int a = 0;
      for (int j = 0; j < k; j++) a |= static_cast<int>((i >> qs[j]) & 1) << j;
      const cplx f = m[a * dd + a];
      if (f == cplx(1.0, 0.0)) continue;
      const double fr = f.real(), fi = f.imag();
      double* p = d + 2 * i * width;
      for (size_t w = 0; w < width; w++) {
        double xr = p[2 * w], xi = p[2 * w + 1];
        p[2 * w] = fr * xr - fi * xi;
        p[2 * w + 1] = fr * xi + fi * xr;
      }
    }
    return;
  }
  if (k == 1) {
    const size_t b = static_cast<size_t>(1) << qs[0];
    const double m00r = m[0].real(), m00i = m[0].imag(), m01r = m[1].real(), m01i = m[1].imag();
    const double m10r = m[2].real(), m10i = m[2].imag(), m11r = m[3].real(), m11i = m[3].imag();
    for (size_t hi = 0; hi < dim; hi += 2 * b)
      for (size_t lo = hi; lo < hi + b; lo++) {
        double* p0 = d + 2 * lo * width;
        double* p1 = d + 2 * (lo + b) * width;
        for (size_t w = 0; w < width; w++) {
          const double ar = p0[2 * w], ai = p0[2 * w + 1], cr = p1[2 * w], ci = p1[2 * w + 1];
          double r0 = 0, i0 = 0, r1 = 0, i1 = 0;
          cmul_add(r0, i0, m00r, m00i, ar, ai); cmul_add(r0, i0, m01r, m01i, cr, ci);
          cmul_add(r1, i1, m10r, m10i, ar, ai); cmul_add(r1, i1, m11r, m11i, cr, ci);
          p0[2 * w] = r0; p0[2 * w + 1] = i0; p1[2 * w] = r1; p1[2 * w + 1] = i1;
        }
      }
    return;
  }
  const int dd = 1 << k;
  size_t mask = 0;
  for (int j = 0; j < k; j++) mask |= static_cast<size_t>(1) << qs[j];
  size_t offs[8];
  for (int a = 0; a < dd; a++) {
    size_t o = 0;
    for (int j = 0; j < k; j++)
      if (a >> j & 1) o |= static_cast<size_t>(1) << qs[j];
    offs[a] = o;
  }
  double mr[64], mi[64];
  for (int i = 0; i < dd * dd; i++) { mr[i] = m[i].real(); mi[i] = m[i].imag(); }
  // Calls body(p) with the dd slot pointers of every group of slots the gate mixes.
  auto for_each_group = [&](auto&& body) {
    double* p[8];
    for (size_t base = 0; base < dim; base++) {
      if (base & mask) continue;
      for (int a = 0; a < dd; a++) p[a] = d + 2 * (base | offs[a]) * width;
      body(p);
    }
  };
  // Monomial matrices (cx, swap, ccx, cy, ...): one non-zero per row, so out[r] = f_r in[sigma_r].
  int sigma[8];
  bool monomial = true;
  for (int r = 0; r < dd && monomial; r++) {
    int nz = 0;
    for (int c = 0; c < dd; c++)
      if (m[r * dd + c] != cplx(0.0, 0.0)) { sigma[r] = c; nz++; }
    monomial = (nz == 1);
  }
  if (monomial) {
    int moved[8], nmoved = 0;
    for (int r = 0; r < dd; r++)
      if (sigma[r] != r || m[r * dd + r] != cplx(1.0, 0.0)) moved[nmoved++] = r;
    double fr[8], fi[8];
    for (int r = 0; r < dd; r++) { fr[r] = mr[r * dd + sigma[r]]; fi[r] = mi[r * dd + sigma[r]]; }
    double inr[8], ini[8];
    for_each_group([&](double** p) {
      for (size_t w = 0; w < width; w++) {
        for (int t = 0; t < nmoved; t++) {
          const int a = sigma[moved[t]];
          inr[t] = p[a][2 * w]; ini[t] = p[a][2 * w + 1];
        }
        for (int t = 0; t < nmoved; t++) {
          const int r = moved[t];
          p[r][2 * w] = fr[r] * inr[t] - fi[r] * ini[t];
          p[r][2 * w + 1] = fr[r] * ini[t] + fi[r] * inr[t];
        }
      }
    });
    return;
  }
  double inr[8], ini[8];
  for_each_group([&](double** p) {
    for (size_t w = 0; w < width; w++) {
      for (int a = 0; a < dd; a++) { inr[a] = p[a][2 * w]; ini[a] = p[a][2 * w + 1]; }
      for (int r = 0; r < dd; r++) {
        double re = 0, im = 0;
        for (int c = 0; c < dd; c++) cmul_add(re, im, mr[r * dd + c], mi[r * dd + c], inr[c], ini[c]);
        p[r][2 * w] = re; p[r][2 * w + 1] = im;
      }
    }
  });
}

}  // namespace

void apply_matrix(std::vector<cplx>& st, int n, const std::vector<cplx>& m,
                  const int32_t* qs, int k) {
  apply_slots(st.data(), n, 1, m, qs, k, false);
}

void Circuit::apply(std::vector<cplx>& st, const std::vector<double>& vals,
                    bool include_global_phase) const {
  if (num_qubits_ > kMaxSimulatedQubits)
    throw std::invalid_argument("circuit has too many qubits to simulate (" +
                                std::to_string(num_qubits_) + ")");
  if (st.size() != (static_cast<size_t>(1) << num_qubits_))
    throw std::invalid_argument("state vector has the wrong dimension");
  double pv[kMaxGateParams];
  for (const Gate& g : gates_) {
    for (int k = 0; k < g.num_params; k++)
      pv[k] = params_[g.param_index + k].value(vals.data(), static_cast<int>(vals.size()));
    apply_slots(st.data(), num_qubits_, 1, gate_matrix(g.type, pv), g.qubits, g.num_qubits,
                gate_info(g.type).diagonal);
  }
  if (include_global_phase && !global_phase_.is_zero_constant()) {
    cplx ph = std::polar(1.0, global_phase_.const_radians());
    for (auto& a : st) a *= ph;
  }
}

std::vector<cplx> Circuit::unitary(const std::vector<double>& vals, bool include_global_phase) const {
  if (num_qubits_ > kMaxUnitaryQubits)
    throw std::invalid_argument("unitary: too many qubits (" + std::to_string(num_qubits_) +
                                ", max " + std::to_string(kMaxUnitaryQubits) + ")");
  const size_t dim = static_cast<size_t>(1) << num_qubits_;
  std::vector<cplx> u(dim * dim, cplx(0.0));
  for (size_t i = 0; i < dim; i++) u[i * dim + i] = 1.0;
  double pv[kMaxGateParams];
  for (const Gate& g : gates_) {  // U <- G U, one gate at a time, on whole rows
    for (int k = 0; k < g.num_params; k++)
      pv[k] = params_[g.param_index + k].value(vals.data(), static_cast<int>(vals.size()));
    apply_slots(u.data(), num_qubits_, dim, gate_matrix(g.type, pv), g.qubits, g.num_qubits,
                gate_info(g.type).diagonal);
  }
  if (include_global_phase && !global_phase_.is_zero_constant()) {
    cplx ph = std::polar(1.0, global_phase_.const_radians());
    for (auto& a : u) a *= ph;
  }
  return u;
}

}  // namespace quartz
