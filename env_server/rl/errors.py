"""Exceptions of the RL env API (subclasses of ``ToolenvError``)::

    ToolenvError
    └── RolloutError              the env API was used wrongly
        ├── ResetNeededError      step() or fork() before the first reset()
        ├── EpisodeFinishedError  step() or fork() after the episode terminated or was truncated (HTTP 409)
        ├── ActionError           the action is not an assistant message (HTTP 422)
        ├── OptionsError          reset options are malformed or name an unknown scenario (HTTP 422)
        ├── UnknownEnvError       no env with that id (HTTP 404)
        ├── TooManyEnvsError      the server holds its maximum of open envs (HTTP 429)
        └── AdminTokenError       the env plays an evaluation scenario: admin token missing (401) or wrong (403)

The agent's own mistakes (a wrong tool name, bad arguments, arguments that are not JSON) are
not errors here: they come back as tool messages and cost reward.
"""

from __future__ import annotations

from env_server.errors import ToolenvError


class RolloutError(ToolenvError):
    """Base class of RL env API misuse."""


class ResetNeededError(RolloutError):
    """``step()`` or ``fork()`` was called before ``reset()``."""


class EpisodeFinishedError(RolloutError):
    """``step()`` or ``fork()`` was called after the episode terminated or was truncated; call ``reset()``."""


class ActionError(RolloutError, ValueError):
    """The action is not a well-formed assistant message in OpenAI chat format."""


class OptionsError(RolloutError, ValueError):
    """The reset options are malformed or name an unknown scenario."""


class UnknownEnvError(RolloutError, KeyError):
    """No env with that id is open."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class TooManyEnvsError(RolloutError):
    """The server already holds ``max_envs`` open envs; delete some or wait for idle ones to expire."""


class AdminTokenError(RolloutError, PermissionError):
    """The server wants its admin token (the env plays an evaluation scenario) or got a wrong one."""
