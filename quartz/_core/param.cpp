#include "param.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <stdexcept>

namespace quartz {

namespace {
using i128 = __int128;

void normalize(i128 n, i128 d, int64_t& out_num, int64_t& out_den) {
  if (d == 0) throw std::invalid_argument("angle with zero denominator");
  if (d < 0) { n = -n; d = -d; }
  i128 a = n < 0 ? -n : n, b = d;
  while (b != 0) { i128 t = a % b; a = b; b = t; }
  if (a == 0) a = 1;
  n /= a; d /= a;
  const i128 lim = (static_cast<i128>(1) << 62);
  if (n > lim || n < -lim || d > lim)
    throw std::overflow_error("exact angle overflows 62-bit rational; use float angles");
  out_num = static_cast<int64_t>(n);
  out_den = static_cast<int64_t>(d);
}

int16_t checked_coef(int64_t v) {
  if (v < -32768 || v > 32767)
    throw std::overflow_error("symbol coefficient " + std::to_string(v) + " out of range (|coef| <= 32767)");
  return static_cast<int16_t>(v);
}

// A float constant that is exactly zero becomes the exact zero (so 0.3 - 0.3 == 0).
void zero_to_exact(Param& p) {
  if (!p.exact && p.rad == 0.0) { p.exact = true; p.rad = 0.0; p.num = 0; p.den = 1; }
}

uint64_t mix(uint64_t h, uint64_t v) {
  v += 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  v ^= v >> 30; v *= 0xbf58476d1ce4e5b9ULL;
  v ^= v >> 27; v *= 0x94d049bb133111ebULL;
  v ^= v >> 31;
  return h ^ v;
}
}  // namespace

Param Param::pi_frac(int64_t num, int64_t den) {
  Param p;
  normalize(num, den, p.num, p.den);
  return p;
}

Param Param::radians(double x) {
  if (!std::isfinite(x)) throw std::invalid_argument("angle is not a finite number");
  Param p;
  p.exact = false;
  p.num = 0; p.den = 1;
  p.rad = x;
  if (x == 0.0) { p.exact = true; p.rad = 0.0; }
  return p;
}

Param Param::symbol(int index, int coefficient) {
  if (index < 0 || index > 32767) throw std::invalid_argument("symbol index out of range");
  Param p;
  if (coefficient != 0) {
    p.nterms = 1;
    p.sym[0] = static_cast<int16_t>(index);
    p.coef[0] = checked_coef(coefficient);
  }
  return p;
}

double Param::const_radians() const {
  return exact ? M_PI * static_cast<double>(num) / static_cast<double>(den) : rad;
}

double Param::value(const double* vals, int n) const {
  double v = const_radians();
  for (int i = 0; i < nterms; i++) {
    if (sym[i] >= n) throw std::invalid_argument("no value given for symbol p" + std::to_string(sym[i]));
    v += coef[i] * vals[sym[i]];
  }
  return v;
}

Param Param::operator+(const Param& o) const {
  Param r;
  if (exact && o.exact) {
    normalize(static_cast<i128>(num) * o.den + static_cast<i128>(o.num) * den,
              static_cast<i128>(den) * o.den, r.num, r.den);
  } else {
    r.exact = false;
    r.rad = const_radians() + o.const_radians();
  }
  // Merge sorted term lists.
  int i = 0, j = 0;
  int16_t s[2 * kMaxParamTerms], c[2 * kMaxParamTerms];
  int k = 0;
  while (i < nterms || j < o.nterms) {
    if (j >= o.nterms || (i < nterms && sym[i] < o.sym[j])) { s[k] = sym[i]; c[k++] = coef[i++]; }
    else if (i >= nterms || o.sym[j] < sym[i]) { s[k] = o.sym[j]; c[k++] = o.coef[j++]; }
    else {
      int64_t v = static_cast<int64_t>(coef[i]) + o.coef[j];
      if (v != 0) { s[k] = sym[i]; c[k++] = checked_coef(v); }
      i++; j++;
    }
  }
  if (k > kMaxParamTerms) throw std::invalid_argument("parameter expression uses more than 4 symbols");
  r.nterms = static_cast<uint8_t>(k);
  for (int t = 0; t < k; t++) { r.sym[t] = s[t]; r.coef[t] = c[t]; }
  zero_to_exact(r);
  return r;
}

Param Param::operator-() const { return scaled(-1); }

Param Param::scaled(int k) const {
  Param r = *this;
  if (exact) normalize(static_cast<i128>(num) * k, den, r.num, r.den);
  else r.rad = rad * k;
  int m = 0;
  for (int i = 0; i < nterms; i++) {
    int64_t v = static_cast<int64_t>(coef[i]) * k;
    if (v != 0) { r.sym[m] = sym[i]; r.coef[m++] = checked_coef(v); }
  }
  for (int i = m; i < kMaxParamTerms; i++) { r.sym[i] = 0; r.coef[i] = 0; }
  r.nterms = static_cast<uint8_t>(m);
  zero_to_exact(r);
  return r;
}

Param Param::constant_part() const {
  Param r = *this;
  r.nterms = 0;
  for (int i = 0; i < kMaxParamTerms; i++) { r.sym[i] = 0; r.coef[i] = 0; }
  return r;
}

Param Param::symbolic_part() const {
  Param r = *this;
  r.exact = true; r.num = 0; r.den = 1; r.rad = 0.0;
  return r;
}

int64_t Param::reduce_mod(int64_t period) {
  if (period <= 0 || period > (static_cast<int64_t>(1) << 40))
    throw std::invalid_argument("reduction period must be a positive number of pi");
  if (!exact) {
    double P = static_cast<double>(period) * M_PI;
    double w = std::ceil((rad - P) / (2 * P));
    if (!(std::fabs(w) < 4e18)) throw std::overflow_error("angle too large to reduce");
    rad -= w * 2 * P;
    if (rad <= -P) { rad += 2 * P; w -= 1; }  // float rounding at the open end
    if (rad > P) { rad -= 2 * P; w += 1; }
    zero_to_exact(*this);
    return static_cast<int64_t>(w);
  }
  // Find w with num/den - 2*period*w in (-period, period].
  const i128 T = static_cast<i128>(2) * period * den;
  const i128 x = static_cast<i128>(num) - static_cast<i128>(period) * den;
  i128 w = x / T;  // truncation toward zero; make it a ceiling
  if (x % T != 0 && x > 0) w += 1;
  normalize(static_cast<i128>(num) - w * T, den, num, den);
  return static_cast<int64_t>(w);
}

bool Param::operator==(const Param& o) const {
  if (exact != o.exact || nterms != o.nterms) return false;
  if (exact ? (num != o.num || den != o.den) : rad != o.rad) return false;
  for (int i = 0; i < nterms; i++)
    if (sym[i] != o.sym[i] || coef[i] != o.coef[i]) return false;
  return true;
}

uint64_t Param::hash() const {
  uint64_t h = exact ? 0x1234567ULL : 0x7654321ULL;
  if (exact) { h = mix(h, static_cast<uint64_t>(num)); h = mix(h, static_cast<uint64_t>(den)); }
  else { uint64_t b; std::memcpy(&b, &rad, 8); h = mix(h, b); }
  for (int i = 0; i < nterms; i++) {
    h = mix(h, static_cast<uint64_t>(sym[i]));
    h = mix(h, static_cast<uint64_t>(static_cast<int64_t>(coef[i])));
  }
  return h;
}

std::string Param::to_string() const {
  std::string out;
  for (int i = 0; i < nterms; i++) {
    int c = coef[i];
    if (c < 0) out += "-"; else if (!out.empty()) out += "+";
    int a = c < 0 ? -c : c;
    if (a != 1) out += std::to_string(a) + "*";
    out += "p" + std::to_string(sym[i]);
  }
  std::string k;
  if (exact) {
    if (num != 0) {
      int64_t a = num < 0 ? -num : num;
      k = (num < 0) ? "-" : (out.empty() ? "" : "+");
      k += "pi";
      if (a != 1) k += "*" + std::to_string(a);
      if (den != 1) k += "/" + std::to_string(den);
    }
  } else if (rad != 0.0) {
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {  // shortest text that reads back exactly
      std::snprintf(buf, sizeof buf, "%.*g", prec, rad);
      if (std::strtod(buf, nullptr) == rad) break;
    }
    k = (rad > 0 && !out.empty()) ? std::string("+") + buf : std::string(buf);
  }
  out += k;
  return out.empty() ? "0" : out;
}

}  // namespace quartz
