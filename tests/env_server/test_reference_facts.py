"""Answers that state checkable facts state true ones: surahs and ayahs are the Qur'an's (and
no translation is invented), weather alerts are weather products valid for hours, a ZIP's
county is its own, a poem counts its lines, a Pelias geocoder answers the place asked."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from env_server.catalog import Catalog
from env_server.catalog.models import ToolSpec
from env_server.environment import ToolEnvironment
from env_server.simulators.quran import quran_facts
from env_server.simulators.records import default_facts
from env_server.simulators.term_weave import weave_term
from env_server.simulators.us_zips import us_zips, zip_of_call
from env_server.specs.fact_checks import fact_hits
from state import Database
from tests.env_server.free_play import call, catalog, env, ok, session  # noqa: F401  (fixtures)

_PRODUCT = re.compile(r"(Warning|Watch|Advisory|Statement)$")
_NOW = dt.datetime(2026, 1, 15, 9, 0)


def _moment(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", ""))


def test_a_surah_is_the_surah_asked_with_its_real_names_count_and_arabic_ayahs(env: ToolEnvironment):
    out = call(env, "quran_cloud_get_surah", surah=79, limit=3)
    assert (out["number"], out["englishName"], out["revelationType"], out["numberOfAyahs"]) == (
        79, "An-Nāzi‘āt", "Meccan", 46)
    assert out["name"].startswith("سورة ") and out["englishNameTranslation"] == "Those Who Pull Out"
    assert [a["numberInSurah"] for a in out["ayahs"]] == [1, 2, 3]
    assert [a["number"] for a in out["ayahs"]] == [5713, 5714, 5715]
    assert out["ayahs"][0]["text"] == quran_facts().ayah(79, 1).arabic and out["ayahs"][0]["juz"] == 30


def test_a_whole_surah_lists_every_ayah_from_the_offset_asked(env: ToolEnvironment):
    out = call(env, "quran_cloud_get_surah", surah=112, offset=1)
    assert out["numberOfAyahs"] == 4
    assert [a["numberInSurah"] for a in out["ayahs"]] == [2, 3, 4]


def test_an_ayah_by_reference_or_global_number_is_that_ayah(env: ToolEnvironment):
    by_reference = call(env, "quran_cloud_get_ayah", reference="2:255")
    by_number = call(env, "quran_cloud_get_ayah", reference="262")
    for out in (by_reference, by_number):
        assert (out["number"], out["surah_number"], out["numberInSurah"], out["juz"]) == (262, 2, 255, 3)
        assert out["surah_englishName"] == "Al-Baqarah"
    assert by_reference["text"] == quran_facts().ayah(2, 255).arabic


def test_a_translation_edition_says_its_text_is_not_available_rather_than_inventing_scripture(catalog: Catalog):
    env = session(catalog, "quran_cloud_get_ayah")  # a fresh world: the free session has read 2:255 in Arabic
    out = ok(env, "quran_cloud_get_ayah", reference="2:255", edition="en.asad")
    assert out["edition_identifier"] == "en.asad"
    assert "not available" in out["text"] and "2:255" in out["text"] and not re.search(r"[\u0600-\u06ff]", out["text"])
    hits = ok(env, "quran_cloud_search", keyword="mercy")["matches"]
    assert hits and all("not available" in h["text"] and '"mercy"' in h["text"] for h in hits)
    for hit in hits:
        ayah = quran_facts().ayah_numbered(hit["number"])
        assert (ayah.surah, ayah.number_in_surah) == (hit["surah_number"], hit["numberInSurah"])


def test_an_arabic_search_finds_ayahs_that_hold_the_word_without_an_english_sentence_added(env: ToolEnvironment):
    hits = call(env, "quran_cloud_search", keyword="الرحمن", edition="quran-uthmani")["matches"]
    assert hits and hits[0]["surah_number"] == 1 and hits[0]["numberInSurah"] == 1
    assert all(not re.search(r"[A-Za-z]", h["text"]) for h in hits)


def test_editions_are_a_quran_apis_editions_filtered_as_asked(env: ToolEnvironment):
    audio = call(env, "quran_cloud_list_editions", format="audio")["editions"]
    assert audio and all(e["format"] == "audio" and e["identifier"].startswith("ar.") for e in audio)
    known = {e.identifier for e in quran_facts().editions}
    assert {e["identifier"] for e in call(env, "quran_cloud_list_editions")["editions"]} <= known


def test_severe_alerts_are_weather_products_with_their_level_valid_for_hours_from_now(env: ToolEnvironment):
    alerts = call(env, "weatherbit_list_severe_alerts", city="Miami")["alerts"]
    assert alerts
    for alert in alerts:
        assert _PRODUCT.search(alert["title"]), alert
        assert alert["title"].endswith(alert["severity"]) or alert["severity"] == "Advisory" and alert[
            "title"].endswith("Statement"), alert
        start, end = _moment(alert["effective_utc"]), _moment(alert["expires_utc"])
        assert dt.timedelta(hours=1) <= end - start <= dt.timedelta(hours=48), alert
        assert alert["description"] != alert["title"] and "Miami" in alert["description"]
        assert alert["uri"].endswith(alert["title"].lower().replace(" ", "-"))


def test_a_forecasts_alerts_take_the_cap_severity_of_their_event(env: ToolEnvironment):
    alerts = call(env, "weatherapi_get_forecast", q="Denver", days=2, alerts="yes")["alerts"]
    index = default_facts().vocab.index("weather_alert")
    assert alerts
    for alert in alerts:
        entry = index[alert["event"].lower()]
        assert alert["severity"] == entry["severity"] and alert["headline"] == f"{alert['event']} in effect for Denver"


def test_a_warm_city_gets_no_cold_weather_products_and_a_cold_one_no_warm_ones(catalog: Catalog):
    climate = {r["event"]: r["climate"] for r in default_facts().vocab.get("weather_alert").records}
    for seed in range(6):
        env = ToolEnvironment(catalog, Database())
        env.create_session(tools=["weatherbit_list_severe_alerts"], session_id="s", seed=seed)
        for city, banned in (("Miami", "cold"), ("Anchorage", "warm")):
            out = env.call_tool("s", "weatherbit_list_severe_alerts", {"city": city}).result
            assert all(climate[a["title"]] != banned for a in out["alerts"]), (city, out["alerts"])


def test_a_zips_county_list_names_its_real_county_fips_and_state(env: ToolEnvironment):
    miami = call(env, "cms_marketplace_get_counties_by_zip", zipcode="33101")["counties"]
    assert miami == [{"fips": "12086", "name": "Miami-Dade County", "state": "FL", "zipcode": "33101"}]
    made_up = call(env, "cms_marketplace_get_counties_by_zip", zipcode="70425")["counties"]
    assert len(made_up) == 1 and made_up[0]["state"] == "LA" and made_up[0]["name"].endswith("Parish")
    assert made_up[0]["fips"].startswith("22") and made_up[0]["zipcode"] == "70425"


def test_an_unknown_zip_answers_as_the_nearest_real_zip_of_its_area_and_a_foreign_call_is_no_zip():
    assert us_zips().lookup("98101").county == "King County"
    assert us_zips().lookup("70425").state_code == "LA"
    assert zip_of_call({"zip": "10115", "country": "DE"}) is None
    assert zip_of_call({"zipcode": "10001"}).state == "New York"  # type: ignore[union-attr]


def test_a_us_address_carries_a_real_zip_of_its_own_town(env: ToolEnvironment, catalog: Catalog):
    found = call(env, "geoapify_geocode_search", text="Phoenix, Arizona")["results"]
    zipped = re.search(r"Phoenix, Arizona (\d{5}), United States$", found[0]["formatted"])
    assert zipped is not None and us_zips().exact(zipped.group(1)).city == "Phoenix"  # type: ignore[union-attr]
    spec = _spec(catalog, "geocodio_geocode_address")
    bad = {"results": [{"formatted_address": "97 Christine Points, Washington, District of Columbia 80202, United States"}]}
    assert [p for p, _ in fact_hits(spec, {"q": "White House"}, bad, _NOW)] == ["$.results[0].formatted_address"]
    assert fact_hits(spec, {"q": "80202"}, bad, _NOW) == []  # the caller's own ZIP is theirs


def test_a_time_series_or_a_dns_zone_is_not_named_like_a_time_zone(env: ToolEnvironment, catalog: Catalog):
    series = call(env, "nasdaqdatalink_get_time_series", database_code="FRED", dataset_code="GDP")
    zones = call(env, "cloudflare_list_zones")["result"]
    assert "/" not in series["name"] and zones and all("." in z["name"] for z in zones)
    assert call(env, "geonames_get_timezone", lat=52.52, lng=13.40)["timezoneId"] == "Europe/Berlin"
    spec = _spec(catalog, "nasdaqdatalink_get_time_series")
    assert [p for p, _ in fact_hits(spec, {}, {"name": "Asia/Baghdad"}, _NOW)] == ["$.name"]


def test_a_metar_list_answers_each_station_asked_with_its_raw_report_and_dew_point(env: ToolEnvironment,
                                                                                  catalog: Catalog):
    metars = call(env, "aviationweather_get_metar", ids=["KJFK", "EGLL"])["metars"]
    assert sorted(m["icaoId"] for m in metars) == ["EGLL", "KJFK"]
    for m in metars:
        assert m["dewp"] <= m["temp"], m
        assert m["rawOb"].startswith(f"METAR {m['icaoId']} 150851Z "), m
        assert m["rawOb"].split()[-1].startswith("A" if m["icaoId"] == "KJFK" else "Q"), m
    station = call(env, "aviationweather_get_station_info", ids=["KSEA"])["stations"]
    assert [(s["icaoId"], s["iataId"], s["site"], s["country"]) for s in station] == [("KSEA", "SEA", "Seattle", "US")]
    spec = _spec(catalog, "aviationweather_get_metar")
    bad = {"metars": [{"icaoId": "LBA", "rawOb": "H7ZNYKAP"}, {"icaoId": "KLAX", "rawOb": "METAR KLAX 150851Z"}]}
    paths = [p for p, _ in fact_hits(spec, {"ids": ["KJFK"]}, bad, _NOW)]
    assert paths == ["$.metars[0].icaoId", "$.metars[0].rawOb", "$.metars[1].icaoId"]


def test_a_history_ends_today_and_its_running_totals_only_grow(env: ToolEnvironment, catalog: Catalog):
    timeline = call(env, "disease_sh_get_historical_covid", country="India")["timeline"]
    assert timeline and all(day["date"] <= "2026-01-15" for day in timeline)
    for key in ("cases", "deaths", "recovered"):
        counts = [day[key] for day in timeline]
        assert counts == sorted(counts) and counts[-1] <= counts[0] * 1.01, (key, counts)
    assert all(day["deaths"] <= day["cases"] and day["recovered"] <= day["cases"] for day in timeline)
    spec = _spec(catalog, "disease_sh_get_historical_covid")
    bad = {"timeline": [{"date": "2026-01-15", "cases": 20736308, "deaths": 989803},
                        {"date": "2026-01-16", "cases": 111164576, "deaths": 696479}]}
    assert [p for p, _ in fact_hits(spec, {}, bad, _NOW)] == ["$.timeline[*].deaths", "$.timeline[1].date"]


def test_a_words_one_sense_is_listed_once_not_repeated(env: ToolEnvironment, catalog: Catalog):
    senses = call(env, "merriamwebster_get_thesaurus_entry", word="refuse")["senses"]
    glosses = [s["gloss"] for s in senses]
    assert len(glosses) == len(set(glosses)) and any("decline" in s["synonyms"] for s in senses)
    spec = _spec(catalog, "wordsapi_get_word")
    twice = {"results": [{"definition": "Pleased."}, {"definition": "Pleased."}]}
    assert [p for p, _ in fact_hits(spec, {"word": "satisfied"}, twice, _NOW)] == ["$.results"]


def test_an_electricity_amount_without_a_unit_is_in_the_apis_default_megawatt_hours(env: ToolEnvironment,
                                                                                    catalog: Catalog):
    out = call(env, "carbon_interface_create_electricity_estimate", electricity_value=214.19, country="US")
    assert out["electricity_unit"] == "mwh"
    assert 0.1 <= out["carbon_kg"] / (214.19 * 1000) <= 0.9 and out["carbon_mt"] == pytest.approx(out["carbon_kg"] / 1000)
    spec = _spec(catalog, "carbon_interface_create_electricity_estimate")
    wrong = {"electricity_value": 214.19, "electricity_unit": "mwh", "carbon_kg": 48.407}
    assert [p for p, _ in fact_hits(spec, {}, wrong, _NOW)] == ["$.carbon_kg"]


def test_a_daily_series_has_as_many_days_as_the_call_asks(env: ToolEnvironment):
    forecast = call(env, "weatherapi_get_forecast", q="Denver", days=2)["forecastday"]
    assert [d["date"] for d in forecast] == ["2026-01-15", "2026-01-16"]
    history = call(env, "disease_sh_get_historical_covid", country="Peru", lastdays=7)["timeline"]
    assert [d["date"] for d in history][-1] == "2026-01-15" and len(history) == 7


def test_the_sea_is_in_the_oceans_ranges_and_its_models_agree(env: ToolEnvironment, catalog: Catalog):
    hours = call(env, "storm_glass_get_marine_point", lat=43.3, lng=-8.4, params=["waveHeight"])["hours"]
    assert hours and all(0 < h["waveHeight"] < 10 and 3 <= h["swellPeriod"] <= 20 for h in hours)
    levels = call(env, "storm_glass_get_tide_sea_level", lat=43.3, lng=-8.4)["data"]
    assert levels and all(abs(d["sg"]) <= 2 and abs(d["noaa"] - d["sg"]) <= 0.1 for d in levels)
    tides = call(env, "storm_glass_list_tide_extremes", lat=43.3, lng=-8.4)["data"]
    assert tides and all((t["height"] >= 0) == (t["type"] == "high") for t in tides)
    spec = _spec(catalog, "storm_glass_get_tide_sea_level")
    bad = {"data": [{"sg": 1.68, "noaa": -9.63}], "hours": [{"waveHeight": 15.9, "salinity": 2.5}]}
    assert [p for p, _ in fact_hits(spec, {}, bad, _NOW)] == ["$.data[0].noaa"]
    marine = _spec(catalog, "storm_glass_get_marine_point")
    assert [p for p, _ in fact_hits(marine, {}, {"hours": [{"waveHeight": 25.0}]}, _NOW)] == ["$.hours[0].waveHeight"]


def test_a_weather_services_resolved_address_is_the_place_asked_not_a_street(env: ToolEnvironment):
    out = call(env, "visual_crossing_get_history_range", location="Seattle,WA", start_date="2025-12-24",
               end_date="2025-12-26")
    assert out["resolvedAddress"] == "Seattle, Washington, United States"


def test_a_national_apis_records_lie_across_its_own_country(env: ToolEnvironment):
    wanted = call(env, "fbiwanted_list_wanted")["items"]
    offices = {o for w in wanted for o in w["field_offices"]}
    us_cities = {p.name for p in default_facts().reference.places_in("US")}
    assert offices <= us_cities and len(offices) > 1, offices
    ddd = call(env, "brasilapi_get_ddd", ddd="11")
    assert {c for c in ddd["cities"]} <= {p.name for p in default_facts().reference.places_in("BR")}
    holidays = {h["name"] for h in call(env, "brasilapi_list_holidays", year=2026)["holidays"]}
    assert "Tiradentes' Day" in holidays


def test_a_poems_linecount_counts_its_lines(env: ToolEnvironment):
    poems = call(env, "poetrydb_get_poems_by_author", author="Emily Dickinson")["poems"]
    assert poems and all(p["linecount"] == len(p["lines"]) for p in poems)


def test_an_untitled_poem_is_known_by_its_first_line_and_a_title_asked_stays(env: ToolEnvironment):
    poems = call(env, "poetrydb_get_poems_by_author", author="Emily Dickinson")["poems"]
    assert poems and all(p["title"] == p["lines"][0].rstrip(" ,;:.") for p in poems)
    assert call(env, "poetrydb_search_by_title", title="Ozymandias")["poems"][0]["title"] == "Ozymandias"


def test_a_pelias_geocoder_answers_the_place_asked_and_places_near_the_point(env: ToolEnvironment):
    found = call(env, "openrouteservice_geocode_search", text="Lyon")["features"]
    assert found and found[0]["locality"] == "Lyon" and found[0]["country"] == "France"
    near = call(env, "openrouteservice_reverse_geocode", **{"point.lat": 45.76, "point.lon": 4.83})["features"]
    assert near and all(f["label"].endswith("France") and f["distance"] < 50 for f in near)


def test_a_products_pack_size_is_the_size_its_name_prints_with_a_unit(env: ToolEnvironment, catalog: Catalog):
    product = call(env, "open_food_facts_get_product", code="3017624010701")["product"]
    assert re.fullmatch(r"[\d.]+ (g|kg|ml|L|oz)|6 x 330 ml", product["quantity"]), product
    named = re.search(r"(\d+(?:\.\d+)?) ?(kg|g|ml|L)\b", product["product_name"])
    assert named is None or product["quantity"] == f"{named.group(1)} {named.group(2)}"
    spec = _spec(catalog, "open_food_facts_get_product")
    assert [p for p, _ in fact_hits(spec, {}, {"product": {"quantity": "34.9"}}, _NOW)] == ["$.product.quantity"]


def test_a_search_term_is_woven_into_neither_a_place_name_nor_text_in_another_script():
    props = {k: {"type": "string"} for k in ("locality", "region", "text")}
    row = {"locality": "Buôn Ma Thuột", "region": "Đắk Lắk", "text": "بِسۡمِ ٱللَّهِ ٱلرَّحۡمَٰنِ ٱلرَّحِيمِ"}
    before = dict(row)
    weave_term(row, "good vibes", props)
    assert row == before


def _spec(catalog: Catalog, name: str) -> ToolSpec:
    return catalog.tools[name]


def test_the_audit_flags_a_weather_condition_posing_as_an_alert_and_a_months_long_window(catalog: Catalog):
    bad = {"alerts": [{"title": "Mostly sunny", "severity": "Warning", "effective_utc": "2025-12-20T17:30:00Z",
                       "expires_utc": "2026-03-25T14:15:00Z"}]}
    good = {"alerts": [{"title": "Flood Watch", "severity": "Watch", "effective_utc": "2026-01-15T07:00:00Z",
                        "expires_utc": "2026-01-16T19:00:00Z"}]}
    spec = _spec(catalog, "weatherbit_list_severe_alerts")
    details = " ".join(d for _, d in fact_hits(spec, {"city": "Miami"}, bad, _NOW))
    assert "no weather product" in details and "days" in details
    assert fact_hits(spec, {"city": "Miami"}, good, _NOW) == []


def test_the_audit_flags_a_surah_with_another_count_an_invented_ayah_and_a_zips_wrong_county(catalog: Catalog):
    surah = {"number": 79, "englishName": "The Perfect Guest", "revelationType": "Meccan", "numberOfAyahs": 79,
             "ayahs": [{"number": 234, "numberInSurah": 39, "text": "Leave yesterday's worries where they belong."}]}
    hits = fact_hits(_spec(catalog, "quran_cloud_get_surah"), {"surah": 79}, surah, _NOW)
    assert {p for p, _ in hits} == {"$.numberOfAyahs", "$.englishName", "$.ayahs[0].number", "$.ayahs[0].text"}
    counties = {"counties": [{"fips": "98662", "name": "Packable Down Jacket, Black", "state": "Sichuan",
                              "zipcode": "70425"}]}
    paths = {p for p, _ in fact_hits(_spec(catalog, "cms_marketplace_get_counties_by_zip"), {"zipcode": "70425"},
                                     counties, _NOW)}
    assert paths == {"$.counties[0].name", "$.counties[0].state"}
