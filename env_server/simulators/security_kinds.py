"""Value kinds of vulnerability and internet-scan records, the way NVD and Censys write them.

A person who reads NVD daily checks the score before the words: a CVSS v3.1 base score
follows from its vector (``CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H`` is 9.8), the
severity follows from the score (7.0–8.9 is HIGH), and the exploitability and impact
sub-scores add up to it. So a record draws one vector, once, and every CVSS field is
computed from it with the specification's formula. The description names the weakness and
the affected product, and says what the impact metrics say (C:H reads data, A:H denies service).

``SECURITY_KINDS`` joins ``values.KINDS``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from env_server.simulators.generate import Generation

# CVSS v3.1 metric weights (FIRST, "CVSS v3.1 Specification", section 7.4).
_AV = {"N": 0.85, "A": 0.62, "L": 0.55, "P": 0.2}
_AC = {"L": 0.77, "H": 0.44}
_PR = {"N": (0.85, 0.85), "L": (0.62, 0.68), "H": (0.27, 0.5)}  # (scope unchanged, scope changed)
_UI = {"N": 0.85, "R": 0.62}
_CIA = {"H": 0.56, "L": 0.22, "N": 0.0}
# How often each value shows in published CVEs (roughly): most are network-reachable.
_DRAW = (("AV", "NNNNNNALLP"), ("AC", "LLLLLLLLH"), ("PR", "NNNNNLLH"), ("UI", "NNNNR"), ("S", "UUUUUC"),
         ("C", "HHHLN"), ("I", "HHHLN"), ("A", "HHLNN"))
SEVERITY_BANDS = ((0.0, "NONE"), (3.9, "LOW"), (6.9, "MEDIUM"), (8.9, "HIGH"), (10.0, "CRITICAL"))
SEVERITY_ARGS = ("cvss_v3_severity", "cvss_severity", "severity", "cvss_v3_severity_level")
# Common weaknesses (CWE ids and names are facts of the MITRE list).
CWE_NAMES = {
    "CWE-79": "cross-site scripting", "CWE-89": "SQL injection", "CWE-78": "OS command injection",
    "CWE-22": "path traversal", "CWE-787": "out-of-bounds write", "CWE-125": "out-of-bounds read",
    "CWE-416": "use-after-free", "CWE-352": "cross-site request forgery", "CWE-918": "server-side request forgery",
    "CWE-611": "XML external entity expansion", "CWE-502": "deserialization of untrusted data",
    "CWE-287": "improper authentication", "CWE-862": "missing authorization", "CWE-476": "NULL pointer dereference",
    "CWE-190": "integer overflow", "CWE-400": "uncontrolled resource consumption",
    "CWE-20": "improper input validation", "CWE-200": "exposure of sensitive information",
    "CWE-601": "open redirect", "CWE-434": "unrestricted file upload", "CWE-94": "code injection",
    "CWE-798": "use of hard-coded credentials", "CWE-306": "missing authentication for a critical function",
    "CWE-770": "allocation of resources without limits",
}
_CWES = tuple(sorted(CWE_NAMES))


def roundup(value: float) -> float:
    """CVSS v3.1 Roundup: the smallest one-decimal number at least ``value`` (float-safe)."""
    scaled = round(value * 100_000)
    return scaled / 100_000.0 if scaled % 10_000 == 0 else (math.floor(scaled / 10_000) + 1) / 10.0


@dataclass(frozen=True)
class Cvss:
    """One CVSS v3.1 vector and the scores the specification computes from it."""

    metrics: tuple[tuple[str, str], ...]

    @property
    def m(self) -> dict[str, str]:
        return dict(self.metrics)

    @property
    def vector(self) -> str:
        return "CVSS:3.1/" + "/".join(f"{k}:{v}" for k, v in self.metrics)

    @property
    def changed(self) -> bool:
        return self.m["S"] == "C"

    @property
    def exploitability(self) -> float:
        m = self.m
        return 8.22 * _AV[m["AV"]] * _AC[m["AC"]] * _PR[m["PR"]][self.changed] * _UI[m["UI"]]

    @property
    def impact(self) -> float:
        m = self.m
        iss = 1 - (1 - _CIA[m["C"]]) * (1 - _CIA[m["I"]]) * (1 - _CIA[m["A"]])
        if self.changed:
            return 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15
        return 6.42 * iss

    @property
    def base_score(self) -> float:
        impact = self.impact
        if impact <= 0:
            return 0.0
        total = impact + self.exploitability
        return roundup(min(1.08 * total if self.changed else total, 10.0))

    @property
    def severity(self) -> str:
        return severity_of(self.base_score)


def severity_of(score: float) -> str:
    """The qualitative rating of a CVSS v3 base score."""
    return next(label for top, label in SEVERITY_BANDS if score <= top)


def parse_vector(text: str) -> Cvss | None:
    """The vector of a ``CVSS:3.x/AV:…`` string, or None when it is not one."""
    if not text.startswith(("CVSS:3.1/", "CVSS:3.0/")):
        return None
    pairs = tuple(tuple(part.split(":", 1)) for part in text.split("/")[1:])
    keys = [k for k, _ in _DRAW]
    if [p[0] for p in pairs] != keys or any(len(p) != 2 for p in pairs):
        return None
    return Cvss(pairs)  # type: ignore[arg-type]  # pairs of two, checked above


def _wanted_severity(gen: Generation) -> str | None:
    for key in SEVERITY_ARGS:
        value = gen.snaked_args.get(key)
        if isinstance(value, str) and value.upper() in {label for _, label in SEVERITY_BANDS}:
            return value.upper()
    return None


def cvss(gen: Generation) -> Cvss:
    """The record's vector: drawn once (in the severity the call filters on, when it does)."""

    def draw() -> Cvss:
        want = _wanted_severity(gen)
        found = Cvss(tuple((key, gen.rng.choice(values)) for key, values in _DRAW))
        for _ in range(60):
            if want is None or found.severity == want:
                break
            found = Cvss(tuple((key, gen.rng.choice(values)) for key, values in _DRAW))
        return found

    found: Cvss = gen.scope.once("cvss", draw, inherit=True)
    return found


