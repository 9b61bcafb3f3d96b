"""Weather conditions as providers code them: one condition per report, and every code, icon,
word, cloud cover and UV index of the report follows it.

A report's condition text is drawn once (``coherent_kinds.condition``: plausible for its
temperature, and no "Sunny" at night). ``tool_specs/reference/weather_codes.json`` puts each
text in a group, and gives the group's code in each provider's system: OpenWeatherMap's id,
main, description and icon ("10d"; IQAir uses the same icons), WeatherAPI's code, Weatherbit's
code, description and icon ("r01d"), Tomorrow.io's ``weatherCode``, Visual Crossing's icon,
the WMO code; and a typical cloud cover. The UV index is the clear-sky index of the place at the
report's moment (``uv_kinds.uv_at``), dimmed by that cloud cover.

``weather_step(name, entity, props)`` is asked once per object schema (``record_steps``) and
returns a step for a weather record with such fields, or None. ``is_condition_list`` tells the
array builder that OpenWeatherMap's ``weather`` list holds the report's one condition.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from env_server.simulators import timeline
from env_server.simulators.naming import snake
from env_server.simulators.sun import sun_times
from env_server.simulators.uv_kinds import uv_at

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation
    from env_server.simulators.records import RecordScope

Step = Callable[[dict[str, Any], "Generation", "int | None"], None]
_CONDITION_OBJECTS = frozenset({"weather", "condition", "conditions"})
_WEATHER_WORDS = frozenset({"weather", "forecast", "current", "currently", "observation", "conditions", "hourly",
                            "daily", "climate"})
_CODE_NAMES = frozenset({"weather_code", "weathercode", "condition_code", "wx_code"})
_ICON_NAMES = frozenset({"icon", "ic", "icon_code", "weather_icon"})
_UV_NAMES = frozenset({"uv", "uv_index", "uvi", "uvindex"})
_CLOUD_NAMES = frozenset({"cloud_cover", "cloudcover", "clouds", "cloudiness", "cloud"})
_DAY = dt.timedelta(days=1)


@dataclass(frozen=True)
class ConditionGroupSpec:
    """One group of conditions and how each provider codes it."""

    words: tuple[str, ...]
    owm: tuple[int, str, str, str]  # id, main, description, icon number
    weatherapi: int
    weatherbit: tuple[int, str, str]  # code, description, icon stem
    tomorrow: int
    visual_crossing: str
    wmo: int
    clouds: int


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    path = resources.files("tool_specs") / "reference" / "weather_codes.json"
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


@functools.lru_cache(maxsize=1)
def condition_groups() -> tuple[ConditionGroupSpec, ...]:
    return tuple(ConditionGroupSpec(tuple(g["words"]), tuple(g["owm"]), g["weatherapi"], tuple(g["weatherbit"]),
                                    g["tomorrow"], g["visual_crossing"], g["wmo"], g["clouds"])
                 for g in _table()["groups"])


@functools.lru_cache(maxsize=512)
def condition_group(text: str) -> ConditionGroupSpec:
    """The group a condition text falls in (the last group takes anything: a clear sky)."""
    low = text.lower()
    return next(g for g in condition_groups() if any(w in low for w in g.words))


def night_text(text: str) -> str:
    """How a report words ``text`` after dark ("Sunny" is "Clear")."""
    found: str = _table()["night_texts"].get(text, text)
    return found


def system_of(provider: str) -> str | None:
    """The code system a provider answers in ("owm", "weatherapi" …), or None when unknown."""
    found: str | None = _table()["providers"].get(provider)
    return found


def code_of(group: ConditionGroupSpec, text: str, system: str) -> int:
    if system == "weatherapi":
        exact: int | None = _table()["weatherapi_texts"].get(text)
        return exact if exact is not None else group.weatherapi
    return {"weatherbit": group.weatherbit[0], "tomorrow": group.tomorrow, "wmo": group.wmo}.get(system, group.owm[0])


def icon_of(group: ConditionGroupSpec, system: str, daytime: bool) -> str:
    if system == "weatherbit":
        return f"{group.weatherbit[2]}{'d' if daytime else 'n'}"
    if system == "visual_crossing":
        icon = group.visual_crossing
        return f"{icon}-{'day' if daytime else 'night'}" if icon in ("clear", "partly-cloudy") else icon
    return f"{group.owm[3]}{'d' if daytime else 'n'}"


def is_condition_list(name: str, item_props: Mapping[str, Any]) -> bool:
    """Whether an array is a report's list of its conditions (OpenWeatherMap's ``weather``): one item."""
    return snake(name) == "weather" and bool(item_props) and all(
        snake(k) in {"id", "code", "main", "description", "icon", "text"} for k in item_props)


def _role(key: str, schema: Any, condition_object: bool, clouds_object: bool) -> str | None:
    if not isinstance(schema, dict):
        return None
    low, typ = snake(key), schema.get("type")
    numeric = typ in ("number", "integer")
    roles = (
        (low in _CODE_NAMES or condition_object and low in ("code", "id")) and typ == "integer" and "code",
        low in _ICON_NAMES and typ == "string" and schema.get("format") is None and "icon",
        condition_object and typ == "string" and low in ("main", "description", "text") and low,
        low in _UV_NAMES and numeric and "uv",
        (low in _CLOUD_NAMES or clouds_object and low == "all") and numeric and "clouds",
    )
    return next((r for r in roles if r), None)


def _condition_of(gen: Generation, owner: RecordScope) -> str:
    """The condition of the report ``owner`` is (drawn on first use, as its text fields draw it)."""
    from env_server.simulators.coherent_kinds import condition

    inside = gen.scope
    gen.scope = owner
    try:
        return condition(gen)
    finally:
        gen.scope = inside


def _daytime(gen: Generation, moment: dt.datetime, daily: bool) -> bool:
    """Whether the sun is up at the record's place at ``moment`` (a day of a daily series is a day)."""
    return daily or is_daytime(*gen.scope.point, moment)


