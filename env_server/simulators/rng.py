"""The simulator's random generator: ``random.Random`` with cheaper ``choice`` and ``randint``.

A simulated response makes a dozen or so ``choice``/``randint`` draws. In the standard
library each goes through two or three Python frames (``choice`` -> ``_randbelow`` ->
``getrandbits``, ``randint`` -> ``randrange`` -> ``_randbelow``), which is most of what a
draw costs. The overrides below do the same rejection sampling in one frame: they consume
exactly the bits the base class would and return the same values, so every simulated
output stays byte-identical (``tests/env_server/test_rng.py`` compares long streams).
"""

from __future__ import annotations

import random
from _random import Random as _CRandom
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")


class SimRandom(random.Random):
    def __init__(self, x: Any = None) -> None:
        if type(x) is not int:
            super().__init__(x)
            return
        # For an int, ``Random.__init__`` -> ``Random.seed`` end in the C seed; calling it
        # directly spares two Python frames per simulated call, with the same state.
        _CRandom.seed(self, x)
        self.gauss_next = None

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
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
