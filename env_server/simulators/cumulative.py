"""Running totals that run: a series of cumulative counts never goes down.

disease.sh's timeline of a country's cases, deaths and recoveries is cumulative: each day's
count is at least the day before's, and no one dies or recovers who was not a case.
``cumulative_step(entity, props)`` is asked once per object schema (``record_steps``); for a
record that holds a dated series with such counts it returns the step that orders each
count along the series and keeps deaths and recoveries within the cases.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]

CASES = ("cases", "confirmed", "total_cases", "totalCases")
WITHIN_CASES = ("deaths", "recovered", "total_deaths", "total_recovered", "totalDeaths", "totalRecovered")
RUNNING = (*CASES, *WITHIN_CASES, "tests", "total_tests", "vaccinated", "doses", "total_vaccinations")
_DATED = ("date", "day", "datetime", "timestamp", "time")
DAILY_GROWTH = 0.002


def _series_keys(props: Mapping[str, Any]) -> list[str]:
    keys = []
    for key, schema in props.items():
        items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
        fields = items.get("properties") if isinstance(items, dict) else None
        if isinstance(fields, dict) and any(d in fields for d in _DATED) and any(r in fields for r in RUNNING):
            keys.append(key)
    return keys


def run_totals(rows: list[dict[str, Any]]) -> None:
    """Each running count in ascending order along the rows; deaths and recoveries within
    the cases of their day."""
    for key in RUNNING:
        values = [r[key] for r in rows if isinstance(r.get(key), (int, float)) and not isinstance(r[key], bool)]
        if len(values) != len(rows) or not values:
            continue
        ordered = sorted(values)
        base, top = ordered[0], ordered[-1]
        # A running total grows by a sliver a day (0.2% at most), not fivefold in a week.
        scale = min(1.0, base * DAILY_GROWTH * (len(rows) - 1) / (top - base)) if top > base else 1.0
        for row, value in zip(rows, ordered, strict=True):
            grown = base + (value - base) * scale
            row[key] = int(round(grown)) if isinstance(value, int) else round(grown, 2)
    for row in rows:
        cases = next((row[k] for k in CASES if isinstance(row.get(k), (int, float))), None)
        if cases is None:
            continue
        for key in WITHIN_CASES:
            if isinstance(row.get(key), (int, float)) and row[key] > cases:
                row[key] = type(row[key])(cases * 0.97) if key.endswith(("recovered", "Recovered")) else type(
                    row[key])(cases * 0.012)


def cumulative_step(entity: str, props: Mapping[str, Any]) -> Step | None:
    """The step that makes a record's dated series of counts cumulative, or None."""
    keys = _series_keys(props)
    if not keys:
        return None

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        for key in keys:
            rows = record.get(key)
            if isinstance(rows, list) and all(isinstance(r, dict) for r in rows):
                run_totals(rows)

    return step
