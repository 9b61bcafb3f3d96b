"""The procedural scenario generator: fair and valid sessions, determinism, coverage, natural text, replay."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from env_server.catalog import Catalog
from env_server.generator import GeneratorError, GeneratorSettings, generate_native, generate_scenario
from env_server.generator import compose as compose_module
from env_server.generator.anchors import family_links
from env_server.generator.packs import library
from env_server.generator.phrases import natural_date
from env_server.orchestrator import ScenarioSpec, validate_scenario
from env_server.orchestrator.cli import scenarios_app
from env_server.orchestrator.fairness import fair_gold_findings
from env_server.orchestrator.native import NativeScenarioFile
from env_server.orchestrator.record import record_scenario
from env_server.orchestrator.validate import resolve_tools
from env_server.scoring import PREPARE, TaskType, TurnSubtype

_REF = re.compile(r'"\$ref": "(\d+)\.(\d+):([^"]*)"')
# Capitalized words a user may say mid-sentence: names from the packs' pools, days, months, brands, "I".
BRANDS = {"I", "I'm", "I'd", "I'll", "Todoist", "Spotify", "Google", "Books", "Pexels", "Unsplash", "Guardian", "Vimeo", "YouTube",
          "Last.fm", "Open", "Library"}
CALENDAR = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January", "February",
            "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}


def _families(native: NativeScenarioFile, catalog: Catalog) -> set[str]:
    return {catalog.tools[n.action].family for t in native.tasks for n in t.nodes if n.action in catalog.tools}


def _proper_words() -> set[str]:
    words = set(BRANDS) | CALENDAR
    for kind in library().kinds.values():
        for value in kind.pool:
            words |= {w for w in re.findall(r"[A-Za-z][\w']*", value.say) if w[0].isupper()}
    return words


def _user_lines(native: NativeScenarioFile) -> list[str]:
    return [t.user for t in native.tasks] + [n.user_input for t in native.tasks for n in t.nodes if n.user_input]


def _at(value, path: str):
    for step in path.split("."):
        value = value[int(step)] if isinstance(value, list) else value[step]
    return value


def _check(natives: list[NativeScenarioFile], tmp_path: Path) -> str:
    for native in natives:
        (tmp_path / f"{native.id}.json").write_text(native.model_dump_json(exclude_none=True))
    result = CliRunner().invoke(scenarios_app, ["check", "--scenarios", str(tmp_path)])
    assert result.exit_code == 0, result.output[-3000:]
    return result.output


def test_a_sample_of_generated_sessions_passes_scenarios_check(natives, tmp_path: Path):
    output = _check(natives, tmp_path)
    assert f"{len(natives)} scenarios, {4 * len(natives)} tasks: 0 errors, 0 warnings, 0 fair-gold findings" in output


@pytest.mark.slow
def test_200_generated_sessions_pass_scenarios_check(checked_natives, tmp_path: Path):
    assert len(checked_natives) == 200
    output = _check(checked_natives, tmp_path)
    assert "200 scenarios, 800 tasks: 0 errors, 0 warnings, 0 fair-gold findings" in output


def test_generated_sessions_validate_and_have_fair_gold(generated: list[ScenarioSpec], builtin_catalog: Catalog):
    for spec in generated:
        assert validate_scenario(spec, builtin_catalog) == [], spec.id
        tools, _ = resolve_tools(spec, builtin_catalog)
        assert [str(f) for f in fair_gold_findings(spec, tools)] == []
        assert len(spec.tasks) == 4 and spec.tasks[0].subtype is None


def test_the_same_seed_gives_an_identical_file_and_different_seeds_differ(natives, builtin_catalog: Catalog):
    again = generate_native(7, catalog=builtin_catalog)
    assert again.model_dump_json() == natives[7].model_dump_json()
    dumps = {json.dumps([t.model_dump(mode="json") for t in n.tasks]) for n in natives}
    assert len(dumps) == len(natives)


def test_one_attempt_per_seed(monkeypatch, builtin_catalog: Catalog):
    made = []
    real = compose_module.Composer.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(compose_module.Composer, "__init__", counting)
    for seed in range(300, 330):
        generate_native(seed, catalog=builtin_catalog)
    assert len(made) == 30


def test_the_packs_cover_30_families_with_100_declared_anchor_links():
    lib = library()
    assert len(lib.packs) >= 30
    links = family_links(lib)
    assert len(links) >= 100
    linked = {f for pair in links for f in pair}
    assert linked == {p.family for p in lib.packs}  # every family gives to or takes from another


def test_sessions_compose_families_and_the_sample_reaches_a_coverage_floor(natives, builtin_catalog: Catalog):
    per_session = [_families(n, builtin_catalog) for n in natives]
    families = set().union(*per_session)
    pairs = {(a, b) for used in per_session for a in used for b in used if a < b}
    multi = sum(len(used) >= 2 for used in per_session)
    assert len(families) >= 20 and len(pairs) >= 25, (len(families), len(pairs))
    assert multi / len(natives) >= 0.7


@pytest.mark.slow
def test_200_seeds_reach_30_families_and_100_family_pairs(checked_natives, builtin_catalog: Catalog):
    per_session = [_families(n, builtin_catalog) for n in checked_natives]
    pairs = {(a, b) for used in per_session for a in used for b in used if a < b}
    assert len(set().union(*per_session)) >= 30 and len(pairs) >= 100


def test_all_task_types_and_subtypes_appear_in_close_to_benchmark_shares(natives):
    types = Counter(t.type for n in natives for t in n.tasks)
    subtypes = Counter(t.subtype for n in natives for t in n.tasks[1:])
    total = sum(types.values())
    assert set(types) == set(TaskType) and set(subtypes) == set(TurnSubtype)
    for kind in (TaskType.SINGLE_TOOL, TaskType.CLARIFY, TaskType.CHAT):
        assert 0.12 <= types[kind] / total <= 0.40, (kind, types)
    assert all(t.type is not TaskType.CHAT for t in (n.tasks[0] for n in natives))


def test_user_text_has_no_placeholders_or_title_case_artifacts(natives):
    proper = _proper_words()
    for native in natives:
        for line in _user_lines(native):
            assert not re.search(r"[{}\[\]]|\s[,.?!]|\s{2}", line), (native.id, line)
            assert line[:1].isupper() or not line[:1].isalpha(), (native.id, line)
            for sentence in re.split(r"(?<=[.?!:])\s+", line):
                for word in re.findall(r"(?<=\s)[A-Z][\w']*(?:\.[a-z]\w*)?", sentence):
                    assert word in proper or word.isupper(), (native.id, word, line)  # names, acronyms


def test_the_assistant_text_quotes_results_and_leaves_nothing_unfilled(natives, generated):
    for native, spec in zip(natives, generated, strict=True):
        for task in native.tasks:
            reply = task.nodes[-1].observation
            assert isinstance(reply, str) and not re.search(r"\[[\w.|]+\]", reply), reply
        for task in spec.tasks:
            assert "{{" not in str(task.nodes[-1].observation) and "{" not in task.user_message


def test_users_refer_only_to_values_an_assistant_reply_showed(natives):
    lib = library()
    shown = {(i.tool, path): g.quoted for p in lib.packs for i in p.intents for g in i.gives
             for path in [g.path, *g.parts.values()] if path}
    checked = 0
    for native in natives:
        for task in native.tasks:
            for t, n, path in _REF.findall(json.dumps([node.arguments for node in task.nodes])):
                source = native.tasks[int(t)]
                quoted = shown[(source.nodes[int(n)].action, path)]
                value = _at(source.nodes[int(n)].observation, quoted)
                reply = source.nodes[-1].observation
                said = "{{" + f"{n}:{quoted}" + "}}" in reply or natural_date(value) in reply  # quoted or written out
                assert said, (native.id, t, n, path)
                checked += 1
    assert checked >= len(natives)


def test_chat_turns_are_chat_about_an_earlier_result(natives):
    chats = [(native, t) for native in natives for t in native.tasks if t.type is TaskType.CHAT]
    assert chats
    for native, task in chats:
        assert [n.action for n in task.nodes] == [PREPARE] and task.nodes[0].arguments == {"answer_type": "chat"}
        assert re.search(r"\{\{\d+\.\d+:", task.nodes[0].observation), (native.id, task.nodes[0].observation)


def test_replaying_a_generated_file_with_the_recorder_gives_the_same_observations(natives, builtin_catalog: Catalog):
    for native in natives[:6]:
        assert record_scenario(native, builtin_catalog).model_dump() == native.model_dump()


def test_settings_narrow_families_and_task_types(builtin_catalog: Catalog):
    settings = GeneratorSettings(families=("ticketmaster", "openweathermap"),
                                 task_types=(TaskType.SINGLE_TOOL, TaskType.CLARIFY, TaskType.CHAT))
    for seed in range(6):
        spec = generate_scenario(seed, settings, builtin_catalog)
        assert spec.id.startswith(f"gen_{seed}_") and spec.id != f"gen_{seed}"
        assert all(name.startswith(("ticketmaster_", "openweathermap_")) for name in spec.tools)
        assert {t.task_type for t in spec.tasks} <= set(settings.task_types)
        assert validate_scenario(spec, builtin_catalog) == []


def test_bad_settings_are_refused_with_a_clear_error(builtin_catalog: Catalog):
    with pytest.raises(GeneratorError, match="no phrase pack"):
        generate_scenario(0, GeneratorSettings(families=("nope",)), builtin_catalog)
    with pytest.raises(GeneratorError, match="first task"):
        generate_scenario(0, GeneratorSettings(task_types=(TaskType.CHAT,)), builtin_catalog)
    with pytest.raises(ValueError):
        GeneratorSettings(surprise=1)
