"""A ticketing site's performers (``simulators/performer_facts.py``)."""

from __future__ import annotations

from env_server.catalog import Catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.records import default_facts
from env_server.specs.performer_checks import performer_hits
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_TYPES = {r["type"] for r in default_facts().vocab.get("performer_type").records}
_TEAMS_OR_BANDS = {"band", "nba", "nfl", "mlb", "nhl", "mls"}


def test_seatgeek_performers_are_bands_teams_comedians_or_productions(env: ToolEnvironment):
    seen = set()
    for q in ("taylor", "lakers", "hamilton", "comedy", "rock", "opera"):
        for performer in call(env, "seatgeek_search_performers", q=q)["performers"]:
            assert performer["type"] in _TYPES, performer
            seen.add(performer["type"])
    assert seen & _TEAMS_OR_BANDS


def test_a_performers_slug_spells_its_name(env: ToolEnvironment):
    for performer in call(env, "seatgeek_search_performers", q="taylor")["performers"]:
        assert performer["slug"] == performer["name"].lower().replace(" ", "-").replace("'", "").replace(".", "")


def test_the_audit_reports_a_performer_filed_under_a_book_genre(catalog: Catalog):
    spec = catalog.tools["seatgeek_search_performers"]
    assert performer_hits(spec, {"performers": [{"name": "Ann Anderson", "type": "Cozy mystery"}]})
    assert performer_hits(spec, {"performers": [{"name": "Moonlit Mariners", "type": "band"}]}) == []
