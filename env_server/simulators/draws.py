"""Draw primitives: the seeded building blocks engine kinds are made of.

``pooled`` draws from a Faker pool made once with a fixed seed (``faker_pool``), ``chosen``
and ``distinct`` from a fixed tuple (``distinct`` without repeats inside one list),
``between`` a number in a range; ``draw_date`` and ``draw_datetime`` a day or moment around
the session's today, ``draw_hex`` hex digits, ``slugify`` a title's slug. The registry of
kinds (``values.KINDS``) is built from them.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from faker import Faker

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

STATUSES = ("active", "pending", "completed", "confirmed", "open")
MIME = ("application/pdf", "image/png", "image/jpeg", "text/plain", "application/json", "text/csv")
EXTENSIONS = {"application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg", "text/plain": "txt",
              "application/json": "json", "text/csv": "csv"}
INGREDIENTS = ("chicken", "tomato", "basil", "garlic", "rice", "chickpeas", "spinach", "salmon", "mushroom",
               "lentils", "ginger", "lemon", "potato", "tofu", "mozzarella", "onion", "carrot", "coriander")
COMPASS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
POS = ("noun", "verb", "adjective", "adverb")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# Faker-backed kinds draw from a pool Faker made once with a fixed seed: the values are
# Faker's (realistic, locale-aware), the per-call cost one choice.
POOL_SIZE = 1000
_POOL_SEED = 20260115


@functools.lru_cache(maxsize=64)
def faker_pool(method: str) -> tuple[str, ...]:
    fake = Faker("en_US")
    fake.seed_instance(_POOL_SEED)
    if method == "name":  # a person as rosters and bylines print them: no "Dr." or "DVM"
        return tuple(f"{fake.first_name()} {fake.last_name()}" for _ in range(POOL_SIZE))
    if method == "name_male":  # a player of a men's league
        return tuple(f"{fake.first_name_male()} {fake.last_name()}" for _ in range(POOL_SIZE))
    return tuple(str(getattr(fake, method)()).replace("\n", ", ") for _ in range(POOL_SIZE))


# The Faker methods whose pools back engine kinds (the audit treats their values as real text).
POOLED_METHODS = ("first_name", "name", "name_male", "user_name", "email", "phone_number", "company", "job", "street_address",
                  "postcode", "domain_name", "ipv4_public", "color_name", "isbn13")


def faker_texts() -> frozenset[str]:
    """Every value the Faker pools can give."""
    return frozenset(text for method in POOLED_METHODS for text in faker_pool(method))


def pooled(method: str) -> Callable[[Generation], str]:
    return lambda gen: gen.rng.choice(faker_pool(method))


def chosen(options: tuple[Any, ...]) -> Callable[[Generation], Any]:
    return lambda gen: gen.rng.choice(options)


def distinct(options: tuple[Any, ...], kind: str) -> Callable[[Generation], Any]:
    """Like ``chosen``, but the items of one list do not repeat a value while others remain
    (a recipe lists an ingredient once)."""

    def draw(gen: Generation) -> Any:
        value = gen.rng.choice(options)
        scope = gen.scope
        if not scope.in_list or scope.parent is None:
            return value
        return draw_unused(gen, options, scope.parent.values.setdefault(f"drawn:{kind}", set()), value, 3)

    return draw


def draw_unused(gen: Generation, options: tuple[Any, ...], used: set[Any], value: Any, tries: int) -> Any:
    """``value``, or up to ``tries`` fresh draws from ``options`` until one is not in ``used``
    (while unused options remain); the result joins ``used``."""
    for _ in range(tries):
        if value not in used or len(used) >= len(options):
            break
        value = gen.rng.choice(options)
    used.add(value)
    return value


def between(lo: float, hi: float, ndigits: int | None = None) -> Callable[[Generation], float | int]:
    if ndigits is None:
        return lambda gen: gen.rng.randint(int(lo), int(hi))
    return lambda gen: round(gen.rng.uniform(lo, hi), ndigits)


# Slugs (and the URLs and paths made of them) stop here, as sites cut them: a long title
# would otherwise repeat in full in each of a record's slug, url and path fields.
SLUG_MAX_CHARS = 96


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text[: SLUG_MAX_CHARS * 4].lower())[:SLUG_MAX_CHARS].strip("-") or "item"


def draw_hex(gen: Generation, n: int) -> str:
    return f"{gen.rng.getrandbits(4 * n):0{n}x}"


def draw_date(gen: Generation, lo: int, hi: int) -> dt.date:
    return gen.today + dt.timedelta(days=gen.rng.randint(lo, hi))


def draw_datetime(gen: Generation, lo: int, hi: int) -> str:
    day = draw_date(gen, lo, hi)
    return f"{day.isoformat()}T{gen.rng.randint(7, 21):02d}:{gen.rng.choice((0, 15, 30, 45)):02d}:00Z"
