"""Product listings that answer the search: a search for "kettle" lists kettles.

A shop's search returns products of the query's topic. When the ``product_name``
vocabulary has products whose names hold every word of the query ("pour-over kettle"),
the listings are those; when the query names a product the vocabulary does not know
("Pixel 9"), the listings are that product as sellers list it (new, renewed, open box,
bundled). With no query, any product.

``SHOP_KINDS`` joins ``values.KINDS``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

_QUERY_ARGS = ("q", "query", "search", "keywords", "keyword", "term", "search_term", "search_query")
_WORD_RE = re.compile(r"[a-z0-9]+")
# How sellers list one product ("{}" is the product as searched).
_LISTED_AS = ("{}", "{} (Renewed)", "{} - Open Box", "{}, Brand New, Sealed", "{} - Like New", "{} with Original Box",
              "Used {} - Good Condition", "{} Bundle with Accessories", "{} - Excellent Condition",
              "{}, Factory Refurbished", "{} - 2-Pack", "{} (Latest Model)")


def _query(gen: Generation) -> str | None:
    return next((v.strip() for k in _QUERY_ARGS if isinstance(v := gen.snaked_args.get(k), str) and v.strip()), None)


def _words(text: str) -> set[str]:
    return set(_WORD_RE.findall(text.lower()))


def _matching(gen: Generation, query: str) -> tuple[str, ...]:
    """Vocabulary products whose names hold every word of the query (once per call)."""

    def make() -> tuple[str, ...]:
        wanted = _words(query)
        return tuple(t for t in gen.facts.vocab.get("product_name").texts if wanted <= _words(t)) if wanted else ()

    found: tuple[str, ...] = gen.scope.top.once(f"products:{query}", make)
    return found


def product_listing(gen: Generation) -> str:
    """A listing's title: a product of the query's topic (see the module doc)."""
    scope = gen.scope

    def make() -> str:
        names = gen.facts.vocab.get("product_name").texts
        query = _query(gen)
        if query is None:
            return names[gen.rng.randrange(len(names))]
        found = _matching(gen, query)
        index = scope.index if scope.in_list else gen.rng.randrange(12)
        if found:
            return found[(gen.draw_offset + index) % len(found)]
        return _LISTED_AS[index % len(_LISTED_AS)].format(query)

    title: str = scope.once("product_listing", make)
    return title


SHOP_KINDS: dict[str, Callable[[Generation], Any]] = {"product_listing": product_listing}


# -- shows by segment -------------------------------------------------------------------

_GENRE_ARGS = ("genre", "segment", "segment_name", "classification_name", "taxonomy", "taxonomies", "category",
               "event_type", "type")
_GENRES = {"music": "music", "concert": "music", "concerts": "music", "comedy": "comedy", "standup": "comedy",
           "stand-up": "comedy", "theatre": "theatre", "theater": "theatre", "broadway": "theatre", "opera": "theatre",
           "sports": "sports", "sport": "sports", "family": "family", "kids": "family", "arts": "arts", "art": "arts",
           "film": "arts", "dance": "arts", "nba": "sports", "nfl": "sports", "nhl": "sports", "mlb": "sports",
           "soccer": "sports", "football": "sports", "basketball": "sports", "hockey": "sports"}


def asked_genre(gen: Generation) -> str | None:
    """The segment a show search filters on ("comedy", "Theater", "nba"), if any."""
    for key in _GENRE_ARGS:
        value = gen.snaked_args.get(key)
        text = value[0] if isinstance(value, list) and value else value
        if isinstance(text, str) and (hit := _GENRES.get(text.strip().lower())):
            return hit
    return None


def show(gen: Generation) -> dict[str, Any]:
    """The record's show: one of the segment asked for, else of any segment."""

    def make() -> dict[str, Any]:
        rows = gen.facts.vocab.get("show_by_genre").records
        genre = asked_genre(gen)
        pool = [r for r in rows if r["genre"] == genre] if genre else list(rows)
        return pool[(gen.draw_offset + gen.scope.index) % len(pool)] if gen.scope.in_list else gen.rng.choice(pool)

    found: dict[str, Any] = gen.scope.once("show", make, inherit=True)
    return found


SHOP_KINDS["genre_show_title"] = lambda g: show(g)["title"]
SHOP_KINDS["show_genre"] = lambda g: show(g)["genre"]
