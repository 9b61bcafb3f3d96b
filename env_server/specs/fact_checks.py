"""The audit's reference-fact checks: records that state facts a reference can check.

``fact_hits(spec, args, result, now)`` reads every record of a result and reports:

* a weather alert (a record of an alert list of a weather tool) whose event or title is
  not a weather product ("Mostly sunny" where a "Flood Watch" belongs), or whose validity
  window runs for more than a week or starts in another month than now;
* a surah whose ayah count, name or revelation is not the surah's, and an ayah whose
  global number, surah or Arabic text is not the ayah's;
* a US county list of a ZIP that names another county, or a county in another state;
* a product's pack size written as a bare number ("34.9" where a label prints "400 g");
* a weather report whose ICAO station is not four letters, whose raw METAR is not its own
  station's, or whose station the call did not ask for (``ids=["KJFK"]``);
* a dated series of running totals (cases, deaths) that goes down, or counts more deaths
  than cases; a history's series dated after today;
* a list that says one record over and over (a word's one sense, three times);
* an electricity estimate whose carbon is no grid's (under 10 g or over 1.2 kg CO2e per kWh
  of the amount in its stated unit: 214 MWh giving 48 kg);
* a sea out of the ocean's range (waves over 20 m, salinity over 42 PSU, a tide or sea level
  over 10 m from the mean, a high tide below a low one's datum) or models of one quantity
  that disagree by more than a quarter;
* a record that is no time zone (a time series, a DNS zone) named like one ("Asia/Baghdad");
* a US address whose ZIP is a real ZIP of another state ("Washington, District of Columbia
  80202": 80202 is Denver's), unless the caller sent that ZIP.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Mapping
from typing import Any

from env_server.catalog.models import ToolSpec
from env_server.simulators.alert_kinds import is_weather_alert
from env_server.simulators.cumulative import CASES, RUNNING, WITHIN_CASES
from env_server.simulators.geo_naming import ZONE_WORDS
from env_server.simulators.marine_kinds import SOURCES
from env_server.simulators.naming import snake
from env_server.simulators.pack_sizes import PACK_FIELDS
from env_server.simulators.quran import SURAHS, quran_facts
from env_server.simulators.us_zips import us_zips, zip_of_call
from env_server.specs.audit_checks import walk_records, walk_strings

Hit = tuple[str, str]

# Weather products end in one of these words (NWS, Environment Canada, Meteoalarm).
_PRODUCT = re.compile(r"\b(Warning|Watch|Advisory|Statement|Outlook|Emergency|Alert|Warnings)\b")
_EVENT_FIELDS = ("event", "title")
_STARTS = ("effective", "effective_utc", "onset", "start", "sent", "issued")
_ENDS = ("expires", "expires_utc", "ends", "end")
MAX_ALERT_DAYS = 7


def fact_hits(spec: ToolSpec, args: Mapping[str, Any], result: Any, now: dt.datetime) -> list[Hit]:
    """Reference-fact findings in ``result`` for a call of ``spec`` with ``args``."""
    entity = spec.profile.entity or ""
    found: list[Hit] = []
    for path, record in walk_records(result):
        holder = _holder(path)
        if is_weather_alert(holder, entity, {}) or (spec.category == "Weather" and "alert" in holder):
            found += _alert_hits(path, record, now)
        found += _surah_hits(path, record)
        found += _ayah_hits(path, record)
        found += _pack_hits(path, record)
        found += _grid_hits(path, record)
        found += _sea_hits(path, record)
        found += _zone_name_hits(path, record, entity, holder)
    found += _county_hits(args, result)
    found += _us_zip_hits(args, result)
    found += _station_hits(args, result)
    found += _running_hits(result, entity, now.date())
    return found


def _holder(path: str) -> str:
    """The name of the list or field a record sits in: ``$.alerts[0]`` -> ``alerts``."""
    last = path.rsplit(".", 1)[-1]
    return re.sub(r"\[\d+\]$", "", last) if last != "$" else ""


def _moment(value: Any) -> dt.datetime | None:
    if isinstance(value, str) and len(value) >= 16:
        try:
            return dt.datetime.fromisoformat(value.replace("Z", "+00:00").replace(" ", "T")).replace(tzinfo=None)
        except ValueError:
            return None
    return None


def _alert_hits(path: str, record: Mapping[str, Any], now: dt.datetime) -> list[Hit]:
    hits: list[Hit] = []
    for key in _EVENT_FIELDS:
        value = record.get(key)
        if isinstance(value, str) and not _PRODUCT.search(value):
            hits.append((f"{path}.{key}", f"weather alert '{value}' is no weather product (a Warning, Watch, "
                                          f"Advisory or Statement)"))
    start = next((m for k in record if snake(k) in _STARTS and (m := _moment(record[k])) is not None), None)
    end = next((m for k in record if snake(k) in _ENDS and (m := _moment(record[k])) is not None), None)
    if start is not None and end is not None and (end - start).days >= MAX_ALERT_DAYS:
        hits.append((path, f"weather alert valid for {(end - start).days} days ({start} to {end}), not hours"))
    if start is not None and abs((start - now).days) > MAX_ALERT_DAYS:
        hits.append((path, f"weather alert took effect {start}, far from now ({now})"))
    return hits


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _surah_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    count = _int(record.get("numberOfAyahs", record.get("number_of_ayahs")))
    number = _int(record.get("number"))
    if count is None or number is None or not 1 <= number <= SURAHS:
        return []
    surah = quran_facts().surah(number)
    hits: list[Hit] = []
    if count != surah.ayah_count:
        hits.append((f"{path}.numberOfAyahs", f"surah {number} has {surah.ayah_count} ayahs, not {count}"))
    english = record.get("englishName", record.get("english_name"))
    if isinstance(english, str) and english != surah.english_name:
        hits.append((f"{path}.englishName", f"surah {number} is {surah.english_name}, not '{english}'"))
    revelation = record.get("revelationType", record.get("revelation_type"))
    if isinstance(revelation, str) and revelation != surah.revelation:
        hits.append((f"{path}.revelationType", f"surah {number} is {surah.revelation}, not {revelation}"))
    return hits


def _ayah_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    within = _int(record.get("numberInSurah", record.get("number_in_surah")))
    surah = _int(record.get("surah_number", record.get("surah")))
    number = _int(record.get("number"))
    if within is None or number is None or "numberOfAyahs" in record:
        return []
    facts = quran_facts()
    ayah = facts.ayah_numbered(number)
    hits: list[Hit] = []
    if ayah.number != number or ayah.number_in_surah != within or surah is not None and surah != ayah.surah:
        hits.append((f"{path}.number", f"ayah {number} is {ayah.surah}:{ayah.number_in_surah}, not "
                                       f"{surah if surah is not None else '?'}:{within}"))
    text = record.get("text")
    if isinstance(text, str) and re.search(r"[\u0600-\u06ff]", text) and text != ayah.arabic:
        hits.append((f"{path}.text", f"the Arabic text of {ayah.surah}:{ayah.number_in_surah} is not the ayah's"))
    elif isinstance(text, str) and not re.search(r"[\u0600-\u06ff]", text) and "not available" not in text:
        hits.append((f"{path}.text", "an ayah's text is neither the Arabic nor a statement that the translation "
                                     "is not available (scripture is never invented)"))
    return hits


def _pack_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    hits: list[Hit] = []
    for key, value in record.items():
        if snake(key) in PACK_FIELDS and isinstance(value, str) and re.fullmatch(r"\s*\d+(?:[.,]\d+)?\s*", value):
            hits.append((f"{path}.{key}", f"pack size '{value}' has no unit (a label prints \"400 g\")"))
    return hits


_KWH_PER = {"kwh": 1.0, "mwh": 1000.0}
GRID_KG_PER_KWH = (0.01, 1.2)  # the cleanest to the dirtiest grids on record


def _grid_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    amount, unit, kg = record.get("electricity_value"), record.get("electricity_unit"), record.get("carbon_kg")
    if not isinstance(amount, (int, float)) or not isinstance(kg, (int, float)) or amount <= 0:
        return []
    kwh = amount * _KWH_PER.get(str(unit).lower(), 0.0)
    lo, hi = GRID_KG_PER_KWH
    if kwh and not lo <= kg / kwh <= hi:
        return [(f"{path}.carbon_kg", f"{kg} kg CO2e for {amount} {unit} is {kg / kwh:.4f} kg per kWh, no grid's")]
    return []


_SEA_LIMITS = {"waveHeight": 20.0, "swellHeight": 20.0, "wave_height": 20.0, "swell_height": 20.0,
               "sig_ht_mt": 20.0, "swell_ht_mt": 20.0, "salinity": 42.0}


def _sea_hits(path: str, record: Mapping[str, Any]) -> list[Hit]:
    hits = [(f"{path}.{k}", f"{k} {record[k]} is beyond any sea ({limit} at most)")
            for k, limit in _SEA_LIMITS.items() if isinstance(record.get(k), (int, float)) and record[k] > limit]
    height = record.get("height")
    if record.get("type") in ("high", "low") and isinstance(height, (int, float)) and abs(height) > 10:
        hits.append((f"{path}.height", f"a {record['type']} tide {height} m from the mean"))
    models = [(k, float(record[k])) for k in SOURCES if isinstance(record.get(k), (int, float))]
    if len(models) >= 2:
        base = models[0][1]
        off = [k for k, v in models[1:] if abs(v - base) > max(0.25 * abs(base), 0.3)]
        hits += [(f"{path}.{k}", f"model {k} says {record[k]}, {models[0][0]} says {base}") for k in off]
    return hits


_IANA = re.compile(r"^(Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific)/[A-Za-z_/-]+$")


_ZONE_HOLDERS = frozenset({"timezone", "tz", "time", "zone"})


def _zone_name_hits(path: str, record: Mapping[str, Any], entity: str, holder: str) -> list[Hit]:
    """A record named like a zone that is no zone: neither its entity nor the field it sits
    in (an IP lookup's ``time_zone`` object) is about time zones."""
    if not entity or set(snake(entity).split("_")) <= ZONE_WORDS or not _ZONE_HOLDERS.isdisjoint(
            snake(holder).split("_")):
        return []
    return [(f"{path}.{key}", f"a {entity} named like a time zone: '{record[key]}'") for key in ("name", "title")
            if isinstance(record.get(key), str) and _IANA.match(record[key])]


def _county_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    sent = zip_of_call({snake(k): v for k, v in args.items()})
    if sent is None:
        return []
    hits: list[Hit] = []
    for path, record in walk_records(result):
        county = record.get("county", record.get("name") if "fips" in record else None)
        if isinstance(county, str) and "fips" in record and county != sent.county:
            hits.append((f"{path}.name", f"ZIP {sent.zip_code} lies in {sent.county}, {sent.state_code}, not "
                                         f"'{county}'"))
        state = record.get("state")
        if "fips" in record and isinstance(state, str) and state not in (sent.state_code, sent.state):
            hits.append((f"{path}.state", f"ZIP {sent.zip_code} is in {sent.state}, not '{state}'"))
    return hits


_US_ADDRESS = re.compile(r", ([A-Z][A-Za-z .]+) (\d{5}), United States$")


def _us_zip_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    """Formatted US addresses ("…, Seattle, Washington 98144, United States") whose ZIP is
    another state's; ZIPs the call sent are the caller's and not judged."""
    sent = {v.strip() for v in args.values() if isinstance(v, str)}
    states = set(us_zips().states.values())
    hits: list[Hit] = []
    for path, _, text in walk_strings(result):
        match = _US_ADDRESS.search(text)
        if match is None or match.group(2) in sent or match.group(1) not in states:
            continue
        real = us_zips().exact(match.group(2))
        if real is not None and real.state != match.group(1):
            hits.append((path, f"ZIP {match.group(2)} is in {real.state}, not {match.group(1)}: '{text}'"))
    return hits



_ICAO = re.compile(r"^[A-Z][A-Z0-9]{3}$")


def _station_hits(args: Mapping[str, Any], result: Any) -> list[Hit]:
    ids = args.get("ids")
    asked = {i.strip().upper() for i in ids if isinstance(i, str)} if isinstance(ids, list) else set()
    asked = {i for i in asked if _ICAO.match(i)}
    hits: list[Hit] = []
    for path, record in walk_records(result):
        station = record.get("icaoId", record.get("icao_id"))
        if not isinstance(station, str):
            continue
        if not _ICAO.match(station):
            hits.append((f"{path}.icaoId", f"station '{station}' is no four-letter ICAO code"))
        elif asked and station not in asked:
            hits.append((f"{path}.icaoId", f"station {station} was not asked for ({sorted(asked)})"))
        raw = record.get("rawOb", record.get("raw_text"))
        if isinstance(raw, str) and station not in raw.split()[:2]:
            hits.append((f"{path}.rawOb", f"the raw report '{raw}' is not station {station}'s"))
    return hits


_HISTORY = frozenset({"history", "historical", "past"})


def _running_hits(result: Any, entity: str, today: dt.date) -> list[Hit]:
    hits: list[Hit] = []
    history = not _HISTORY.isdisjoint(snake(entity).split("_"))
    for path, record in walk_records(result):
        for key, rows in record.items():
            if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
                continue
            if len(rows) > 1 and all(r == rows[0] for r in rows):
                hits.append((f"{path}.{key}", f"the list repeats one record {len(rows)} times"))
            hits += _series_hits(f"{path}.{key}", rows, today if history else None)
    return hits


def _series_hits(path: str, rows: list[dict[str, Any]], today: dt.date | None) -> list[Hit]:
    hits: list[Hit] = []
    for field in RUNNING:
        values = [float(v) for r in rows if isinstance(v := r.get(field), (int, float))]
        if len(values) == len(rows) and any(b < a for a, b in itertools.pairwise(values)):
            hits.append((f"{path}[*].{field}", f"running total {field} goes down along the series: {values}"))
    for i, row in enumerate(rows):
        cases = next((row[k] for k in CASES if isinstance(row.get(k), (int, float))), None)
        over = [k for k in WITHIN_CASES if cases is not None and isinstance(row.get(k), (int, float)) and row[k] > cases]
        hits += [(f"{path}[{i}].{k}", f"{k} {row[k]} exceed the {cases} cases") for k in over]
        day = row.get("date")
        if today is not None and isinstance(day, str) and day[:10] > today.isoformat():
            hits.append((f"{path}[{i}].date", f"a history's row is dated {day}, after today ({today})"))
    return hits
