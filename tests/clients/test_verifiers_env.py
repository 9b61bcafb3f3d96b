"""toolenv as a verifiers environment, run by verifiers' own eval against a scripted OpenAI-compatible stub.

The stub (``chat_stub.py``) is a chat completions server on a loopback port that answers with the
oracle's gold actions, or with a refusal; no model and no network. verifiers' eval runner goes
through its interception server to the stub, exactly as it would to vLLM or OpenAI.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

vf = pytest.importorskip("verifiers.v1", reason="the verifiers extra is not installed (README, verifiers environment)")

from verifiers.v1.cli.eval.runner import run_eval  # noqa: E402
from verifiers.v1.configs.cli.eval import EvalConfig  # noqa: E402

import toolenv  # noqa: E402
from clients.verifiers_env import INFO_KEY, ToolenvEnv, bound_episode  # noqa: E402
from env_server.orchestrator import load_scenarios  # noqa: E402
from env_server.rl import OraclePolicy, ToolEnv  # noqa: E402
from tests.clients.chat_stub import ChatStub, oracle_answers, refusing_answers  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BUILTIN = {"scenario_ids": ["word_nerd_questions", "adopt_a_senior_dog"]}  # train split, each with a parallel step
GENERATED = {"source": "generated", "seed": 11, "count": 2}


def scenario_pairs(env: ToolenvEnv) -> list[tuple[str, Any]]:
    """(first user message, scenario) for every row of the env's taskset, for the oracle stub."""
    probe, pairs = ToolEnv(), []
    for task in env.taskset:
        observation, _ = probe.reset(seed=task.data.episode.seed, options=task.data.episode.options)
        pairs.append((observation["messages"][-1]["content"], probe.scenario))
    probe.close()
    assert len({first for first, _ in pairs}) == len(pairs), "first messages must tell the scenarios apart"
    return pairs


def oracle_return(seed: int | None, options: Any) -> float:
    """The RL plane's dense return of the oracle on one row, played through ToolEnv directly."""
    env = ToolEnv()
    obs, info = env.reset(seed=seed, options=options)
    policy, total, done = OraclePolicy(env.scenario), 0.0, False
    while not done:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info))
        total, done = total + reward, terminated or truncated
    env.close()
    return total


def evaluate(taskset: dict[str, Any], answer: Any, out: Path, name: str, bodies: list[Any] | None = None,
             **agent: Any) -> list[Any]:
    """verifiers' eval runner (what vf-eval runs) over the toolenv taskset, the model being the stub;
    ``bodies`` collects the requests the stub got."""
    with ChatStub(answer, bodies) as stub:
        config = EvalConfig.model_validate({
            "env": {"taskset": {"id": "toolenv", **taskset}, **({"agent": agent} if agent else {})},
            "model": "stub", "client": {"base_url": stub.url}, "push": False, "rich": None,
            "output_dir": str(out), "run": {"name": name},
        })
        try:
            return asyncio.run(run_eval(config))
        finally:
            os.environ.pop("VF_RUN_ID", None)  # run_eval leaves the run's id for its child processes


@pytest.fixture(scope="module")
def builtin_env() -> ToolenvEnv:
    return toolenv.load_environment(**BUILTIN)


@pytest.fixture(scope="module")
def oracle_run(builtin_env, tmp_path_factory) -> tuple[list[Any], Path]:
    out = tmp_path_factory.mktemp("vf")
    return evaluate(BUILTIN, oracle_answers(scenario_pairs(builtin_env)), out, "oracle"), out / "oracle"


