"""A small in-kernel random generator for the batch simulator.

Every value is kept in [0, 2**32) inside an int64, and every product fits in
63 bits, so the compiled kernels and the interpreted fallback
(``NUMBA_DISABLE_JIT=1``) give bit-identical streams without any unsigned
arithmetic.  The generator is xorshift32 plus a Weyl sequence (64 bits of
state).  Each game reseeds from (series seed, game index), so a game's tiles
and placements do not depend on which thread or chunk played it.

This stream is the batch simulator's own; it is *not* the SplitMix64 deal
of :mod:`takeiteasy.core.deal` (which needs unsigned 64-bit arithmetic).
"""

from __future__ import annotations

from .._jit import kernel

MASK32 = 0xFFFFFFFF
WEYL_STEP = 0x9E3779B9  # 2**32 / golden ratio, odd


@kernel
def mix32(z):
    """A 32-bit integer hash (multipliers below 2**31, so no product overflows)."""
    z = z & MASK32
    z = ((z ^ (z >> 16)) * 0x7FEB352D) & MASK32
    z = ((z ^ (z >> 15)) * 0x2C1B3C6D) & MASK32
    return z ^ (z >> 16)


@kernel
def game_state(seed, game):
    """The generator state (x, w) of game ``game`` in the series ``seed``."""
    x = mix32((seed & MASK32) ^ mix32(game & MASK32))
    x = mix32(x ^ ((seed >> 32) & MASK32) ^ mix32((game >> 32) ^ 0x68E31DA4))
    w = mix32(x ^ 0x1B56C4E9)
    if x == 0:
        x = 1  # xorshift must not start at zero
    return x, w


@kernel
def next32(x, w):
    """One step: the new state (x, w) and a 32-bit output."""
    x ^= (x << 13) & MASK32
    x ^= x >> 17
    x ^= (x << 5) & MASK32
    w = (w + WEYL_STEP) & MASK32
    return x, w, (x + w) & MASK32


@kernel
def bounded(r, n):
    """Map a 32-bit output to [0, n) by multiply-shift (bias below n / 2**32)."""
    return (r * n) >> 32


@kernel
def bounded_pair(r, n, m):
    """Two draws, in [0, n) and [0, m), from one 32-bit output.

    The low 32 bits of ``r * n`` are spread evenly over [0, 2**32) whatever
    the first draw was, so they serve as a second output (bias below n*m / 2**32).
    """
    product = r * n
    return product >> 32, ((product & MASK32) * m) >> 32
