"""Play a scenario session's gold path in-process (no transport), task by task."""

from __future__ import annotations

from env_server.environment import ToolEnvironment
from env_server.orchestrator.gold import gold_task
from env_server.orchestrator.live import STEP_META_KEY, ScenarioSession
from env_server.orchestrator.reports import UserTurn
from env_server.scoring import ASK, PREPARE, PathEngine


def play_gold_task(env: ToolEnvironment, session: ScenarioSession) -> UserTurn:
    """Play the current task along its first optimal gold path; returns the turn that ends it."""
    index = session.task_index
    gold = gold_task(session.spec.tasks[index], index, [])
    turn = None
    for k, step in enumerate(PathEngine.from_task(gold).first_optimal_path()):
        first = gold.nodes[step[0]]
        if first.name in (ASK, PREPARE):
            turn = session.reply(first.observation or "Done.")
        else:
            for i in step:
                env.call_tool(session.session_id, gold.nodes[i].name, gold.nodes[i].arguments,
                              {STEP_META_KEY: f"{index}-{k}"})
    assert turn is not None
    return turn
