"""A filter sent in its own words is answered with the listed value it means."""

from __future__ import annotations

from pathlib import Path

import pytest

from env_server.catalog import load_catalog
from env_server.environment import ToolEnvironment
from env_server.simulators.echoes import MISSING, enum_member
from state import Database

_WTB_TOOLS = Path(__file__).parents[4] / "shared" / "data" / "wildtoolbench" / "tools_en.jsonl"
_PARTIES = ["Democratic", "Republican", "Independent", "Green", "Libertarian"]


def test_a_sent_text_names_the_enum_member_it_starts_or_matches():
    assert enum_member("Democrat", _PARTIES) == "Democratic"
    assert enum_member("republican", _PARTIES) == "Republican"
    assert enum_member("Green Party", _PARTIES) == "Green"
    assert enum_member("Dem", _PARTIES) is MISSING  # too short to mean one
    assert enum_member("Whig", _PARTIES) is MISSING


@pytest.mark.skipif(not _WTB_TOOLS.exists(), reason="WildToolBench tools not in ../shared/data")
def test_a_candidate_asked_by_party_belongs_to_that_party():
    env = ToolEnvironment(load_catalog([_WTB_TOOLS]), Database())
    env.create_session(tools=["getCandidateData__2"], session_id="s", seed=1)
    for sent, listed in (("Democrat", "Democratic"), ("republican", "Republican")):
        out = env.call_tool("s", "getCandidateData__2", {"party": sent})
        assert out.result is not None and out.result["party"] == listed, out.message
