"""What a call asks of the clock: the days its arguments bound, where a series starts, and
dates on the session clock.

``CallClock`` is the part of ``generate.Generation`` that reads time off a call. A record's
dates follow the session's "now" (``Generation.now``, injected; wall time never leaks): a
current reading is stamped today, before now; a series steps one day or hour at a time from
the start of the call's window (or its start date, or now); any other date falls inside the
call's window when it sets one, else within a month of today.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from env_server.simulators import timeline
from env_server.simulators.echoes import DATE_RE
from env_server.simulators.naming import snake
from env_server.simulators.rng import SimRandom

_DAY = dt.timedelta(days=1)
# Kinds of a moment a call's window bounds ("time" too: a date-time field named ``start_time``).
# A record's own stamp too (``timeline.STAMPED``): inside the call's window when it sets one, else now.
_WINDOWED_KINDS = frozenset({None, "date", "datetime", "time", "past_date", "future_date", timeline.STAMPED})
# Entities of observed data ("price_series", "datatable_row", "observation"): their series lie
# before today, as do the days their windows leave; nothing is observed in the future.
_OBSERVED_WORDS = frozenset({"history", "historical", "historic", "past", "series", "timeseries", "datatable",
                             "observation", "observations"})
SERIES_START_ARGS = ("start_date", "date", "from", "from_date", "start", "checkin", "date_from")


@functools.lru_cache(maxsize=4096)
def entity_words(entity: str) -> frozenset[str]:
    """The words of an entity name ("current_weather" -> {"current", "weather"})."""
    return frozenset(entity.lower().split("_"))


class CallClock:
    """Dates for one call's records, from the call's arguments and the session clock.

    Mixed into ``Generation``, which sets the attributes declared here."""

    today: dt.date
    now: dt.datetime
    args: dict[str, Any]
    entity: str
    current: bool
    rng: SimRandom
    _args_snake: dict[str, Any] | None

    @property
    def snaked_args(self) -> dict[str, Any]:
        """The call's arguments keyed by snake_case name ("cityName" -> "city_name")."""
        snaked = self._args_snake
        if snaked is None:
            snaked = self._args_snake = {snake(k): v for k, v in self.args.items()}
        return snaked

    @functools.cached_property
    def draw_offset(self) -> int:
        return self.rng.randrange(1 << 16)

    def call_date(self, names: tuple[str, ...]) -> dt.date | None:
        for key in names:
            value = self.snaked_args.get(key)
            if isinstance(value, str) and DATE_RE.match(value[:10]):
                try:
                    return dt.date.fromisoformat(value[:10])
                except ValueError:
                    continue
        return None

    def current_time_text(self) -> str:
        """A time today, before the session's "now": when "current" data was observed."""
        minutes = self.now.hour * 60 + self.now.minute
        at = self.rng.randint(max(0, minutes - 90), max(0, minutes - 1))
        return f"{self.today.isoformat()}T{at // 60:02d}:{at % 60:02d}:00Z"

    def now_text(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%SZ")

    def series_moment(self, index: int, parent: str, axis: str = "") -> tuple[dt.datetime, bool]:
        """Where item ``index`` of a series lies, and whether the series steps in days: from the
        start of the call's window (or its start date) on; an hourly series with neither starts
        at the current hour, as a forecast runs forward from now."""
        step = timeline.cadence(parent, self.entity, axis)
        if step >= _DAY:
            return dt.datetime.combine(self._anchor_date + step * index, dt.time(12)), True
        first = dt.datetime.combine(self._anchor_date, dt.time())
        if step == timeline.TIDE_STEP:  # the first high water falls anywhere in the day's first cycle
            first += dt.timedelta(minutes=self.draw_offset % 372)
        elif self._anchor_date == self.today and self.call_window == (None, None) \
                and self.call_date(SERIES_START_ARGS) is None:
            first = self.now.replace(minute=0, second=0, microsecond=0)
        return first + step * index, False

    def _dated(self, fmt: str, kind: str | None, index: int | None, parent: str, name: str = "") -> str:
        """Dates follow the session clock; items of a series step one day (or hour) apart."""
        if index is not None:
            moment, daily = self.series_moment(index, parent, name)
            if daily:
                return moment.date().isoformat() if fmt == "date" else f"{moment.date().isoformat()}T12:00:00Z"
            return moment.date().isoformat() if fmt == "date" else moment.strftime("%Y-%m-%dT%H:%M:00Z")
        # The call's window (dates it asks about) beats "current"; the response's own clock does not.
        in_window = self.window_day(kind) if kind in _WINDOWED_KINDS else None
        if in_window is None and (
                kind in ("current_time", "now", "today", timeline.STAMPED) or self.current and kind in (None, "date", "datetime")):
            if fmt == "date":
                return self.today.isoformat()
            return self.now_text() if kind == "now" else self.current_time_text()
        if in_window is not None:
            day = in_window
        elif kind == "past_date":
            day = self.today - dt.timedelta(days=self.rng.randint(1, 730))
        elif kind == "future_date":
            day = self.today + dt.timedelta(days=self.rng.randint(1, 90))
        elif kind == "datetime" or (kind is None and fmt == "date-time"):
            day = self.today - dt.timedelta(days=self.rng.randint(0, 30))
        else:
            day = self.today + dt.timedelta(days=self.rng.randint(-30, 30))
        if fmt == "date":
            return day.isoformat()
        return f"{day.isoformat()}T{self.rng.randint(0, 23):02d}:{self.rng.choice((0, 15, 30, 45)):02d}:00Z"

    @functools.cached_property
    def _anchor_date(self) -> dt.date:
        """The first day of a series: the start of the call's window, its start date, or
        today (a few days before the window's end, when the call sets only an end before today)."""
        lo, hi = self.call_window
        if lo is None and hi is not None and hi < self.today:
            return hi - dt.timedelta(days=4)
        start = lo or self.call_date(SERIES_START_ARGS)
        if start is None and self.observed:
            days = timeline.days_asked(self.args) or 5  # a history ends today, it does not start
            return self.today - dt.timedelta(days=days - 1)
        return start or self.today

    @functools.cached_property
    def observed(self) -> bool:
        """Whether the call's records are observed data (a time series, a data table's rows)."""
        return not entity_words(self.entity).isdisjoint(_OBSERVED_WORDS)

    def series_room(self, step: dt.timedelta) -> int | None:
        """How many steps of a series fit the call's window (None when open-ended): a series of
        observed data ends by now, whatever end the call asks for."""
        first, last = self._anchor_date, self.call_window[1]
        if not self.observed or first > self.today:
            return timeline.series_room(first, last, step)
        if step >= _DAY:
            return timeline.series_room(first, min(last or self.today, self.today), step)
        end = self.now if last is None or last >= self.today else dt.datetime.combine(last, dt.time(23, 59))
        return int((end - dt.datetime.combine(first, dt.time())) / step) + 1

    @functools.cached_property
    def call_window(self) -> tuple[dt.date | None, dt.date | None]:
        """The days the call's arguments bound (start/end, from/to, since/until)."""
        return timeline.window(self.args)

    @functools.cached_property
    def call_years(self) -> tuple[int, int] | None:
        """The years the call's arguments bound (min_year/max_year, start_year/end_year)."""
        return timeline.year_window(self.args)

    def window_day(self, kind: str | None = None) -> dt.date | None:
        """A day inside the call's window (a month past an open end; for a ``past_date`` not
        after today, for a ``future_date`` not before unless the whole window is past), or
        None when the call sets no window (or none that leaves such a day)."""
        lo, hi = self.call_window
        if lo is None and hi is None:
            return None
        first: dt.date = lo if lo is not None else (hi or self.today) - dt.timedelta(days=30)
        last: dt.date = hi if hi is not None else first + dt.timedelta(days=30)
        if kind == "past_date" or self.observed:
            last = min(last, self.today)
        elif kind == "future_date" and last >= self.today:  # a window in the past asks for past events
            first = max(first, self.today)
        if last < first:
            return None
        return first + dt.timedelta(days=self.rng.randint(0, (last - first).days))

    def window_time_text(self) -> str | None:
        """A moment inside the call's window, as ISO text, or None when it sets none."""
        day = self.window_day()
        if day is None:
            return None
        return f"{day.isoformat()}T{self.rng.randint(0, 23):02d}:{self.rng.choice((0, 15, 30, 45)):02d}:00Z"
