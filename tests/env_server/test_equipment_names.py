"""Records that are not creative works are not titled like one: a weather station is named by
where its owner put it, a financial series is no TV show."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from env_server import ToolEnvironment
from env_server.simulators.medium import WORK_TITLES, media_title_kind
from env_server.simulators.records import default_facts
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_SITES = {site.title() for site in default_facts().vocab.get("equipment_site").values}
_NAMED = re.compile(r"^(?P<site>.+?) (Station|Weather|Sensor|Device)( \d)?$")


def test_a_user_registered_weather_station_is_named_by_where_it_stands(env: ToolEnvironment):
    songs = set(default_facts().vocab.get("song_title").values)
    for station in call(env, "openweathermap_list_stations")["stations"]:
        found = _NAMED.match(station["name"])
        assert found and found["site"] in _SITES and station["name"] not in songs, station["name"]


@pytest.mark.parametrize(("entity", "category"), [
    ("station", "Weather"), ("aggregate_series", "Finance"), ("earnings_release", "Finance"),
    ("generation_mix", "Environment"), ("track", "Transportation"), ("object", "Authentication & Authorization"),
])
def test_a_record_of_a_provider_outside_the_media_is_not_titled_as_a_creative_work(entity: str, category: str):
    assert media_title_kind(SimpleNamespace(entity=entity, category=category)) not in WORK_TITLES


@pytest.mark.parametrize(("entity", "category", "kind"), [
    ("station", "Music", "song_title"), ("track", "Music", "song_title"), ("series", "Video", "tv_show_title"),
    ("book", "Test Data", "book_title"),
])
def test_a_media_provider_s_records_keep_their_medium_s_titles(entity: str, category: str, kind: str):
    assert media_title_kind(SimpleNamespace(entity=entity, category=category)) == kind