def test_the_taskset_serves_the_builtin_train_split_as_rows_the_user_side_opens():
    splits: dict[str, dict[str, Any]] = {"train": {}, "test": {}}
    for spec in load_scenarios().scenarios:
        splits[spec.split.value][spec.id] = spec
    tasks = list(toolenv.load_environment().taskset)
    assert [t.data.id for t in tasks] == sorted(splits["train"])
    assert [t.data.id for t in toolenv.load_environment(split="test").taskset] == sorted(splits["test"])
    first = tasks[0].data
    assert first.name == (splits["train"][first.id].title or first.id)
    assert first.prompt is None and first.system_prompt is None, "the env sends the scenario's first request"
    assert first.episode.options.scenario_id == first.id and first.episode.reward == "dense"
    held_out = sorted(splits["test"])[0]
    with pytest.raises(vf.TaskError, match=held_out):
        list(toolenv.load_environment(scenario_ids=[held_out]).taskset)


def test_generated_rows_name_the_generators_scenarios_for_consecutive_seeds():
    rows = list(toolenv.load_environment(**GENERATED, faults="flaky", reward="sparse").taskset)
    assert [(t.data.id, t.data.episode.seed) for t in rows] == [("gen_11", 11), ("gen_12", 12)]
    assert all(t.data.episode.options.generator is not None and t.data.episode.reward == "sparse" for t in rows)
    assert rows[0].data.episode.options.faults.rate_limit > 0
    with pytest.raises(ValueError, match="no-such-profile"):
        toolenv.load_environment(source="generated", faults="no-such-profile")


def test_the_oracle_gets_full_reward_through_verifiers_eval(oracle_run):
    episodes, run_dir = oracle_run
    assert len(episodes) == 2 and all(e.ok for e in episodes)
    for episode in episodes:
        (trace,) = episode.traces
        data = trace.task.data
        assert trace.reward == 1.0 and not trace.errors and trace.stop_condition == "user_closed"
        assert trace.rewards["task_accuracy"].score == 1.0 and trace.rewards["session_success"].score == 1.0
        expected = oracle_return(data.episode.seed, data.episode.options)
        assert trace.rewards["rl_return"].score == pytest.approx(expected)
        assert trace.metrics["tasks_correct"] == trace.metrics["task_count"] > 0
        assert trace.metrics["tool_calls"] > 0 and trace.metrics["truncated"] == 0.0
        # The model was sent the scenario's tools, as OpenAI tool schemas, and its calls ran in process.
        probe = ToolEnv()
        observation, _ = probe.reset(options=data.episode.options)
        assert sorted(t.name for t in trace.tools) == sorted(t["function"]["name"] for t in observation["tools"])
        probe.close()
    saved = [json.loads(line) for line in (run_dir / "traces.jsonl").read_text().splitlines()]
    assert sorted(s["traces"][0]["info"][INFO_KEY]["scenario_id"] for s in saved) == sorted(BUILTIN["scenario_ids"])
    assert all(s["traces"][0]["rewards"]["task_accuracy"]["score"] == 1.0 for s in saved)


def test_the_conversation_shows_each_user_turn_the_orchestrator_sent(oracle_run):
    episodes, _ = oracle_run
    for episode in episodes:
        (trace,) = episode.traces
        messages = trace.messages
        roles = [m.role for m in messages]
        record = trace.info[INFO_KEY]
        replies = sum(1 for s in record["steps"] if s["kind"] == "reply")
        assert roles[:2] == ["system", "user"] and messages[0].content.startswith("Current Date: ")
        assert roles.count("user") == replies, "the first request, then one user message per reply but the last"
        assert roles.count("assistant") == len(record["steps"])


def test_a_wrong_policy_does_not_get_full_reward(builtin_env, tmp_path):
    weighted = {**BUILTIN, "task": {"rewards": {"rl_return": {"weight": 0.5}}}}  # verifiers' reward weights apply
    episodes = evaluate(weighted, refusing_answers, tmp_path, "refuser")
    for episode in episodes:
        (trace,) = episode.traces
        accuracy, rl_return = trace.rewards["task_accuracy"].score, trace.rewards["rl_return"].score
        assert accuracy < 1.0 and trace.rewards["session_success"].score == 0.0
        assert rl_return < oracle_return(None, trace.task.data.episode.options)
        assert trace.reward == pytest.approx(accuracy + 0.5 * rl_return)
        assert trace.metrics["tool_calls"] == 0.0


