"""A national park's alerts: a real park, and a title, text and category that go together.

A record is a park alert when its entity or name says park and alert. It takes one park
(the one the call asked for by its code, else one of ``tool_specs/reference/nps_parks.json``)
and one ``park_alert`` entry (a title, its text naming the park, the NPS category it is
posted under), and writes the park's code and name, the title, the description and the
category (an enum field only when it lists the entry's category).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from env_server.simulators.notice_compose import Fields, compose_whole, retitle, words_of
from env_server.simulators.reference_tables import reference_table

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

KIND = "park_alert"
_CODES = ("park_code", "parkcode", "park_id")
_PARK_NAMES = ("park_name", "park_full_name", "full_name")
_TITLES = ("title", "headline", "name")
_TEXTS = ("description", "text", "body", "summary")
_CATEGORIES = ("category", "type", "alert_type")


@functools.cache
def parks() -> tuple[tuple[str, str], ...]:
    """(code, name) of every park we list, by code."""
    return tuple(sorted(reference_table("nps_parks.json")["parks"].items()))


def park_alert_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that writes a park alert from one park and one alert, or None."""
    words = words_of(name, entity)
    if "park" not in words and "parks" not in words or words.isdisjoint({"alert", "alerts"}):
        return None
    texts, titles = Fields.among(props, _TEXTS), Fields.among(props, _TITLES)
    if not texts:
        return None
    codes, names = Fields.among(props, _CODES), Fields.among(props, _PARK_NAMES)
    categories = Fields.among(props, _CATEGORIES, text_only=False)

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        code, park = _park(gen)
        entry = gen.facts.vocab.get(KIND).records[gen.rng.randrange(len(gen.facts.vocab.get(KIND).records))]
        codes.write(record, code, props)
        names.write(record, park, props)
        retitle(record, titles, entry["title"], props)
        categories.write(record, entry["category"], props)
        texts.write(record, str(entry["description"]).format_map({"park": park}), props)

    return compose_whole(step, texts)


def _park(gen: Generation) -> tuple[str, str]:
    listed = parks()
    asked = next((v for k in _CODES if isinstance(v := gen.snaked_args.get(k), str)), None)
    if asked is not None:
        wanted = asked.split(",")[0].strip().lower()
        found = next((p for p in listed if p[0] == wanted), None)
        if found is not None:
            return found
    return listed[gen.rng.randrange(len(listed))]
