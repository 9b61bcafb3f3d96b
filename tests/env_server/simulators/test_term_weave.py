"""Where a search's term shows in a row (``simulators/term_weave.py``)."""

from __future__ import annotations

from env_server.environment import ToolEnvironment
from env_server.simulators.answers import answer_rows
from env_server.simulators.records import default_facts
from tests.env_server.free_play import call, catalog, env  # noqa: F401  (fixtures)


def _writing_style(name: str, term: str) -> bool:
    rest = name.replace(term, "{term}")
    return rest in default_facts().vocab.get("term_title").values and rest not in default_facts().vocab.get(
        "term_name").values


def test_a_starship_found_by_a_term_is_renamed_like_a_thing_never_titled_like_writing(env: ToolEnvironment):
    for term in ("haircare", "gardening", "jazz"):
        for ship in call(env, "swapi_search_starships", search=term)["results"]:
            assert term.title() in ship["name"]
            assert not _writing_style(ship["name"], term.title()), ship["name"]


def test_a_work_found_by_a_term_may_be_titled_around_it_like_writing():
    props = {"title": {"type": "string"}}
    titles = set()
    for old in ("Night Train", "The Quiet Year", "Salt and Ember", "A Long Way North", "Paper Moons", "Glasshouse"):
        rows = [{"title": old}]
        answer_rows(rows, {"q": "haircare"}, {"properties": props}, "book")
        titles.add(rows[0]["title"])
    assert any(_writing_style(t, "Haircare") for t in titles), titles
