"""DNS-rebinding protection for every HTTP route: the MCP endpoints and the REST plane alike.

A web page the user visits can point its own domain at 127.0.0.1 and then talk to a local
server from the browser. Such requests carry the attacker's name in ``Host`` (and, from
script, in ``Origin``), so the server accepts only the names it is known by:

* ``Host``: loopback names (``localhost``, ``127.0.0.1``, ``[::1]``, any port) plus
  ``ServerSettings.allowed_hosts``; anything else gets **421 Misdirected Request**.
* ``Origin``: absent (non-browser clients send none), a loopback origin (``http`` or
  ``https``, any port) or one of ``ServerSettings.allowed_origins``; anything else gets
  **403 Forbidden**.

The rule itself is the SDK's (``mcp.server.transport_security``, the check its own
``streamable_http_app`` applies to loopback servers); the front door (``front_door.py``) applies it
to every request, so the MCP and REST planes cannot drift apart.
"""

from __future__ import annotations

import ipaddress

from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
SHOWN_HEADER_CHARS = 200


def security_settings(allowed_hosts: list[str], allowed_origins: list[str]) -> TransportSecuritySettings:
    """The SDK's settings for loopback names plus the given hosts and origins.

    A host without a port (``evals.internal``) is accepted on any port; ``NAME:PORT`` on that
    port only. Origins match exactly, or on any port when written ``scheme://NAME:*``.
    """
    hosts = [pattern for name in (*LOOPBACK_NAMES, *allowed_hosts) for pattern in _host_patterns(name)]
    loopback_origins = [f"{scheme}://{name}{port}" for name in LOOPBACK_NAMES
                        for scheme in ("http", "https") for port in ("", ":*")]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=hosts,
        allowed_origins=[*loopback_origins, *allowed_origins],
    )


def _host_patterns(name: str) -> list[str]:
    has_port = ":" in name.rsplit("]", 1)[-1]  # '[::1]' is a bare IPv6 name, '[::1]:80' has a port
    return [name] if has_port else [name, f"{name}:*"]


def is_loopback(bind_host: str) -> bool:
    """True for an interface only this machine can reach (what ``--host`` binds)."""
    if bind_host.strip("[]") == "localhost":
        return True
    try:
        return ipaddress.ip_address(bind_host.strip("[]")).is_loopback
    except ValueError:
        return False


def refusal(request: Request, status: int) -> JSONResponse:
    """The 421 (Host) or 403 (Origin) answer, naming the flag that widens the rule."""
    if status == 421:
        host = request.headers.get("host", "")[:SHOWN_HEADER_CHARS]
        detail = (f"Host {host!r} is not served here (DNS-rebinding protection); "
                  "start the server with --allowed-host NAME to accept another name")
    else:
        origin = request.headers.get("origin", "")[:SHOWN_HEADER_CHARS]
        detail = (f"Origin {origin!r} is not allowed (DNS-rebinding protection); "
                  "start the server with --allowed-origin ORIGIN to accept it")
    return JSONResponse({"detail": detail}, status_code=status)
