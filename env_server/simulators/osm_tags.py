"""What an OpenStreetMap geocoder says a result is: a real OSM class/type pair that fits
its display name (Nominatim, LocationIQ and geocoders of their shape).

A result named by a house number ("108 Tyrrell Street, Dublin, …") is ``place/house`` on a
node, one named by its street ("Tyrrell Street, Dublin, …") is ``highway/residential`` on a
way, and a town ("Pointe-Noire, Republic of the Congo") is ``place/city`` on a node, never a
cycleway or "Recipes". ``osm_step(props)`` is asked once per object schema (``record_steps``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

_NAMES = ("display_name", "display_place")
_STREET = re.compile(r"\b(street|st|road|rd|avenue|ave|way|drive|dr|lane|ln|boulevard|blvd|place|square|court|"
                     r"path|highway|rue|calle|via|strasse|straße|radial|crescent|terrace)\b", re.IGNORECASE)
_MARKS = ("osm_type", "osm_id", "importance", "boundingbox", "place_id")


def osm_tags(display: str) -> tuple[str, str, str]:
    """(class, type, osm_type) of a result with this display name."""
    first = display.split(",", 1)[0].strip()
    if first[:1].isdigit():
        return "place", "house", "node"
    if _STREET.search(first):
        return "highway", "residential", "way"
    return "place", "city", "node"


def osm_step(props: Mapping[str, Any]) -> Step | None:
    """The step that tags an OSM geocoder result by what its display name names, or None."""
    name = next((k for k in _NAMES if k in props), None)
    tags = [k for k in ("class", "category", "type") if isinstance(props.get(k), dict)
            and props[k].get("type") == "string" and "enum" not in props[k]]
    if name is None or not tags or not any(k in props for k in _MARKS):
        return None
    osm_type = props.get("osm_type")
    kinds = set(osm_type.get("enum") or ()) if isinstance(osm_type, dict) else set()

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        display = record.get(name)
        if not isinstance(display, str) or not display:
            return
        klass, kind, element = osm_tags(display)
        for key in tags:
            if key in record:
                record[key] = kind if key == "type" else klass
        if isinstance(record.get("osm_type"), str) and (not kinds or element in kinds):
            record["osm_type"] = element

    return step