def cwe_id(gen: Generation) -> str:
    found: str = gen.scope.once("cwe", lambda: gen.rng.choice(_CWES), inherit=True)
    return found


def _product(gen: Generation) -> dict[str, Any]:
    return gen.scope.vocab_record("software_product")


def cpe_name(gen: Generation) -> str:
    """The CPE 2.3 name of the record's product (``cpe:2.3:a:apache:log4j:2.14.1:*:…``)."""
    p = _product(gen)
    return f"cpe:2.3:{p['part']}:{p['vendor']}:{p['product']}:{p['version']}:*:*:*:*:*:*:*"


def cve_description(gen: Generation) -> str:
    """What NVD writes: the weakness, the product, who can exploit it and what it gives them."""
    m, product = cvss(gen).m, _product(gen)["title"]
    who = {"N": "a remote attacker", "A": "an attacker on the adjacent network", "L": "a local attacker",
           "P": "an attacker with physical access"}[m["AV"]]
    if m["PR"] != "N":
        who = who.replace("attacker", "authenticated attacker").replace("a authenticated", "an authenticated")
    if m["C"] == m["I"] == "H":
        gain = "execute arbitrary code"
    elif m["C"] == "H":
        gain = "read sensitive information"
    elif m["I"] == "H":
        gain = "modify data without authorization"
    elif m["A"] == "H":
        gain = "cause a denial of service"
    else:
        gain = "obtain limited information or alter limited data"
    victim = " via a crafted request that a user is tricked into opening" if m["UI"] == "R" else " via a crafted request"
    weakness = CWE_NAMES[cwe_id(gen)]
    article = "An" if weakness[0] in "aeiouAEIOU" else "A"
    return f"{article} {weakness} vulnerability in {product} allows {who} to {gain}{victim}."


def _sub(value: float) -> float:
    return math.floor(value * 10 + 0.5) / 10  # NVD prints the sub-scores to one decimal


SECURITY_KINDS: dict[str, Callable[[Generation], Any]] = {
    "cvss_vector": lambda g: cvss(g).vector,
    "cvss_score": lambda g: cvss(g).base_score,
    "cvss_severity": lambda g: cvss(g).severity,
    "cvss_exploitability": lambda g: _sub(cvss(g).exploitability),
    "cvss_impact": lambda g: _sub(max(cvss(g).impact, 0.0)),
    "cwe_id": cwe_id,
    "cpe_name": cpe_name,
    "cve_description": cve_description,
}


_OS_PRODUCTS = ("Linux", "Ubuntu Linux", "Debian Linux", "CentOS Linux", "Windows Server", "FreeBSD", "RouterOS",
                "Cisco IOS", "FortiOS", "Red Hat Enterprise Linux", "Alpine Linux", "Windows")


