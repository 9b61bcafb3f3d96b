"""Ranked lists: a list whose items carry their own rank or position counts them in order.

A top list, a chart, a league table or a coin table ranks its items by one figure (points,
score, plays, views, market cap), so its items come highest first and ``rank`` runs 1, 2,
3 from the page's first item. A list of parts in order (a recipe's ingredients, a release's
tracks, a guild's channels) numbers its ``position`` 1, 2, 3. A ``rank`` that ranks the item
among things the list does not hold (a player's rank in each skill of a hiscore table) has
no figure to rank by beside it, and stays as drawn.

``rank_plan(item_props)`` decides once per array schema; ``apply`` runs per call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from env_server.simulators.paging import sort_request

# The figure a ranked list is ordered by, in the order a list with several is ranked by them.
_RANKED_BY = ("points", "score", "rating", "playcount", "play_count", "plays", "streams", "views", "view_count",
              "pageviews", "members", "marketCapUsd", "market_cap_usd", "market_cap", "marketCap",
              "24hVolume", "volume_24h", "listeners", "votes", "vote_count", "downloads", "stars", "popularity")
_ORDINALS = ("rank", "position")
_OFFSET_ARGS = ("offset", "start")


def _integer(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "integer" and "enum" not in schema


def _number(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") in ("integer", "number")


@dataclass(frozen=True)
class RankPlanSpec:
    """Which field numbers the items, and the figure they are ordered by (None: as listed)."""

    ordinal: str
    figure: str | None

    def apply(self, items: list[Any], args: Mapping[str, Any]) -> list[Any]:
        if not items or not all(isinstance(item, dict) for item in items):
            return items
        figure = self.figure
        ranked = items if figure is None else sorted(items, key=lambda item: -_as_float(item.get(figure)))
        first = 1 + (_offset(args) if self.ordinal == "rank" else 0)
        for i, item in enumerate(ranked):
            if self.ordinal in item:
                item[self.ordinal] = first + i
        # A call that sorts by another field keeps its order; each row still holds its rank.
        return items if sort_request(args) is not None else ranked


def _as_float(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else float("-inf")


def _offset(args: Mapping[str, Any]) -> int:
    for key in _OFFSET_ARGS:
        value = args.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1_000_000:
            return value
    return 0


def rank_plan(item_props: Mapping[str, Any]) -> RankPlanSpec | None:
    """How a list of records with these fields is ranked, or None when it is not a ranked list."""
    ordinal = next((k for k in item_props if k.lower() in _ORDINALS and _integer(item_props[k])), None)
    if ordinal is None:
        return None
    figure = next((k for k in _RANKED_BY if _number(item_props.get(k))), None)
    if ordinal.lower() == "rank" and figure is None:
        return None  # a rank among things the list does not hold
    return RankPlanSpec(ordinal, figure)


def rank_listed(out: dict[str, Any], schema: Mapping[str, Any], coll: str | None, args: Mapping[str, Any],
                plans: dict[Any, Any]) -> dict[str, Any]:
    """A search's or list's answer with its rows ranked, when they are a ranked list: rows kept
    in the world come back in the order the call asks, and a chart still counts from its top.
    The plan is decided once per row schema and kept in the schemas' plan cache (``plans``)."""
    rows = out.get(coll or "")
    items = ((schema.get("properties") or {}).get(coll or "") or {}).get("items")
    if isinstance(rows, list) and isinstance(items, dict) and (props := items.get("properties")):
        key = (id(props), "rank_order", "", "", 0)
        hit = plans.get(key)
        if hit is None:
            hit = plans[key] = (props, None, rank_plan(props))  # the entry holds props, so its id stays theirs
        if hit[2] is not None:
            out[coll or ""] = hit[2].apply(rows, args)
    return out
