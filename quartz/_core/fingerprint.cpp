#include "fingerprint.h"

#include <random>

namespace quartz {

namespace {
std::vector<cplx> random_unit_vector(size_t dim, std::mt19937_64& rng) {
  std::normal_distribution<double> nd(0.0, 1.0);
  std::vector<cplx> v(dim);
  double norm = 0.0;
  for (auto& x : v) {
    x = cplx(nd(rng), nd(rng));
    norm += std::norm(x);
  }
  norm = std::sqrt(norm);
  for (auto& x : v) x /= norm;
  return v;
}
}  // namespace

Fingerprinter::Fingerprinter(int num_qubits, int num_symbols, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const size_t dim = static_cast<size_t>(1) << num_qubits;
  psi_ = random_unit_vector(dim, rng);
  h_ = random_unit_vector(dim, rng);
  std::uniform_real_distribution<double> ud(-M_PI, M_PI);
  for (int i = 0; i < num_symbols; i++) values_.push_back(ud(rng));
}

cplx Fingerprinter::dot(const cplx* s) const {
  cplx acc = 0.0;
  for (size_t i = 0; i < h_.size(); i++) acc += std::conj(h_[i]) * s[i];
  return acc;
}

double state_overlap(const cplx* a, const cplx* b, size_t dim) {
  cplx acc = 0.0;
  for (size_t i = 0; i < dim; i++) acc += std::conj(a[i]) * b[i];
  return std::abs(acc);
}

}  // namespace quartz
