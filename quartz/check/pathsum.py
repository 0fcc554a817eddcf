"""Equivalence proofs by path sums (Amy, "Towards large-scale functional verification of
universal quantum circuits", QPL 2018) for circuits of h, x, cx, ccx and phase gates.

A circuit maps a basis state ``|x>`` to ``2^{-h/2} sum_y e^{i P(x,y)} |f(x,y)>``, where every h gate
adds a path variable y, f is a vector of Boolean polynomials (XORs of AND-monomials) and P is a
real multilinear polynomial taken mod 2 pi. Both are canonical: two such P are equal mod 2 pi
exactly when their monomial coefficients are. To prove a == b the sum of a b^-1 is built gate
by gate from both ends (a's gates on the output side, b's inverses on the input side, where an
h renames the input bit it acts on to a path variable), or that of b^-1 a from the input side
only, and path variables that have left the state f are summed out by three exact rules:

* elim: y appears nowhere: the sum over y is a factor 2;
* hh: y appears only as pi*y*Q: the sum is 2*[Q = 0], so a path variable z with Q = z + Q'
  is replaced by Q' everywhere;
* omega: y appears as (+-pi/2)*y + pi*y*Q: the sum is sqrt(2) e^{+-i pi/4} e^{-+i pi/2 [Q]}.

When the sum reduces to ``e^{i c} |x>``, the circuits are equal up to the phase c; c = 0 proves
equality. Rules are applied as soon as a variable leaves f; an hh substitution by a large
polynomial (an adder's carry bit) can be deferred to the end, so that the variable stands for
that value meanwhile and the phases on it stay small. The rules are sound but not complete
outside Clifford circuits, so a sum that does not reduce proves nothing: the answer is then None, never "not equivalent". Angles that are
k*pi/2^d (d <= 24, to float rounding) are exact integers here; other angles stay floats and
compare to 1e-10. Nothing here uses quartz's own simulator or verifier: it reads Qiskit circuits.

>>> from qiskit import QuantumCircuit
>>> a = QuantumCircuit(3); _ = a.ccx(0, 1, 2)
>>> b = QuantumCircuit(3)
>>> for g, q in [("h", [2]), ("cx", [1, 2]), ("tdg", [2]), ("cx", [0, 2]), ("t", [2]),
...              ("cx", [1, 2]), ("tdg", [2]), ("cx", [0, 2]), ("t", [1]), ("t", [2]),
...              ("h", [2]), ("cx", [0, 1]), ("t", [0]), ("tdg", [1]), ("cx", [0, 1])]:
...     _ = getattr(b, g)(*q)
>>> prove_equal_path_sum(a, b)
'equivalent'
>>> _ = b.t(0)
>>> prove_equal_path_sum(a, b) is None
True
"""
from __future__ import annotations

import heapq
import math
import time
from collections import defaultdict
from itertools import combinations

EQUIVALENT = "equivalent"
UP_TO_PHASE = "equivalent_up_to_global_phase"

# Exact angles are integers in units of pi / 2^K, taken mod 2^(K+1) (i.e. mod 2 pi).
K = 40
MOD = 1 << (K + 1)
PI = 1 << K
HALF_PI = 1 << (K - 1)
_SNAP_BITS = 24          # angles k*pi/2^d with d <= 24 are read as exact
TWO_PI = 2.0 * math.pi
FLOAT_TOLERANCE = 1e-10  # float phases closer than this to 0 mod 2 pi are 0
# A phase gate on a parity of more monomials than this, with a non-dyadic angle, is not
# expanded (2^k terms): the proof gives up.
MAX_FLOAT_LIFT = 12
# Give up when the phase polynomial grows past this many monomials, or when one phase gate
# would expand into more than MAX_LIFT_TERMS of them.
MAX_TERMS = 2_000_000
MAX_LIFT_TERMS = 200_000