@pytest.mark.slow
def test_the_oracle_plays_generated_scenarios_through_verifiers_eval(tmp_path):
    env = toolenv.load_environment(**GENERATED)
    episodes = evaluate(GENERATED, oracle_answers(scenario_pairs(env)), tmp_path, "generated")
    assert [e.traces[0].task.data.id for e in episodes] == ["gen_11", "gen_12"]
    assert all(e.traces[0].reward == 1.0 and e.traces[0].rewards["session_success"].score == 1.0 for e in episodes)


def test_a_turn_limit_ends_the_episode_and_scores_what_was_played(builtin_env, tmp_path):
    taskset = {"scenario_ids": ["word_nerd_questions"]}
    episodes = evaluate(taskset, oracle_answers(scenario_pairs(builtin_env)), tmp_path, "limited", max_turns=1)
    (trace,) = episodes[0].traces
    record = trace.info[INFO_KEY]
    assert len(record["steps"]) == 1 and not record["success"]
    assert trace.rewards["task_accuracy"].score < 1.0 and trace.stop_condition is not None


def test_malformed_model_messages_are_graded_as_mistakes_and_the_conversation_stays_valid(tmp_path):
    def answer(body: dict[str, Any]) -> dict[str, Any]:
        if not any(m["role"] == "assistant" for m in body["messages"]):  # a call without a name, then nothing
            return {"content": None, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "", "arguments": "{}"}}]}
        return {"content": None}

    bodies: list[Any] = []
    episodes = evaluate({"scenario_ids": ["word_nerd_questions"]}, answer, tmp_path, "malformed", bodies)
    (trace,) = episodes[0].traces
    steps = trace.info[INFO_KEY]["steps"]
    assert not trace.errors and steps[0]["verdicts"] == ["unmatched"] and trace.reward < 1.0
    sent = [m for body in bodies for m in body["messages"] if m["role"] == "assistant"]
    assert sent and all(m["content"] is not None or m.get("tool_calls") for m in sent)
    assert all(c["function"]["name"] for m in sent for c in m.get("tool_calls") or ())


def test_the_harness_needs_the_episode_the_toolenv_env_binds():
    class Bare:
        state = vf.State()

    with pytest.raises(vf.HarnessError, match="toolenv env"):
        bound_episode(Bare())


@pytest.mark.slow
def test_vf_eval_runs_the_environment_against_an_openai_compatible_endpoint(builtin_env, tmp_path):
    """The vf-eval command line, in its own process, with the oracle stub as the model."""
    taskset = ["--env.taskset.scenario-ids", '["word_nerd_questions"]']
    with ChatStub(oracle_answers(scenario_pairs(builtin_env))) as stub:
        done = subprocess.run(
            [sys.executable, "-c", "from verifiers.v1.cli.eval.main import main; main()", "toolenv", "-m", "stub",
             "--client.base-url", stub.url, "--no-push", "--no-rich", "-o", str(tmp_path), "--run.name", "cli",
             *taskset],
            capture_output=True, text=True, timeout=240, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    (saved,) = [json.loads(line) for line in (tmp_path / "cli" / "traces.jsonl").read_text().splitlines()]
    trace = saved["traces"][0]
    assert trace["rewards"]["task_accuracy"]["score"] == 1.0 and trace["info"][INFO_KEY]["success"]


def test_the_verifiers_extra_is_verifiers_requirements_but_its_mcp_pin():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["verifiers"]
    required = [r for r in metadata.requires("verifiers") or [] if "extra ==" not in r]
    assert [r for r in required if r.startswith("mcp")] == ["mcp==2.0.0"]
    assert sorted(declared) == sorted(r for r in required if not r.startswith("mcp"))