def is_daytime(lat: float, lon: float, moment: dt.datetime) -> bool:
    """Whether the sun is up at a point at a UTC moment (polar day counts by the sun's noon height)."""
    times = sun_times(lat, lon, moment.date())
    if times is None:
        return abs(lat) > 60 and (lat > 0) == (3 < moment.month < 10)  # midnight sun in the pole's summer
    return times[0] <= moment < times[1]


def _uv(gen: Generation, moment: dt.datetime, daily: bool, clouds: int) -> float:
    """The clear-sky UV index at the moment (a day's: at solar noon), dimmed by the cloud cover."""
    if daily:
        moment = dt.datetime.combine(moment.date(), dt.time(12)) - dt.timedelta(hours=gen.scope.point[1] / 15)
    return uv_at(gen, moment) * (1 - 0.75 * (clouds / 100) ** 3.4)


def _words_for(role: str, group: ConditionGroupSpec, text: str, system: str, daytime: bool) -> str:
    """A condition in a provider's words: OpenWeatherMap's main group and lower-case description,
    Weatherbit's description, WeatherAPI's own text for its code; the report's text otherwise."""
    if role == "main":
        return group.owm[1]
    if system == "owm":
        return group.owm[2]
    if system == "weatherbit":
        return group.weatherbit[1]
    if system == "weatherapi" and text not in _table()["weatherapi_texts"]:
        words = _weatherapi_text(group.weatherapi)
        return words if daytime else night_text(words)
    return text


@functools.lru_cache(maxsize=64)
def _weatherapi_text(code: int) -> str:
    return next((t for t, c in _table()["weatherapi_texts"].items() if c == code), "Clear")


def _put_code(record: dict[str, Any], key: str, schema: Mapping[str, Any], code: int) -> None:
    """``code`` into a code field; an enum that lacks it takes its nearest code of the same family
    (Tomorrow.io's 6001 freezing rain is 6000 where only that is listed), else keeps its draw."""
    choices = [c for c in schema.get("enum") or () if isinstance(c, int)]
    if choices and code not in choices:
        family = [c for c in choices if len(str(c)) == len(str(code)) and str(c)[0] == str(code)[0]]
        if not family:
            return
        code = min(family, key=lambda c: abs(c - code))
    record[key] = code


def _put_text(record: dict[str, Any], key: str, schema: Mapping[str, Any], words: str) -> None:
    """``words`` into a text field, spelled as its enum spells it (and left alone when the enum lacks it)."""
    choices = schema.get("enum")
    if isinstance(choices, list):
        words = next((c for c in choices if isinstance(c, str) and c.lower() == words.lower()), "")
    if words:
        record[key] = words


def _within(value: float, schema: Mapping[str, Any]) -> int | float:
    lo, hi = schema.get("minimum"), schema.get("maximum")
    value = max(value, lo) if isinstance(lo, (int, float)) else value
    value = min(value, hi) if isinstance(hi, (int, float)) else value
    return int(round(value)) if schema.get("type") == "integer" else round(value, 1)


def weather_step(name: str, entity: str, props: Mapping[str, Any]) -> Step | None:
    low = snake(name)
    weather = not _WEATHER_WORDS.isdisjoint(snake(entity).split("_"))
    # A "weather" object anywhere; a "condition" only in a weather record (not a patient's or a car's).
    condition_object = low == "weather" or low in _CONDITION_OBJECTS and weather
    if not (condition_object or weather):
        return None
    fields = tuple((k, role) for k, s in props.items() if (role := _role(k, s, condition_object, low == "clouds")))
    if not fields:
        return None
    axis = next((k for k in props if timeline.is_series_axis(k, name, entity)), None)
    daily = axis is not None and timeline.cadence(name, entity, axis) >= _DAY
    by_field = "tomorrow" if "weatherCode" in props else "wmo" if any(
        snake(k) in ("weathercode", "weather_code") for k in props) else "owm"

    def step(record: dict[str, Any], gen: Generation, index: int | None) -> None:
        scope = gen.scope
        # A report's list of conditions (OpenWeatherMap's "weather") speaks of the report's own.
        owner = scope.parent.root if condition_object and index is not None and scope.parent else scope.root
        text = _condition_of(gen, owner)
        group = condition_group(text)
        system = system_of(gen.provider) or by_field
        in_series = axis is not None and index is not None
        moment = gen.series_moment(index, name, axis)[0] if in_series and axis and index is not None else gen.now
        clouds = max(0, min(100, group.clouds + gen.rng.randint(-6, 6)))
        for key, role in fields:
            if role == "code":
                _put_code(record, key, props[key], code_of(group, text, system))
            elif role == "icon":
                _put_text(record, key, props[key], icon_of(group, system, _daytime(gen, moment, daily and in_series)))
            elif role in ("main", "description", "text"):
                _put_text(record, key, props[key], _words_for(role, group, text, system,
                                                              _daytime(gen, moment, daily and in_series)))
            elif role == "uv":
                record[key] = _within(_uv(gen, moment, daily and in_series, clouds), props[key])
            elif isinstance(record.get(key), (int, float)):
                # A cover of 0.8 on a 0-1 scale, or 80 on a 0-100 one, as the schema bounds it.
                share = props[key].get("maximum") == 1
                record[key] = _within(clouds / 100 if share else clouds, props[key])

    return step