# The (deferral limit, order) pairs tried: PathSum's `defer`, and order 0 = the sum of
# b^-1 a, 1 = of b a^-1 (each built from the input side to the output), 2 = of a b^-1 and
# 3 = of b a^-1 built from both ends at once (_miter). The miters go first: where a and b
# agree (an optimizer's output and its input do, gate for gate, away from its rewrites)
# their gates cancel as they are added, so the sum stays near the identity and small;
# mod_adder_1024 against its 60 s optimized form: 0.2 s, which no one-sided sum proves in
# 60 s (their phase polynomials grow past 10^5 terms on its carry bits). They defer too
# (eager, a T can land on a carry's parity before its partner from the other side and
# expand past MAX_LIFT_TERMS: ham15-high against a 60 s output, proven only by (16, 3)),
# and b a^-1 comes first (faster on the multipliers, the only one on that output). Deferring
# substitutions by polynomials of more than 16 monomials in b^-1 a proves each Nam circuit
# of more than 10 qubits but mod_adder_1024 equal to its preprocessed form and is the
# fastest one-sided sum on most (csum_mux_9: 0.02 s, eager 1.2 s); eager (the multipliers'
# best), deferring all non-trivial ones, and the sums of b a^-1 follow. Which one reduces
# fast depends on the pair (ham15-high against a 60 s optimized form: (1, 0) in 0.3 s,
# (16, 1) still running after 15 s), so they share the time in rounds: each gets
# FIRST_SLICE seconds plus SLICE_PER_GATE per gate of the two circuits (ham15-high: 2.5 s,
# more than (16, 0) takes to prove it equal to one of its 60 s outputs); those that ran
# out of time (rather than failing) get SLICE_GROWTH times more in the next round, until
# one reduces or the deadline passes.
ATTEMPTS = ((16, 3), (16, 2), (16, 0), (None, 0), (1, 0), (None, 1), (16, 1), (1, 1))
FIRST_SLICE = 0.1
SLICE_PER_GATE = 3e-4
SLICE_GROWTH = 4.0


class _GiveUp(Exception):
    """The path sum cannot be built or reduced within the limits (no verdict)."""


class _OutOfTime(_GiveUp):
    """The deadline passed before the sum was built and reduced (more time might prove it)."""


def _angle(x: float):
    """An exact integer angle (units pi/2^K) when x is k*pi/2^d, d <= 24, else float radians."""
    scaled = x / math.pi * (1 << _SNAP_BITS)
    k = round(scaled)
    if abs(k * math.pi / (1 << _SNAP_BITS) - x) <= 8 * math.ulp(max(1.0, abs(x))):
        return (k << (K - _SNAP_BITS)) % MOD
    return x % TWO_PI


