"""The simulator's random generator: ``random.Random`` with cheaper ``choice`` and ``randint``.

A simulated response makes a dozen or so ``choice``/``randint`` draws. In the standard
library each goes through two or three Python frames (``choice`` -> ``_randbelow`` ->
``getrandbits``, ``randint`` -> ``randrange`` -> ``_randbelow``), which is most of what a
draw costs. The overrides below do the same rejection sampling in one frame with the
public ``getrandbits``: they consume exactly the bits the base class would and return the
same values, so every simulated output stays byte-identical
(``tests/env_server/test_rng.py`` compares long streams). Seeding is the base class's own.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Indexable(Protocol[T_co]):
    """What ``choice`` draws from: a sized sequence indexed by int (as the base class takes)."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int, /) -> T_co: ...


class SimRandom(random.Random):
    def choice(self, seq: Indexable[T]) -> T:
        n = len(seq)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        # Rejection sampling as in Random._randbelow_with_getrandbits: k bits, retry >= n.
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return seq[r]

    def randint(self, a: Any, b: Any) -> int:
        if type(a) is not int or type(b) is not int:  # floats, bools: the base class decides
            return super().randint(a, b)
        n = b - a + 1
        if n <= 0:
            raise ValueError(f"empty range in randint({a}, {b})")
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return a + r