def facet_key(gen: Generation) -> str:
    """A bucket of a host aggregation: a value of the field the call aggregates on
    (``services.service_name`` buckets are protocols, ``location.country`` countries …),
    distinct per bucket."""
    field = str(gen.snaked_args.get("field") or "services.service_name").lower()
    vocab = gen.facts.vocab
    if "port" in field:
        options: tuple[str, ...] = tuple(dict.fromkeys(str(r["port"]) for r in vocab.get("network_service").records))
    elif "country" in field:
        options = tuple(dict.fromkeys(p.country for p in gen.facts.reference.drawable_places[:400]))
    elif "autonomous_system" in field or "asn" in field:
        options = tuple(str(r["name"]) for r in vocab.get("autonomous_system").records)
    elif "operating_system" in field or ".os" in field:
        options = _OS_PRODUCTS
    elif "product" in field or "software" in field:
        options = tuple(dict.fromkeys(str(r["software_product"]) for r in vocab.get("network_service").records))
    else:
        options = tuple(dict.fromkeys(str(r["service_name"]) for r in vocab.get("network_service").records))
    return options[gen.scope.index % len(options)]  # buckets come largest first


SECURITY_KINDS["facet_key"] = facet_key


# Who assigns and scores CVEs (CNA contact addresses as NVD lists them as sources).
_CNA_SOURCES = ("cve@mitre.org", "nvd@nist.gov", "secalert@redhat.com", "security@apache.org", "psirt@cisco.com",
                "secure@microsoft.com", "security@google.com", "cve@gitlab.com", "security-advisories@github.com",
                "psirt@fortinet.com", "product-security@apple.com", "security@mozilla.org", "cna@vuldb.com",
                "security@wordfence.com", "psirt@paloaltonetworks.com")
_OS = (("Linux", "Linux"), ("Ubuntu Linux", "Canonical"), ("Debian Linux", "Debian"), ("CentOS", "Red Hat"),
       ("Red Hat Enterprise Linux", "Red Hat"), ("Windows Server 2019", "Microsoft"), ("Windows Server 2022", "Microsoft"),
       ("FreeBSD", "FreeBSD"), ("RouterOS", "MikroTik"), ("IOS XE", "Cisco"), ("FortiOS", "Fortinet"),
       ("Alpine Linux", "Alpine"))
_ISSUERS = ("C=US, O=Let's Encrypt, CN=R3", "C=US, O=Let's Encrypt, CN=E1",
            "C=US, O=DigiCert Inc, CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1",
            "C=US, O=Google Trust Services LLC, CN=GTS CA 1C3", "C=US, O=Amazon, CN=Amazon RSA 2048 M01",
            "C=GB, O=Sectigo Limited, CN=Sectigo RSA Domain Validation Secure Server CA",
            "C=BE, O=GlobalSign nv-sa, CN=GlobalSign GCC R3 DV TLS CA 2020",
            "C=US, O=Cloudflare, Inc., CN=Cloudflare Inc ECC CA-3")
_BANNERS = {"HTTP": "HTTP/1.1 200 OK\r\nServer: {p}", "HTTPS": "HTTP/1.1 200 OK\r\nServer: {p}",
            "SSH": "SSH-2.0-{p}", "FTP": "220 {p} ready", "SMTP": "220 mail ESMTP {p}", "IMAP": "* OK {p} ready",
            "POP3": "+OK {p} ready", "TELNET": "{p} login:", "REDIS": "-NOAUTH Authentication required.",
            "MYSQL": "5.7.42 {p}", "RDP": "Remote Desktop Protocol"}


def _service(gen: Generation) -> dict[str, Any]:
    return gen.scope.vocab_record("network_service")


def _os(gen: Generation) -> tuple[str, str]:
    found: tuple[str, str] = gen.scope.once("os", lambda: gen.rng.choice(_OS), inherit=True)
    return found


def bgp_prefix(gen: Generation) -> str:
    return f"{gen.rng.randint(2, 223)}.{gen.rng.randint(0, 255)}.{gen.rng.choice((0, 64, 128))}.0/{gen.rng.choice((17, 18, 20))}"


SECURITY_KINDS.update({
    "cna_source": lambda g: g.rng.choice(_CNA_SOURCES),
    "os_product": lambda g: _os(g)[0],
    "os_vendor": lambda g: _os(g)[1],
    "cert_issuer_dn": lambda g: g.rng.choice(_ISSUERS),
    "service_banner": lambda g: _BANNERS.get(str(_service(g)["service_name"]), "{p}").format(
        p=_service(g)["software_product"]),
    "bgp_prefix": bgp_prefix,
})
