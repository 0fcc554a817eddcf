// Gate parameters: exact rational multiples of pi, float radians, and integer-linear
// combinations of symbolic inputs (Quartz's add/neg expressions).
#pragma once
#include <cstdint>
#include <string>

namespace quartz {

constexpr int kMaxParamTerms = 4;

struct Param {
  // value = constant + sum_i coef[i] * symbol_{sym[i]}; the constant is num/den * pi when
  // exact is set, otherwise rad radians. Terms are sorted by symbol and have non-zero coefs.
  int64_t num = 0;
  int64_t den = 1;
  bool exact = true;
  double rad = 0.0;
  uint8_t nterms = 0;
  int16_t sym[kMaxParamTerms] = {0, 0, 0, 0};
  int16_t coef[kMaxParamTerms] = {0, 0, 0, 0};

  static Param pi_frac(int64_t num, int64_t den);
  static Param radians(double x);
  static Param symbol(int index, int coefficient = 1);

  bool is_symbolic() const { return nterms > 0; }
  bool is_zero_constant() const { return exact ? num == 0 : rad == 0.0; }
  // The constant part in radians.
  double const_radians() const;
  // Numeric value with the given symbol values (radians); symbols beyond n are an error.
  double value(const double* symbol_values, int n) const;
  Param operator+(const Param& o) const;
  Param operator-() const;
  Param operator-(const Param& o) const { return *this + (-o); }
  Param scaled(int k) const;
  // The constant part only (symbols dropped) and the symbolic part only.
  Param constant_part() const;
  Param symbolic_part() const;
  // Reduce an exact constant modulo 2*period*pi into (-period*pi, period*pi]; returns the number
  // of whole periods removed (so callers can track the sign/phase of the wrap).
  int64_t reduce_mod(int64_t period_in_pi);
  bool operator==(const Param& o) const;
  bool operator!=(const Param& o) const { return !(*this == o); }
  uint64_t hash() const;
  std::string to_string() const;  // e.g. "pi*3/4", "0.3", "p0+p1-pi/2"
};

}  // namespace quartz
