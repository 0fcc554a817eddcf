// Gate types of the quartz circuit IR and their exact unitaries.
//
// Angle convention: every angle is Qiskit's full angle (rz(theta) = diag(e^{-i theta/2},
// e^{i theta/2})). Matrix index bit j belongs to the gate's j-th qubit (Qiskit's
// little-endian order), so a gate's matrix equals qiskit's `Operator(gate)` exactly.
#pragma once
#include <array>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace quartz {

using cplx = std::complex<double>;

enum class GateType : uint8_t {
  H, X, Y, Z, S, SDG, T, TDG, SX, SXDG,
  RX, RY, RZ, P, U1, U2, U3,
  CX, CY, CZ, CH, CP, SWAP, RXX, RYY, RZZ,
  CCX, CCZ,
  NUM_TYPES
};

constexpr int kNumGateTypes = static_cast<int>(GateType::NUM_TYPES);
constexpr int kMaxGateQubits = 3;
constexpr int kMaxGateParams = 3;

struct GateInfo {
  const char* name;
  int num_qubits;
  int num_params;
  bool symmetric;  // the unitary is invariant under any permutation of the qubits
  bool diagonal;   // the unitary is diagonal in the computational basis
};

const GateInfo& gate_info(GateType t);
// Returns NUM_TYPES when the name is unknown.
GateType gate_type_from_name(const std::string& name);

// Dense unitary (row-major, dimension 2^num_qubits) for numeric parameter values in radians.
std::vector<cplx> gate_matrix(GateType t, const double* params);

}  // namespace quartz
