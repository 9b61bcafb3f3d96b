"""``toolenv eval --agent openai`` against a scripted chat-completions server on a real socket."""

from __future__ import annotations

import json

import anyio
from typer.testing import CliRunner

from clients.agent_runner import RunConfig, run_eval
from clients.agents import OpenAIAgent
from clients.eval_cli import eval_app
from env_server.orchestrator.gold import gold_task
from env_server.scoring import ASK, PREPARE, PathEngine
from env_server.specs.samples import sample_arguments
from tests.orchestrator.fake_llm import fake_llm, text, tool_calls
from tests.servers import running_server


def _gold_script(spec) -> list[dict]:
    """One scripted model answer per model call of an agent that follows the gold path."""
    answers = []
    for index, task in enumerate(spec.tasks):
        gold = gold_task(task, index, [])
        for step in PathEngine.from_task(gold).first_optimal_path():
            first = gold.nodes[step[0]]
            if first.name in (ASK, PREPARE):
                answers.append(text(first.observation or "Done."))
                if first.name == PREPARE:
                    break
            else:
                answers.append(tool_calls(*((gold.nodes[i].name, gold.nodes[i].arguments) for i in step)))
    return answers


def test_toolenv_eval_drives_a_correct_model_to_100_percent(live, builtin_scenarios, tmp_path):
    env, _ = live
    spec = builtin_scenarios.get("film_club_schedule")
    script = iter(_gold_script(spec))
    with running_server(env) as toolenv, fake_llm(lambda body: next(script)) as (llm, seen):
        args = ["--agent", "openai", "--base-url", llm, "--model", "fake-model", "--scenario", spec.id,
                "--server", toolenv, "--admin-token", env.settings.admin_token, "--out", str(tmp_path)]
        result = CliRunner().invoke(eval_app, args)
        refused = CliRunner().invoke(eval_app, [*args[:-4], "--out", str(tmp_path / "no-token")])
    assert result.exit_code == 0, result.output
    assert "task accuracy 100.0%" in result.output
    assert next(script, None) is None  # every scripted answer was used, no more were asked for
    assert seen[0]["model"] == "fake-model" and seen[0]["messages"][0]["content"] == f"Current Date: {spec.env_info}"
    config = json.loads((tmp_path / "openai-fake-model" / "config.json").read_text())
    assert env.settings.admin_token not in json.dumps(config)
    assert refused.exit_code == 2 and "--admin-token" in refused.output


def test_a_model_that_calls_a_distractor_gets_every_tool_task_marked_wrong_function(live, builtin_scenarios,
                                                                                    builtin_catalog, tmp_path):
    env, _ = live
    spec = builtin_scenarios.get("lisbon_comedy_weekend")

    def wrong_tool(body: dict) -> dict:
        if body["messages"][-1]["role"] == "tool":
            return text("Here you go.")
        name = next(t["function"]["name"] for t in body["tools"] if t["function"]["name"] not in spec.tools)
        return tool_calls((name, sample_arguments(builtin_catalog.tools[name], 0)))

    with running_server(env) as toolenv, fake_llm(wrong_tool) as (llm, seen):
        config = RunConfig(agent="openai", model="wrong", distractors=4, admin_token=env.settings.admin_token)
        summary = anyio.run(run_eval, toolenv, [spec], lambda: OpenAIAgent(base_url=llm, model="wrong"), config,
                            tmp_path / "run")
    assert len(seen[0]["tools"]) == len(spec.tools) + 4
    assert summary["correct_tasks"] == 0 and summary["failed_sessions"] == 0
    lines = [json.loads(t) for t in (tmp_path / "run" / "sessions" / f"{spec.id}.jsonl").read_text().splitlines()]
    calls = next(line for line in lines if line["type"] == "calls")["calls"]
    assert calls and all(c["name"] not in spec.tools and not c["pinned"] for c in calls)
    tool_tasks = [t for t in lines[-1]["tasks"] if t["task_type"] not in ("Chat", "Clarify")]
    assert tool_tasks and all(t["error_type"] == "call the wrong function" for t in tool_tasks)
