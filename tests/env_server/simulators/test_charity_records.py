"""A charity reads as one: a nonprofit's name, and an EIN written NN-NNNNNNN."""

from __future__ import annotations

import re

from env_server import ToolEnvironment
from env_server.simulators.records import default_facts
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)

_FRAMES = [re.escape(v).replace(re.escape("{city}"), ".+") for v in default_facts().vocab.get("charity_name").values]


def test_charities_a_search_lists_have_charity_names_and_irs_formatted_eins(env: ToolEnvironment):
    rows = call(env, "charitysearch_search_charities", city="Chicago")["data"]
    assert rows
    for row in rows:
        assert re.fullmatch(r"\d{2}-\d{7}", row["ein"]), row
        assert any(re.fullmatch(f, row["charityName"]) for f in _FRAMES), row
