#include "gates.h"

#include <cmath>
#include <stdexcept>
#include <unordered_map>

namespace quartz {

namespace {
const GateInfo kGateInfo[kNumGateTypes] = {
    {"h", 1, 0, false, false},    {"x", 1, 0, false, false},    {"y", 1, 0, false, false},
    {"z", 1, 0, false, true},     {"s", 1, 0, false, true},     {"sdg", 1, 0, false, true},
    {"t", 1, 0, false, true},     {"tdg", 1, 0, false, true},   {"sx", 1, 0, false, false},
    {"sxdg", 1, 0, false, false}, {"rx", 1, 1, false, false},   {"ry", 1, 1, false, false},
    {"rz", 1, 1, false, true},    {"p", 1, 1, false, true},     {"u1", 1, 1, false, true},
    {"u2", 1, 2, false, false},   {"u3", 1, 3, false, false},   {"cx", 2, 0, false, false},
    {"cy", 2, 0, false, false},   {"cz", 2, 0, true, true},     {"ch", 2, 0, false, false},
    {"cp", 2, 1, true, true},     {"swap", 2, 0, true, false},  {"rxx", 2, 1, true, false},
    {"ryy", 2, 1, true, false},   {"rzz", 2, 1, true, true},    {"ccx", 3, 0, false, false},
    {"ccz", 3, 0, true, true},
};
const cplx I(0.0, 1.0);
const double R2 = 0.70710678118654752440;
}  // namespace

const GateInfo& gate_info(GateType t) {
  int i = static_cast<int>(t);
  if (i < 0 || i >= kNumGateTypes) throw std::out_of_range("invalid gate type");
  return kGateInfo[i];
}

GateType gate_type_from_name(const std::string& name) {
  static const std::unordered_map<std::string, GateType> table = [] {
    std::unordered_map<std::string, GateType> m;
    for (int i = 0; i < kNumGateTypes; i++) m[kGateInfo[i].name] = static_cast<GateType>(i);
    return m;
  }();
  auto it = table.find(name);
  return it == table.end() ? GateType::NUM_TYPES : it->second;
}

std::vector<cplx> gate_matrix(GateType t, const double* p) {
  auto eye = [](int d) {
    std::vector<cplx> m(d * d, 0.0);
    for (int i = 0; i < d; i++) m[i * d + i] = 1.0;
    return m;
  };
  auto diag = [](std::initializer_list<cplx> v) {
    int d = static_cast<int>(v.size());
    std::vector<cplx> m(d * d, 0.0);
    int i = 0;
    for (auto x : v) { m[i * d + i] = x; i++; }
    return m;
  };
  // Controlled 1-qubit unitary u (2x2, row-major), control = qubit 0 (bit 0), target = qubit 1.
  auto controlled = [&](const std::vector<cplx>& u) {
    std::vector<cplx> m = eye(4);
    m[1 * 4 + 1] = u[0]; m[1 * 4 + 3] = u[1];
    m[3 * 4 + 1] = u[2]; m[3 * 4 + 3] = u[3];
    return m;
  };
  switch (t) {
    case GateType::H: return {R2, R2, R2, -R2};
    case GateType::X: return {0.0, 1.0, 1.0, 0.0};
    case GateType::Y: return {0.0, -I, I, 0.0};
    case GateType::Z: return diag({1.0, -1.0});
    case GateType::S: return diag({1.0, I});
    case GateType::SDG: return diag({1.0, -I});
    case GateType::T: return diag({1.0, std::polar(1.0, M_PI / 4)});
    case GateType::TDG: return diag({1.0, std::polar(1.0, -M_PI / 4)});
    case GateType::SX: return {cplx(0.5, 0.5), cplx(0.5, -0.5), cplx(0.5, -0.5), cplx(0.5, 0.5)};
    case GateType::SXDG: return {cplx(0.5, -0.5), cplx(0.5, 0.5), cplx(0.5, 0.5), cplx(0.5, -0.5)};
    case GateType::RX: {
      double c = std::cos(p[0] / 2), s = std::sin(p[0] / 2);
      return {c, -I * s, -I * s, c};
    }
    case GateType::RY: {
      double c = std::cos(p[0] / 2), s = std::sin(p[0] / 2);
      return {c, -s, s, c};
    }
    case GateType::RZ: return diag({std::polar(1.0, -p[0] / 2), std::polar(1.0, p[0] / 2)});
    case GateType::P:
    case GateType::U1: return diag({1.0, std::polar(1.0, p[0])});
    case GateType::U2:
      return {R2, -R2 * std::polar(1.0, p[1]), R2 * std::polar(1.0, p[0]),
              R2 * std::polar(1.0, p[0] + p[1])};
    case GateType::U3: {
      double c = std::cos(p[0] / 2), s = std::sin(p[0] / 2);
      return {c, -s * std::polar(1.0, p[2]), s * std::polar(1.0, p[1]),
              c * std::polar(1.0, p[1] + p[2])};
    }
    case GateType::CX: return controlled({0.0, 1.0, 1.0, 0.0});
    case GateType::CY: return controlled({0.0, -I, I, 0.0});
    case GateType::CZ: return diag({1.0, 1.0, 1.0, -1.0});
    case GateType::CH: return controlled({R2, R2, R2, -R2});
    case GateType::CP: return diag({1.0, 1.0, 1.0, std::polar(1.0, p[0])});
    case GateType::SWAP: {
      std::vector<cplx> m(16, 0.0);
      m[0] = 1.0; m[1 * 4 + 2] = 1.0; m[2 * 4 + 1] = 1.0; m[15] = 1.0;
      return m;
    }
    case GateType::RXX:
    case GateType::RYY: {
      double c = std::cos(p[0] / 2), s = std::sin(p[0] / 2);
      std::vector<cplx> m(16, 0.0);
      for (int i = 0; i < 4; i++) m[i * 4 + i] = c;
      // X⊗X maps |ab> to |~a~b>; Y⊗Y does the same with sign -1 on |00>,|11> pairs.
      double yy_same = (t == GateType::RYY) ? -1.0 : 1.0;
      m[0 * 4 + 3] = -I * s * yy_same; m[3 * 4 + 0] = -I * s * yy_same;
      m[1 * 4 + 2] = -I * s;           m[2 * 4 + 1] = -I * s;
      return m;
    }
    case GateType::RZZ: {
      cplx a = std::polar(1.0, -p[0] / 2), b = std::polar(1.0, p[0] / 2);
      return diag({a, b, b, a});
    }
    case GateType::CCX: {
      std::vector<cplx> m = eye(8);
      m[3 * 8 + 3] = 0.0; m[7 * 8 + 7] = 0.0; m[3 * 8 + 7] = 1.0; m[7 * 8 + 3] = 1.0;
      return m;
    }
    case GateType::CCZ: {
      std::vector<cplx> m = eye(8);
      m[7 * 8 + 7] = -1.0;
      return m;
    }
    default: throw std::invalid_argument("gate_matrix: invalid gate type");
  }
}

}  // namespace quartz
