"""The one generator against its published reference outputs, and the stream scheme.

Every random number of the tool (slots, pools, table games) comes from
xoshiro256** (:mod:`certify.engine._rng`) seeded by
:func:`certify.engine.rng.chunk_states` through NumPy's ``SeedSequence``.
"""

import numpy as np
import pytest

from certify.engine import _rng
from certify.engine.rng import chunk_states
from certify.tables import _kernels as table_kernels
from certify.tables import _twins

MASK32 = 0xFFFFFFFF

# xoshiro256** from the state (1, 2, 3, 4): the first ten outputs of Blackman &
# Vigna's reference C (xoshiro256starstar.c), as published in the test suite of
# the Rust rand project: rust-random/rngs, rand_xoshiro/src/xoshiro256starstar.rs,
# test ``reference`` (seed bytes 1, 2, 3, 4 as little-endian u64 words).
XOSHIRO_REFERENCE = [
    11520,
    0,
    1509978240,
    1215971899390074240,
    1216172134540287360,
    607988272756665600,
    16172922978634559625,
    8476171486693032832,
    10595114339597558777,
    2904607092377533576,
]

# NumPy's SeedSequence against M. O'Neill's C++ reference (seed_seq_fe), as
# published in numpy/random/tests/test_seed_sequence.py ``test_reference_data``
# (https://gist.github.com/imneme/540829265469e673d045): entropy words ->
# generate_state(2, uint64). Three of its ten rows.
SEED_SEQUENCE_REFERENCE = [
    ([3735928559, 195939070, 229505742, 305419896], [2477551240072187391, 9577394838764454085]),
    ([446610472, 3941463886, 522937693, 1882353782], [15424829579845884309, 1898028439751125927]),
    ([2766103236, 2883057919, 4029656435, 862374500], [18305404959516669237, 14103312907920476776]),
]


def test_kernel_generator_matches_the_reference_outputs():
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    got = [int(_rng.next_u64(state)) for _ in XOSHIRO_REFERENCE]
    assert got == XOSHIRO_REFERENCE


def test_register_held_step_matches_the_reference_outputs():
    s = tuple(np.uint64(v) for v in (1, 2, 3, 4))
    got = []
    for _ in XOSHIRO_REFERENCE:
        x, *rest = _rng.xo_next(*s)
        s = tuple(np.uint64(v) for v in rest)  # numba boxes uint64 as Python int
        got.append(int(x))
    assert got == XOSHIRO_REFERENCE


def test_python_twin_matches_the_reference_outputs():
    state, got = (1, 2, 3, 4), []
    for _ in XOSHIRO_REFERENCE:
        state, x = _twins.xoshiro256ss(state)
        got.append(x)
    assert got == XOSHIRO_REFERENCE


# -- SeedSequence -> state: a pure-Python twin of NumPy's hashing -------------------------------

INIT_A, MULT_A, INIT_B, MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
MIX_L, MIX_R, POOL = 0xCA01F9DD, 0x4973F715, 4


def _words(value: int) -> list[int]:
    """An integer as little-endian 32-bit words (0 -> [0])."""
    out = [value & MASK32]
    value >>= 32
    while value:
        out.append(value & MASK32)
        value >>= 32
    return out


def seed_sequence_state(entropy, spawn_key=(), n64=4) -> list[int]:
    """O'Neill's seed_seq_fe as NumPy documents it (``SeedSequence.generate_state``).

    Written from the algorithm's description (hashmix / mix over a pool of four
    32-bit words; spawn-key words appended after the entropy padded to the
    pool); an independent second method for :func:`chunk_states`.
    """
    run = [w for e in ([entropy] if isinstance(entropy, int) else entropy) for w in _words(e)]
    spawn = [w for k in spawn_key for w in _words(k)]
    if spawn and len(run) < POOL:
        run += [0] * (POOL - len(run))
    entropy_words = run + spawn
    const = INIT_A

    def hashmix(value):
        nonlocal const
        value ^= const
        const = (const * MULT_A) & MASK32
        value = (value * const) & MASK32
        return value ^ (value >> 16)

    def mix(x, y):
        r = (MIX_L * x - MIX_R * y) & MASK32
        return r ^ (r >> 16)

    pool = [hashmix(entropy_words[i] if i < len(entropy_words) else 0) for i in range(POOL)]
    for src in range(POOL):
        for dst in range(POOL):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(POOL, len(entropy_words)):
        for dst in range(POOL):
            pool[dst] = mix(pool[dst], hashmix(entropy_words[src]))
    const, words = INIT_B, []
    for i in range(2 * n64):
        value = pool[i % POOL] ^ const
        const = (const * MULT_B) & MASK32
        value = (value * const) & MASK32
        words.append(value ^ (value >> 16))
    return [words[2 * i] | words[2 * i + 1] << 32 for i in range(n64)]


@pytest.mark.parametrize(("entropy", "expected"), SEED_SEQUENCE_REFERENCE)
def test_seed_sequence_matches_the_cpp_reference(entropy, expected):
    assert np.random.SeedSequence(entropy).generate_state(2, np.uint64).tolist() == expected
    assert seed_sequence_state(entropy, n64=2) == expected


@pytest.mark.parametrize(
    ("seed", "stream", "first"),
    [(0, 0, 0), (1, 0, 5), (20261130, 3, 0), (2**64 + 7, 1, 1000), (2**128 - 1, 12, 2**20)],
)
def test_chunk_states_are_the_documented_seed_sequence_streams(seed, stream, first):
    """Chunk i of stream t under seed s is SeedSequence(s, spawn_key=(t, i)) -> 4 words."""
    states = chunk_states(seed, first, 3, stream)
    for k in range(3):
        assert states[k].tolist() == seed_sequence_state(seed, (stream, first + k))


# -- bounded draws: the kernel against the twin (Lemire, 32-bit) -------------------------------


@pytest.mark.parametrize("n", [1, 2, 6, 37, 52, 1000003, 2**31 + 11, 2**32 - 1])
def test_bounded_draw_equals_its_twin(n):
    start = chunk_states(9, 0, 1)[0]
    state, twin = tuple(int(w) for w in start), []
    for _ in range(300):
        state, v = _twins.below(state, n)
        twin.append(v)
    rng = start.copy()
    got = [int(table_kernels.below(rng, n)) for _ in range(300)]
    assert got == twin
    assert rng.tolist() == list(state)
    assert all(0 <= v < n for v in got)
