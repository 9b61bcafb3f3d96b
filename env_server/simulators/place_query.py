"""A place search answers the place it was asked for, or nothing.

A geocoder asked for "Berlin" lists Berlin (and its namesakes: Berlin, New Hampshire), and
one asked for "Fengshan, Taiwan" lists that Fengshan; none of them answers with a random
city. A query that names no place the reference data knows ("Eiffel Tower", "coffee")
comes back empty, as an honest geocoder's would, rather than with somewhere else; a
category in lower case ("coffee") is left to the POI search around the call's place.

``search_places`` is read by the list builder (``plans``: how many rows) and by each row's
scope (``records``: which place the row is).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from env_server.simulators.reference import PlaceFact, ReferenceData, fold

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# Arguments that carry a place search's free text (snake_case).
SEARCH_TEXT_ARGS = ("q", "query", "text", "search", "search_text", "searchtext", "address", "free_form_query",
                    "name_prefix", "place_name")
# A search lists at most this many namesakes ("Springfield" has dozens).
MAX_NAMESAKES = 10


def search_text(gen: Generation) -> str | None:
    """The free text of a place search, when the call sends one."""
    for key in SEARCH_TEXT_ARGS:
        value = gen.snaked_args.get(key)
        if isinstance(value, str) and value.strip() and len(value) <= 80:
            return value.strip()
    return None


def places_named(ref: ReferenceData, text: str) -> tuple[PlaceFact, ...]:
    """The places ``text`` names: the place it resolves to, then (when the text is just
    its name, unqualified) its namesakes by population; () for none."""
    hit = ref.find_place(text)
    if hit is None:
        return _prefixed(ref, text)
    if fold(text) != fold(hit.name):  # "Paris, France", "France", "Berlin Mitte": the one place
        return (hit,)
    same = [p for p in ref.namesakes.get(fold(hit.name), ()) if p != hit]
    return (hit, *same[: MAX_NAMESAKES - 1])


def _prefixed(ref: ReferenceData, text: str) -> tuple[PlaceFact, ...]:
    """Places whose name starts with ``text`` (an autocomplete's "lond"), largest first."""
    folded = fold(text)
    if len(folded) < 3:
        return ()
    return tuple(p for p in ref.drawable_places if fold(p.name).startswith(folded))[:MAX_NAMESAKES]


def proper_name(text: str) -> bool:
    """Whether a search text reads as a proper name ("Eiffel Tower", "Atlantis"), which names
    one place, rather than a category ("coffee", "parking"), which POIs answer."""
    return text[:1].isupper()


def search_places(gen: Generation) -> tuple[PlaceFact, ...] | None:
    """The places a search for places answers, or None when the call is no such search
    (its records are not places, or it sends no search text)."""
    if not gen.lists_places:
        return None
    text = search_text(gen)
    if text is None:
        return None
    named = places_named(gen.facts.reference, text)
    return named if named or proper_name(text) else None


def place_label(gen: Generation) -> str:
    """A place's full label as geocoders print it: "Berlin, Germany", "Austin, Texas, United States"."""
    place = gen.scope.place
    parts = [place.name, place.region, place.country] if place.region != place.country else [place.name, place.country]
    return ", ".join(parts)


def place_context(gen: Generation) -> str:
    """What a place sits in: "Texas, United States", "Germany"."""
    return place_label(gen).split(", ", 1)[1]


def settlement_type(gen: Generation) -> str:
    """OpenStreetMap's ``place`` class of a city by its size ("city", "town")."""
    return "city" if gen.scope.place.population >= 100_000 else "town"


PLACE_QUERY_KINDS: dict[str, Callable[[Generation], Any]] = {
    "place_label": place_label,
    "place_context": place_context,
    "settlement_type": settlement_type,
    "place_feature_type": lambda g: "place",  # Mapbox's feature type of a city
}
