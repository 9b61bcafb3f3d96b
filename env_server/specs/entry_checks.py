"""The audit's check of records named from a record vocabulary (``simulators/entry_fields``).

``entry_hits(spec, result)`` reports a record that names an entry of its title vocabulary (a
cocktail called "Margarita") but shows another value for one of that entry's facts (a
Margarita in a wine glass, filed as "Coffee / Tea", "Non alcoholic"), and a cocktail search
that answers a drink no cocktail list has (a Belgian witbier, a Pinot Grigio).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.entry_fields import entry_field_kind
from env_server.simulators.naming import title_kind
from env_server.simulators.records import default_facts
from env_server.specs.audit_checks import walk_records

Hit = tuple[str, str]
_NAME_FIELDS = ("name", "title", "str_drink", "strDrink", "drink")


def entry_hits(spec: ToolSpec, result: Any) -> list[Hit]:
    entity = spec.profile.entity or ""
    kind = title_kind(entity)
    vocab = default_facts().vocab
    if kind not in vocab or not vocab.get(kind).records:
        return []
    index = vocab.index(kind)
    found: list[Hit] = []
    for path, record in walk_records(result):
        facts = {key: k for key in record if (k := entry_field_kind(key, entity)) is not None}
        name_key = next((k for k in _NAME_FIELDS if isinstance(record.get(k), str)), None)
        if name_key is None or not facts:  # a record with none of the entry's facts (a cat's photo) is not the entry
            continue
        entry, slots = _entry(kind, index, record[name_key])
        if entry is None:
            found.append((f"{path}.{name_key}", f"{record[name_key]!r} is no {kind.replace('_', ' ')}"))
            continue
        for key, fact in facts.items():
            want = _filled(entry[fact.partition(".")[2]], slots)
            if record[key] != want and fact.partition(".")[2] not in spec.profile.hints:
                found.append((f"{path}.{key}", f"{record[name_key]} has {key}={record[key]!r}, not {want!r}"))
    return found


def _entry(kind: str, index: dict[str, dict[str, Any]], name: str) -> tuple[dict[str, Any] | None, dict[str, str]]:
    """The entry ``name`` names, and the place names it filled into its slots ("{city} Bans
    Cars" as "Lyon Bans Cars": {"city": "Lyon"})."""
    entry = index.get(name.lower())
    if entry is not None:
        return entry, {}
    for pattern, slotted in _slotted(kind):
        found = pattern.match(name)
        if found:
            return slotted, found.groupdict()
    return None, {}


@functools.cache
def _slotted(kind: str) -> tuple[tuple[re.Pattern[str], dict[str, Any]], ...]:
    """Each entry of ``kind`` whose name has slots, as a pattern with a group per slot."""
    records = default_facts().vocab.get(kind).records
    first = next(iter(records[0]))
    slot = re.compile(r"\\\{([a-z_]+)\\\}")
    return tuple((re.compile("^" + slot.sub(lambda m: f"(?P<{m.group(1)}>.+)", re.escape(str(r[first]))) + "$"), r)
                 for r in records if "{" in str(r[first]))


def _filled(value: Any, slots: dict[str, str]) -> Any:
    if not isinstance(value, str):
        return value
    for name, text in slots.items():
        value = value.replace("{" + name + "}", text)
    return value