def _add(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return (a + b) % MOD
    return (_radians(a) + _radians(b)) % TWO_PI


def _scale(c, k: int):
    if isinstance(c, int):
        return (c * k) % MOD
    return (c * k) % TWO_PI


def _radians(c) -> float:
    return c * math.pi / PI if isinstance(c, int) else c


def _is_zero(c) -> bool:
    if isinstance(c, int):
        return c == 0
    return min(c, TWO_PI - c) < FLOAT_TOLERANCE


def _equals(c, target: int) -> bool:
    if isinstance(c, int):
        return c == target
    return _is_zero(_add(c, (-target) % MOD))


def _lift_size(c, k: int) -> int:
    """How many subsets the expansion of c * [XOR of k monomials] enumerates."""
    if isinstance(c, int):
        v = (c & -c).bit_length() - 1  # c = odd * 2^v; sizes s with v + s - 1 <= K survive
        top = min(k, K + 1 - v)
    else:
        top = k
    return sum(math.comb(k, s) for s in range(1, top + 1))


_ONE = frozenset()


class PathSum:
    """The path sum of a circuit on n qubits, built gate by gate and reduced eagerly."""

    def __init__(self, n: int, defer: int | None = None):
        self.n = n
        # With `defer`, an hh substitution by a polynomial of more than `defer` monomials waits
        # until finish(): the variable then stands for that value (a carry bit, say) and the
        # phases on it stay small; undone, such values often cancel before they are expanded.
        self.defer = defer
        self.deferred: set[int] = set()  # pending for that reason: retried only by finish()
        self.finishing = False
        self._adds = 0
        self.deadline: float | None = None  # time.monotonic() past which reduction gives up
        self.f = [{frozenset((i,))} for i in range(n)]  # qubit -> set of monomials (XOR)
        self.phase: dict[frozenset, object] = {}           # monomial -> coefficient
        # Phases c*[m1 + ... + mk] (k >= 2) are kept per parity, unexpanded, until a rule needs
        # a variable of theirs: a T in one circuit and the T-dagger of the other on the same
        # parity then cancel before their 2^k - 1 terms are written.
        self.parities: dict[frozenset, object] = {}        # parity (set of monomials) -> c
        self.pocc: dict[int, set] = defaultdict(set)        # var -> parities with it
        self.occ: dict[int, set] = defaultdict(set)         # var -> phase monomials with it
        self.in_f: dict[int, int] = defaultdict(int)        # var -> (qubit, monomial) pairs
        for i in range(n):
            self.in_f[i] = 1
        self.next_var = n
        self.const = 0                # global phase (exact int or float)
        self.hadamards = 0            # factors 1/sqrt(2)
        self.sqrt2_gained = 0         # factors sqrt(2) from the rules
        self.pending: set[int] = set()  # path variables out of f but not yet summed out
        self.gone: set[int] = set()     # path variables summed out or substituted away

    def _check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _OutOfTime("out of time")

    # ----- phase polynomial -------------------------------------------------------------
    def _add_term(self, mono: frozenset, c) -> None:
        self._adds += 1
        if not self._adds & 4095:
            self._check_time()
        if not mono:
            self.const = _add(self.const, c)
            return
        old = self.phase.get(mono)
        new = c if old is None else _add(old, c)
        if _is_zero(new):
            if old is not None:
                del self.phase[mono]
                for v in mono:
                    self.occ[v].discard(mono)
            return
        if old is None:
            for v in mono:
                self.occ[v].add(mono)
            if len(self.phase) >= MAX_TERMS:
                raise _GiveUp("phase polynomial too large")
        self.phase[mono] = new

    def _add_lifted(self, c, poly, times: frozenset = _ONE) -> None:
        """Add c * [poly] * times, where [poly] is the 0/1 value of the XOR of monomials."""
        monos = list(poly)
        if not monos or _is_zero(c):
            return
        if not isinstance(c, int) and len(monos) > MAX_FLOAT_LIFT:
            raise _GiveUp("a non-dyadic phase on a large parity")
        if _lift_size(c, len(monos)) > MAX_LIFT_TERMS:
            raise _GiveUp("a phase on a parity too large to expand")
        # [m1 + ... + mk] = sum over nonempty S of (-2)^(|S|-1) prod(S).
        coeff = c
        for size in range(1, len(monos) + 1):
            if coeff == 0 and isinstance(coeff, int):
                break  # exact: every larger subset has a coefficient 0 mod 2 pi too
            if isinstance(coeff, int):
                self._add_exact(coeff, (times.union(*sub) for sub in combinations(monos, size)))
            elif not _is_zero(coeff):  # (a float one can be near 0 and not stay there)
                for subset in combinations(monos, size):
                    self._add_term(times.union(*subset), coeff)
            coeff = _scale(coeff, -2)

    def _add_exact(self, c: int, monos) -> None:
        """_add_term(m, c) for each of `monos`, c a nonzero exact angle (the hot loop, inlined)."""
        self._check_time()
        phase, occ = self.phase, self.occ
        for mono in monos:
            old = phase.get(mono)
            if old is None and mono:
                phase[mono] = c
                for v in mono:
                    occ[v].add(mono)
            elif isinstance(old, int):
                new = (old + c) % MOD
                if new:
                    phase[mono] = new
                else:
                    del phase[mono]
                    for v in mono:
                        occ[v].discard(mono)
            else:
                self._add_term(mono, c)
        if len(phase) >= MAX_TERMS:
            raise _GiveUp("phase polynomial too large")

    def _add_parity(self, c, poly) -> None:
        """Add c * [poly] lazily (expanded by _lift when a variable of it is summed out)."""
        if len(poly) < 2:
            self._add_lifted(c, poly)
            return
        key = frozenset(poly)
        old = self.parities.get(key)
        new = c if old is None else _add(old, c)
        if _is_zero(new):
            if old is not None:
                del self.parities[key]
                for v in frozenset().union(*key):
                    self.pocc[v].discard(key)
            return
        if old is None:
            for v in frozenset().union(*key):
                self.pocc[v].add(key)
        self.parities[key] = new

    def _lift(self, y: int) -> None:
        """Expand the lazy parities that contain variable y into the phase polynomial."""
        keys = self.pocc.pop(y, None)
        if not keys:
            return
        for key in keys:
            c = self.parities.pop(key)
            for v in frozenset().union(*key):
                if v != y:
                    self.pocc[v].discard(key)
            self._add_lifted(c, key)

    def _lift_all(self) -> None:
        for y in [v for v, keys in self.pocc.items() if keys]:
            self._lift(y)

    # ----- state -----------------------------------------------------------------------
    def _toggle(self, q: int, mono: frozenset, freed: set) -> None:
        fq = self.f[q]
        if mono in fq:
            fq.remove(mono)
            for v in mono:
                self.in_f[v] -= 1
                if self.in_f[v] == 0 and v >= self.n:
                    freed.add(v)
        else:
            fq.add(mono)
            for v in mono:
                self.in_f[v] += 1

    def _xor_into(self, q: int, poly) -> set:
        freed: set = set()
        for mono in list(poly):
            self._toggle(q, mono, freed)
        return freed

    @staticmethod
    def _product(p, q) -> set:
        out: set = set()
        for a in p:
            for b in q:
                out ^= {a | b}
        return out

    # ----- gates -----------------------------------------------------------------------
    def x(self, q: int) -> None:
        self._reduce(self._xor_into(q, {_ONE}))

    def cx(self, c: int, t: int) -> None:
        self._reduce(self._xor_into(t, set(self.f[c])))

    def ccx(self, a: int, b: int, t: int) -> None:
        self._reduce(self._xor_into(t, self._product(self.f[a], self.f[b])))

    def swap(self, a: int, b: int) -> None:
        self.f[a], self.f[b] = self.f[b], self.f[a]

    def phase_on(self, c, *qubits: int) -> None:
        """Multiply by e^{i c} where all `qubits` are 1 (p, cp, ccp-like phases)."""
        poly = self.f[qubits[0]]
        for q in qubits[1:]:
            poly = self._product(poly, self.f[q])
        self._add_parity(c, poly)

    def h(self, q: int) -> None:
        y = self.next_var
        self.next_var += 1
        for mono in self.f[q]:
            self._add_term(mono | {y}, PI)
        freed = self._xor_into(q, set(self.f[q]) ^ {frozenset((y,))})
        self.hadamards += 1
        self._reduce(freed)

    def add_global(self, c) -> None:
        self.const = _add(self.const, c)

    # ----- gates on the input side (the sum as an operator, multiplied on the right) -------
    # Variables 0..n-1 are the input bits. A gate g applied on the right (U -> U g) changes
    # what they stand for: a classical g substitutes them (cx: x_t -> x_t + x_c), a phase gate
    # adds its phase in them, and h renames the old x_q to a path variable z, with phase
    # pi*z*x_q for the new x_q.
    def in_x(self, q: int) -> None:
        self._substitute_input(q, {_ONE})

    def in_cx(self, c: int, t: int) -> None:
        self._substitute_input(t, {frozenset((c,))})

    def in_ccx(self, a: int, b: int, t: int) -> None:
        self._substitute_input(t, {frozenset((a, b))})

    def in_swap(self, a: int, b: int) -> None:
        for c, t in ((a, b), (b, a), (a, b)):
            self.in_cx(c, t)

    def in_phase_on(self, c, *qubits: int) -> None:
        """Multiply by e^{i c} on the right where all input `qubits` are 1."""
        self._add_parity(c, {frozenset(qubits)})

    def in_h(self, q: int) -> None:
        z = self.next_var
        self.next_var += 1
        self._rename(q, z)
        self._add_term(frozenset((q, z)), PI)
        self.hadamards += 1
        if self.in_f[z] == 0:
            self._reduce({z})

    def _take_out(self, v: int) -> tuple[list, list]:
        """Remove every lazy parity and phase monomial with variable v: ([(parity, c)],
        [(monomial, c)]). All of them go before any is added back, since what is added back
        can meet a term not yet taken out."""
        keys = [(key, self.parities.pop(key)) for key in self.pocc.pop(v, ())]
        for key, _ in keys:
            for u in frozenset().union(*key):
                if u != v:
                    self.pocc[u].discard(key)
        monos = [(mono, self.phase.pop(mono)) for mono in self.occ.pop(v, ())]
        for mono, _ in monos:
            for u in mono:
                if u != v:
                    self.occ[u].discard(mono)
        return keys, monos

    def _rename(self, q: int, z: int) -> None:
        """Variable q becomes the new variable z everywhere (q then appears nowhere)."""
        old, new = frozenset((q,)), frozenset((z,))

        def moved(m: frozenset) -> frozenset:
            return (m - old) | new if q in m else m

        keys, monos = self._take_out(q)
        for key, c in keys:
            self._add_parity(c, {moved(m) for m in key})
        for mono, c in monos:
            self._add_term(moved(mono), c)
        for qb in range(self.n):
            if any(q in m for m in self.f[qb]):
                self.f[qb] = {moved(m) for m in self.f[qb]}
        self.in_f[z] = self.in_f.pop(q, 0)

    def _substitute_input(self, t: int, poly: set) -> None:
        """Replace input variable x_t by x_t + poly (a XOR of monomials of other inputs)."""
        self._check_time()
        one = frozenset((t,))
        keys, monos = self._take_out(t)
        for key, c in keys:  # a parity stays a parity under the substitution
            new = set(key)
            for m in key:
                if t in m:
                    for p in poly:
                        new ^= {(m - one) | p}
            self._add_parity(c, new)
        for mono, c in monos:
            self._add_lifted(c, [one, *poly], mono - one)
        freed: set = set()
        for qb in range(self.n):
            hits = [m for m in self.f[qb] if t in m]
            if not hits:
                continue
            delta: set = set()
            for m in hits:
                for p in poly:
                    delta ^= {(m - one) | p}
            for m in delta:
                self._toggle(qb, m, freed)
        self._reduce(freed)

    # ----- reduction -------------------------------------------------------------------
    def _reduce(self, freed) -> None:
        if not freed:
            return
        progress = False
        for y in sorted(freed, reverse=True):
            # (an hh rule for an earlier y can substitute a later one away)
            if y not in self.gone and self.in_f[y] == 0:
                if self._sum_out(y):
                    progress = True
                else:
                    self.pending.add(y)
        if progress and self.pending:
            self._retry_pending()

    def _retry_pending(self) -> None:
        changed = True
        while changed and self.pending:
            changed = False
            self._check_time()
            for y in sorted(self.pending - self.deferred, reverse=True):
                if y in self.pending and self.in_f[y] == 0 and self._sum_out(y):
                    changed = True

    def _sum_out(self, y: int) -> bool:
        """Apply elim, hh or omega to path variable y (not in f); False if none applies."""
        rule = self._rule_for(y)
        if rule is None:
            return False
        if rule[0] == "hh" and self.defer is not None and len(rule[2]) > self.defer:
            self.deferred.add(y)
            return False
        self._apply_rule(y, rule)
        return True

    def _rule_for(self, y: int):
        """("elim",), ("hh", z, Q'), ("omega", sign, Q) for path variable y, or None."""
        self._lift(y)
        terms = self.occ.get(y)
        if not terms:
            return ("elim",)
        linear = frozenset((y,))
        lin = self.phase.get(linear)
        q = set()
        for mono in terms:
            if mono == linear:
                continue
            if not _equals(self.phase[mono], PI):
                return None
            q.add(mono - linear)
        if lin is not None and _equals(lin, PI):
            q.add(_ONE)
            lin = None
        if lin is None:
            # sum_y (-1)^{y Q} = 2 [Q = 0]: solve Q = 0 for a path variable z that is a
            # monomial of Q and in no other one.
            candidates = [z for m in q if len(m) == 1 and (z := next(iter(m))) >= self.n
                          and sum(1 for m2 in q if z in m2) == 1]
            if not candidates:
                return None
            if self.defer is None and self.finishing:
                z = min(candidates, key=self._occurrences)
            else:
                z = max(candidates)  # the latest: a Toffoli target's new value
            return ("hh", z, q - {frozenset((z,))})
        if _equals(lin, HALF_PI) or _equals(lin, MOD - HALF_PI):
            return ("omega", 1 if _equals(lin, HALF_PI) else -1, q)
        return None

    def _occurrences(self, z: int) -> int:
        return len(self.occ.get(z, ())) + len(self.pocc.get(z, ())) + self.in_f.get(z, 0)

    def _cost(self, rule) -> int:
        if rule[0] == "hh":
            return self._occurrences(rule[1]) * max(1, len(rule[2]))
        return 0 if rule[0] == "elim" else len(rule[2])

    def _apply_rule(self, y: int, rule) -> None:
        self._drop(y)
        if rule[0] == "elim":
            self.sqrt2_gained += 2
        elif rule[0] == "hh":
            self._substitute(rule[1], rule[2])
            self.sqrt2_gained += 2
        else:  # omega: sum_y e^{+-i pi/2 y} (-1)^{yQ} = sqrt(2) e^{+-i pi/4} e^{-+i pi/2 [Q]}
            sign, q = rule[1], rule[2]
            self.const = _add(self.const, (sign * (PI >> 2)) % MOD)
            self._add_parity((-sign * HALF_PI) % MOD, q)
            self.sqrt2_gained += 1
        self.pending.discard(y)
        self.deferred.discard(y)
        self.gone.add(y)

    def _drop(self, y: int) -> None:
        self._lift(y)
        for mono in list(self.occ.pop(y, ())):
            del self.phase[mono]
            for v in mono:
                if v != y:
                    self.occ[v].discard(mono)

    def _substitute(self, z: int, poly: set) -> None:
        """Replace path variable z by the Boolean polynomial `poly` in f and in the phase."""
        self._check_time()
        self._lift(z)
        for mono in list(self.occ.pop(z, ())):
            c = self.phase.pop(mono)
            for v in mono:
                if v != z:
                    self.occ[v].discard(mono)
            self._add_lifted(c, poly, mono - {z})
        if self.in_f[z]:
            freed: set = set()
            for qb in range(self.n):
                self._check_time()
                hits = [m for m in self.f[qb] if z in m]
                if not hits:
                    continue
                delta: set = set()
                for m in hits:
                    delta ^= {m}
                    rest = m - {z}
                    for p in poly:
                        delta ^= {rest | p}
                for m in delta:
                    self._toggle(qb, m, freed)
            freed.discard(z)
            self.in_f.pop(z, None)
            self.pending.update(v for v in freed if self.in_f[v] == 0)
        self.pending.discard(z)
        self.deferred.discard(z)
        self.gone.add(z)

    def _reduce_cheapest_first(self) -> None:
        """Sum out the pending variables, always the one whose rule costs least right now."""
        progress = True
        while progress and self.pending:
            progress = False
            heap = []
            for y in self.pending:
                if self.in_f[y] == 0 and (rule := self._rule_for(y)) is not None:
                    heap.append((self._cost(rule), y))
            heapq.heapify(heap)
            while heap:
                self._check_time()
                _, y = heapq.heappop(heap)
                if y not in self.pending or self.in_f[y] != 0:
                    continue
                rule = self._rule_for(y)
                if rule is None:
                    continue
                cost = self._cost(rule)
                if heap and cost > heap[0][0]:
                    heapq.heappush(heap, (cost, y))  # its cost grew: the next one first
                    continue
                self._apply_rule(y, rule)
                progress = True

    def finish(self) -> object | None:
        """The global phase if the sum is e^{i c}|x> (c exact int or float), else None."""
        self.defer = None
        self.deferred.clear()
        self.finishing = True
        for v in range(self.n, self.next_var):
            if self.in_f.get(v, 0) == 0 and (self.occ.get(v) or self.pocc.get(v)):
                self.pending.add(v)
        self._reduce_cheapest_first()
        self._lift_all()
        if self.pending or self.phase:
            return None
        if any(self.f[i] != {frozenset((i,))} for i in range(self.n)):
            return None
        if self.sqrt2_gained != self.hadamards:
            return None  # not a unitary identity (cannot happen for two unitary circuits)
        return self.const


SUPPORTED_GATES = frozenset((
    "id", "barrier", "delay", "x", "cx", "ccx", "swap", "h", "z", "s", "sdg", "t", "tdg", "p",
    "u1", "rz", "y", "rx", "sx", "sxdg", "ry", "cz", "ccz", "cp", "cu1", "crz", "rzz"))


def supports(qc) -> bool:
    """Whether every instruction of the Qiskit circuit `qc` is a gate path sums handle."""
    return not qc.num_clbits and all(inst.operation.name in SUPPORTED_GATES for inst in qc.data)


def _qubit_indices(qc) -> dict:
    return {q: i for i, q in enumerate(qc.qubits)}


def _ops(name: str, qs: list[int], params) -> list[tuple]:
    """One Qiskit gate as primitive steps in circuit order: ("x", q), ("cx", c, t),
    ("ccx", a, b, t), ("swap", a, b), ("h", q), ("phase", c, *qubits), ("global", c);
    _GiveUp for gates outside the supported set."""
    if name in ("id", "barrier", "delay"):
        return []
    x = [float(p) for p in params]  # radians; rz-type global phases need them unreduced
    if name in ("x", "cx", "ccx", "swap", "h"):
        return [(name, *qs)]
    if name in ("z", "s", "sdg", "t", "tdg"):
        return [("phase", {"z": PI, "s": HALF_PI, "sdg": MOD - HALF_PI, "t": PI >> 2,
                           "tdg": MOD - (PI >> 2)}[name], qs[0])]
    if name in ("p", "u1"):
        return [("phase", _angle(x[0]), qs[0])]
    if name == "rz":  # diag(e^{-it/2}, e^{it/2})
        return [("global", _angle(-x[0] / 2)), ("phase", _angle(x[0]), qs[0])]
    if name == "y":  # Y = i X Z
        return [("phase", PI, qs[0]), ("x", qs[0]), ("global", HALF_PI)]
    if name in ("rx", "sx", "sxdg"):  # rx(t) = h rz(t) h; sx = e^{i pi/4} rx(pi/2)
        steps = []
        if name != "rx":
            sign = 1 if name == "sx" else -1
            x = [sign * math.pi / 2]
            steps.append(("global", _angle(sign * math.pi / 4)))
        return steps + [("h", qs[0]), *_ops("rz", qs, x), ("h", qs[0])]
    if name == "ry":  # ry(t) = s rx(t) sdg as matrices: sdg acts first
        return [*_ops("sdg", qs, []), *_ops("rx", qs, x), *_ops("s", qs, [])]
    if name == "cz":
        return [("phase", PI, qs[0], qs[1])]
    if name == "ccz":
        return [("phase", PI, qs[0], qs[1], qs[2])]
    if name in ("cp", "cu1"):
        return [("phase", _angle(x[0]), qs[0], qs[1])]
    if name == "crz":  # controlled diag(e^{-it/2}, e^{it/2})
        return [("phase", _angle(-x[0] / 2), qs[0]), ("phase", _angle(x[0]), qs[0], qs[1])]
    if name == "rzz":  # e^{-it/2} e^{it [a xor b]}
        return [("global", _angle(-x[0] / 2)), ("phase", _angle(x[0]), qs[0]),
                ("phase", _angle(x[0]), qs[1]), ("phase", _angle(-2 * x[0]), qs[0], qs[1])]
    raise _GiveUp(f"gate {name!r} is not supported")


def _apply(ps: PathSum, name: str, qs: list[int], params) -> None:
    """Apply one Qiskit gate to the output side of the path sum (U -> g U)."""
    _apply_steps(ps, _ops(name, qs, params), "")


def _apply_input(ps: PathSum, name: str, qs: list[int], params) -> None:
    """Apply one Qiskit gate to the input side of the path sum (U -> U g): its steps in
    reverse order, the last one multiplied first."""
    _apply_steps(ps, reversed(_ops(name, qs, params)), "in_")


def _apply_steps(ps: PathSum, steps, side: str) -> None:
    for kind, *args in steps:
        if kind == "global":
            ps.add_global(*args)
        else:
            getattr(ps, side + ("phase_on" if kind == "phase" else kind))(*args)


def _reduced_phase(first, second, deadline: float | None, defer: int | None = None):
    """The phase c of the path sum of `second` after `first` when it reduces to e^{ic} I."""
    c, _ = _attempt(first, second, deadline, defer)
    return c


def _attempt(first, second, deadline: float | None, defer: int | None):
    """(c, out_of_time): the phase as in _reduced_phase, and whether the deadline cut it short."""
    steps = [(_apply, inst, _qubit_indices(qc)) for qc in (first, second) for inst in qc.data]
    return _summed(first.num_qubits, defer, deadline,
                   [first.global_phase, second.global_phase], steps)


def _miter(a, b, deadline: float | None, defer: int | None):
    """(c, out_of_time) as _attempt, for the sum of a b^-1 built from both ends: a's gates on
    the output side and b^-1's on the input side (b's gates in b's order), taken in
    proportion, so that where a and b agree their gates meet and cancel while the sum is
    still near the identity."""
    inv_b = b.inverse()  # its data: the inverses of b's gates, the last gate's first
    left = [(_apply, inst, _qubit_indices(a)) for inst in a.data]
    right = [(_apply_input, inst, _qubit_indices(inv_b)) for inst in reversed(inv_b.data)]
    steps = []
    i = j = 0
    while i < len(left) or j < len(right):
        if j >= len(right) or (i < len(left) and i * len(right) <= j * len(left)):
            steps.append(left[i])
            i += 1
        else:
            steps.append(right[j])
            j += 1
    return _summed(a.num_qubits, defer, deadline, [a.global_phase, inv_b.global_phase], steps)


def _summed(n: int, defer: int | None, deadline: float | None, phases: list, steps: list):
    """(c, out_of_time): the phase of the path sum of `steps` ((side, instruction, qubit
    index) with side _apply or _apply_input) and the global `phases`, when it reduces to
    e^{ic} I."""
    ps = PathSum(n, defer)
    ps.deadline = deadline
    try:
        for phase in phases:
            ps.add_global(_angle(float(phase)))
        for k, (side, inst, index) in enumerate(steps):
            op = inst.operation
            if getattr(op, "condition", None) is not None:
                return None, False
            side(ps, op.name, [index[q] for q in inst.qubits], op.params)
            if k % 256 == 255:
                ps._check_time()
        c = ps.finish()
    except _OutOfTime:
        return None, True
    except (_GiveUp, TypeError, ValueError):
        return None, False
    return (None if c is None else _radians(c)), False


def path_sum_phase(a, b, deadline: float | None = None):
    """The global phase c (radians) with a = e^{ic} b as proven by path sums, or None.

    The order in which gates are added and the rules substitute decides whether a sum
    reduces (and how large it grows), so the sums of a b^-1 and b a^-1 built from both ends,
    then those of b^-1 a and b a^-1 (a^-1 = e^{-ic} b^-1) with the deferral limits of
    ATTEMPTS, are tried sharing the time in rounds of growing slices (FIRST_SLICE,
    SLICE_PER_GATE, SLICE_GROWTH), until one reduces or `deadline` passes.
    """
    if a.num_qubits != b.num_qubits or a.num_clbits or b.num_clbits:
        return None
    inv_a, inv_b = a.inverse(), b.inverse()  # inverse() negates the global phase
    live = list(ATTEMPTS)
    seconds = FIRST_SLICE + SLICE_PER_GATE * (len(a.data) + len(b.data))
    while live:
        cut = []
        for defer, order in live:
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                return None
            limit = now + seconds if deadline is None else min(deadline, now + seconds)
            if order == 0:
                c, late = _attempt(a, inv_b, limit, defer)
            elif order == 1:
                c, late = _attempt(inv_a, b, limit, defer)
            elif order == 2:
                c, late = _miter(a, b, limit, defer)
            else:
                c, late = _miter(b, a, limit, defer)
            if c is not None and order in (1, 3):
                c = (-c) % TWO_PI  # the phase of b against a
            if c is not None:
                return c
            if late:
                cut.append((defer, order))
        live, seconds = cut, seconds * SLICE_GROWTH
    return None


def prove_equal_path_sum(a, b, deadline: float | None = None) -> str | None:
    """"equivalent", "equivalent_up_to_global_phase" (proofs), or None (no proof found)."""
    c = path_sum_phase(a, b, deadline)
    if c is None:
        return None
    return EQUIVALENT if _is_zero(c % TWO_PI) else UP_TO_PHASE


__all__ = ["PathSum", "path_sum_phase", "prove_equal_path_sum", "supports", "SUPPORTED_GATES",
           "EQUIVALENT", "UP_TO_PHASE"]
