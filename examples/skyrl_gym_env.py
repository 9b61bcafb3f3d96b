"""``ToolEnv`` as a skyrl-gym text environment: the LLM's raw text in, OpenAI messages out.

Needs the ``skyrl`` extra (``pip install 'toolenv[skyrl]'``). In SkyRL, register it and point
the dataset rows at it::

    from examples.skyrl_gym_env import register
    register()                     # id "toolenv"; rows: {"env_class": "toolenv", "seed": 17, ...}

One env is one episode. Its ``extras`` (the dataset row) may hold ``seed`` (default 0),
``options`` (``ToolEnv.reset`` options, e.g. ``{"scenario_id": "flight_to_tokyo"}``),
``reward`` (``"dense"`` or ``"sparse"``) and ``max_steps``.

* ``init(prompt)`` resets the scenario. The dataset prompt only contributes a leading
  ``system`` message, which is kept in front of ours. It returns ``[system, user]``: the system
  prompt holds the scenario date, the tool schemas and the tool-call convention below; the
  user message is the scenario's first request.
* ``step(text)``: the convention is Hermes style (Qwen, Hermes and most open chat templates
  use it). Every ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` block in the text
  is one call, and all the blocks of one turn form one parallel step. Text with no block is the
  assistant's reply to the user. A block whose JSON does not parse, or has no ``name``, is sent
  as a call to ``invalid_tool_call`` with the raw text as its arguments. The env then answers
  with an error and grades the call as unmatched, just like any other wrong call.
* The observations are OpenAI messages: one ``role="tool"`` message per call, in call order,
  or the user's next message. If the tool list changes, a ``system`` message with the new
  schemas is added. ``done`` is ``terminated or truncated``, the reward is ``ToolEnv``'s, and
  ``metadata`` is the step's info (the judgement, errors, digest).
"""

from __future__ import annotations

import json
import re
from typing import Any

from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput, ConversationType

from env_server.rl import DEFAULT_MAX_EPISODE_STEPS, ToolEnv

ENV_ID = "toolenv"
INVALID_CALL = "invalid_tool_call"
TOOL_CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)

CONVENTION = """\
You can call the functions whose signatures are listed inside <tools></tools>:
<tools>
{tools}
</tools>
To call a function, write a JSON object with its name and arguments inside <tool_call></tool_call> tags:
<tool_call>
{{"name": "<function name>", "arguments": {{"<parameter>": "<value>"}}}}
</tool_call>
Several <tool_call> blocks in one reply run in parallel. Reply without any block to talk to the user."""


def parse_tool_calls(text: str, turn: int) -> dict[str, Any]:
    """One assistant message (OpenAI format) from model text, by the convention above."""
    blocks = TOOL_CALL.findall(text)
    content = TOOL_CALL.sub("", text).strip() or None
    if not blocks:
        return {"role": "assistant", "content": text}
    calls = []
    for k, block in enumerate(blocks):
        try:
            parsed = json.loads(block)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and isinstance(parsed.get("name"), str) and parsed["name"]:
            name, arguments = parsed["name"], parsed.get("arguments", {})
            arguments = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        else:
            name, arguments = INVALID_CALL, block
        calls.append({"id": f"call_{turn}_{k}", "type": "function", "function": {"name": name, "arguments": arguments}})
    return {"role": "assistant", "content": content, "tool_calls": calls}


def format_action(action: dict[str, Any]) -> str:
    """The text a model would write for an OpenAI assistant message (the inverse of parsing)."""
    parts = [action["content"]] if action.get("content") else []
    for call in action.get("tool_calls") or ():
        arguments = json.loads(call["function"]["arguments"] or "{}")
        payload = json.dumps({"name": call["function"]["name"], "arguments": arguments}, ensure_ascii=False)
        parts.append(f"<tool_call>\n{payload}\n</tool_call>")
    return "\n".join(parts)


def tools_prompt(tools: list[dict[str, Any]]) -> str:
    return CONVENTION.format(tools="\n".join(json.dumps(t, ensure_ascii=False) for t in tools))


class ToolEnvText(BaseTextEnv):
    """One toolenv episode as a skyrl-gym ``BaseTextEnv`` (see the module docstring)."""

    def __init__(self, env_config: Any = None, extras: dict[str, Any] | None = None) -> None:
        super().__init__()
        extras = extras or {}
        self.seed = int(extras.get("seed", 0))
        self.options = extras.get("options")
        self.max_turns = int(extras.get("max_steps", DEFAULT_MAX_EPISODE_STEPS))
        self.env = ToolEnv(reward=extras.get("reward", "dense"), max_steps=self.max_turns)
        self.total_reward = 0.0
        self.last_info: dict[str, Any] = {}

    def init(self, prompt: ConversationType) -> tuple[ConversationType, dict[str, Any]]:
        observation, info = self.env.reset(seed=self.seed, options=self.options)
        self.turns, self.total_reward, self.last_info = 0, 0.0, dict(info)
        system, *rest = observation["messages"]
        parts = [m["content"] for m in prompt[:1] if m.get("role") == "system"]
        parts += [system["content"], tools_prompt(observation["tools"] or [])]
        return [{"role": "system", "content": "\n\n".join(parts)}, *rest], dict(info)

    def step(self, action: str) -> BaseTextEnvStepOutput:
        self.turns += 1
        observation, reward, terminated, truncated, info = self.env.step(parse_tool_calls(action, self.turns))
        self.total_reward += reward
        self.last_info = dict(info)
        messages = list(observation["messages"])
        if observation["tools"] is not None:
            changed = "The tool list changed.\n" + tools_prompt(observation["tools"])
            messages.append({"role": "system", "content": changed})
        return BaseTextEnvStepOutput(observations=messages, reward=reward, done=terminated or truncated,
                                     metadata=dict(info), postprocessed_action=None)

    def get_metrics(self) -> dict[str, Any]:
        return {"success": float(bool(self.last_info.get("success"))), "turns": self.turns,
                "tasks_correct": self.last_info.get("tasks_correct", 0), "total_reward": self.total_reward}

    def close(self) -> None:
        self.env.close()


def register(env_id: str = ENV_ID) -> None:
    """Register :class:`ToolEnvText` with skyrl-gym under ``env_id`` (again is a no-op)."""
    from skyrl_gym.envs.registration import register as skyrl_register
    from skyrl_gym.envs.registration import registry

    if env_id not in registry:
        skyrl_register(id=env_id, entry_point=f"{__name__}:ToolEnvText")
