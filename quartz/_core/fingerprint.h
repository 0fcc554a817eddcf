// Numeric fingerprints of circuits (Quartz's CircuitSeq::hash, made phase-invariant):
// evaluate the circuit on one fixed random input state psi with fixed random symbol values and
// take |<h|C psi>| for a second fixed random vector h. Equal circuits (up to global phase) have
// equal fingerprints; rounding is covered by also looking in the neighbouring buckets.
#pragma once
#include <cmath>
#include <complex>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace quartz {

using cplx = std::complex<double>;

class Fingerprinter {
 public:
  // Random psi and h of dimension 2^num_qubits, and num_symbols values in [-pi, pi).
  Fingerprinter(int num_qubits, int num_symbols, uint64_t seed);
  const std::vector<cplx>& input_state() const { return psi_; }
  const std::vector<double>& symbol_values() const { return values_; }
  cplx dot(const cplx* state) const;  // <h|state>

 private:
  std::vector<cplx> psi_, h_;
  std::vector<double> values_;
};

// |<a|b>|: 1 (to rounding) exactly when the states are equal up to a global phase.
double state_overlap(const cplx* a, const cplx* b, size_t dim);

// Buckets of |fingerprint| of width kBucketWidth; lookups also scan the two neighbours.
class FingerprintBuckets {
 public:
  static constexpr double kBucketWidth = 1e-9;
  void insert(double abs_fp, int id) { map_[bucket(abs_fp)].push_back(id); }
  // The first id in buckets b-1, b, b+1 for which match(id) holds, or -1.
  template <class F>
  int find(double abs_fp, F&& match) const {
    int64_t b = bucket(abs_fp);
    for (int64_t d = -1; d <= 1; d++) {
      auto it = map_.find(b + d);
      if (it == map_.end()) continue;
      for (int id : it->second)
        if (match(id)) return id;
    }
    return -1;
  }
  void clear() { map_.clear(); }

 private:
  static int64_t bucket(double x) { return static_cast<int64_t>(std::floor(x / kBucketWidth)); }
  std::unordered_map<int64_t, std::vector<int>> map_;
};

}  // namespace quartz
