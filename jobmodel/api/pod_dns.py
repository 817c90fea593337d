"""A pod's DNS config as core validation checks it (`validatePodDNSConfig`,
`pkg/apis/core/validation/validation.go`), and the IP-address parsing it relies on
(`k8s.io/utils/net.ParseIPSloppy`, apimachinery's `IsValidIP`/`IsValidIPForLegacyField`).

Release differences: search domains are checked as DNS-1123 subdomains up to 1.32 (trailing dot
trimmed) and, with RelaxedDNSSearchValidation (on from 1.33, or an old template already using a
`.` or `_` search), with underscores allowed and `.` alone accepted; the with-underscore regex
error names the plain subdomain regex up to 1.33. Nameservers need not be canonical; from 1.36
StrictIPCIDRValidation (beta, on) refuses leading zeros and IPv4-mapped IPv6 addresses.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api import meta_validation as mv
from jobmodel.api.field import FieldError

MAX_DNS_NAMESERVERS: Final = 3
MAX_DNS_SEARCH_PATHS: Final = 32
MAX_DNS_SEARCH_LIST_CHARS: Final = 2048
IP_FORMAT_ERROR: Final = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"

_LABEL_WITH_UNDERSCORE_FMT: Final = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
_SUBDOMAIN_WITH_UNDERSCORE_FMT: Final = _LABEL_WITH_UNDERSCORE_FMT + "(\\." + _LABEL_WITH_UNDERSCORE_FMT + ")*"
_SUBDOMAIN_WITH_UNDERSCORE_RE: Final = re.compile(_SUBDOMAIN_WITH_UNDERSCORE_FMT)
_SUBDOMAIN_FMT: Final = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
_SUBDOMAIN_ERROR_MSG_FG: Final = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', "
    "and must start and end with an alphanumeric character"
)


def has_dot_or_underscore(searches: Sequence[str]) -> bool:
    """hasDotOrUnderscore (`pkg/api/pod/util.go`): a search that is `.` or holds `_`."""
    return any(s == "." or "_" in s for s in searches)


def use_relaxed_dns_search_validation(release: int, old_pod_spec: Mapping[str, Any] | None) -> bool:
    """useRelaxedDNSSearchValidation: the gate (on from 1.33; 1.37 drops the option), or an old
    template whose searches already need it."""
    if release >= 33:
        return True
    searches = ((old_pod_spec or {}).get("dnsConfig") or {}).get("searches")
    return searches is not None and has_dot_or_underscore(searches)


def is_dns1123_subdomain_with_underscore(value: str, release: int) -> list[str]:
    """IsDNS1123SubdomainWithUnderscore (apimachinery): its regex error shows the plain
    subdomain regex up to 1.33."""
    errs = [mv.max_len_error(mv.DNS1123_SUBDOMAIN_MAX_LENGTH)] if len(value) > mv.DNS1123_SUBDOMAIN_MAX_LENGTH else []
    if _SUBDOMAIN_WITH_UNDERSCORE_RE.fullmatch(value) is None:
        fmt = _SUBDOMAIN_WITH_UNDERSCORE_FMT if release >= 34 else _SUBDOMAIN_FMT
        errs.append(mv.regex_error(_SUBDOMAIN_ERROR_MSG_FG, fmt, "example.com"))
    return errs


def _dtoi(s: str) -> tuple[int, int, bool]:
    """dtoi of Go's forked net package: the leading decimal number, its length, whether valid."""
    n = i = 0
    while i < len(s) and "0" <= s[i] <= "9":
        n = n * 10 + ord(s[i]) - ord("0")
        if n >= 0xFFFFFF:
            return 0xFFFFFF, i, False
        i += 1
    return n, i, i > 0


def _xtoi(s: str) -> tuple[int, int, bool]:
    """xtoi: the leading hexadecimal number, its length, whether valid."""
    n = i = 0
    while i < len(s) and s[i] in "0123456789abcdefABCDEF":
        n = n * 16 + int(s[i], 16)
        if n >= 0xFFFFFF:
            return 0, i, False
        i += 1
    return n, i, i > 0


def _parse_ipv4(s: str) -> bytes | None:
    """parseIPv4 (forked, leading zeros accepted)."""
    out = bytearray()
    for i in range(4):
        if not s:
            return None
        if i > 0:
            if s[0] != ".":
                return None
            s = s[1:]
        n, c, ok = _dtoi(s)
        if not ok or n > 0xFF:
            return None
        s = s[c:]
        out.append(n)
    return None if s else bytes(out)


def _parse_ipv6(s: str) -> bytes | None:
    """parseIPv6 (forked): RFC 4291 text with at most one `::` and a trailing dotted IPv4."""
    ip = bytearray(16)
    ellipsis = -1
    if s.startswith("::"):
        ellipsis, s = 0, s[2:]
        if not s:
            return bytes(ip)
    i = 0
    while i < 16:
        n, c, ok = _xtoi(s)
        if not ok or n > 0xFFFF:
            return None
        if c < len(s) and s[c] == ".":
            if (ellipsis < 0 and i != 12) or i + 4 > 16:
                return None
            ip4 = _parse_ipv4(s)
            if ip4 is None:
                return None
            ip[i : i + 4] = ip4
            s, i = "", i + 4
            break
        ip[i], ip[i + 1] = n >> 8, n & 0xFF
        i += 2
        s = s[c:]
        if not s:
            break
        if s[0] != ":" or len(s) == 1:
            return None
        s = s[1:]
        if s[0] == ":":
            if ellipsis >= 0:
                return None
            ellipsis, s = i, s[1:]
            if not s:
                break
    if s:
        return None
    if i < 16:
        if ellipsis < 0:
            return None
        gap = 16 - i
        ip[ellipsis + gap : 16] = ip[ellipsis:i]
        ip[ellipsis : ellipsis + gap] = bytes(gap)
    elif ellipsis >= 0:
        return None
    return bytes(ip)


def parse_ip_sloppy(s: str) -> bytes | None:
    """ParseIPSloppy (`k8s.io/utils/net`, Go's pre-1.17 net.ParseIP): the address's bytes (4
    for dotted IPv4) or None."""
    for ch in s:
        if ch == ".":
            return _parse_ipv4(s)
        if ch == ":":
            return _parse_ipv6(s)
    return None


def _netip_parses(s: str) -> bool:
    """Whether netip.ParseAddr takes what ParseIPSloppy took: not with a leading zero in an IPv4
    part nor more than four digits in an IPv6 group."""
    for part in s.split(":"):
        if "." in part:
            if any(len(octet) > 1 and octet[0] == "0" for octet in part.split(".")):
                return False
        elif len(part) > 4:
            return False
    return True


def parse_ip(value: str, path: str, strict: bool) -> list[FieldError]:
    """parseIP (apimachinery `pkg/util/validation/ip.go`, 1.33+; 1.32's IsValidIP is its
    non-strict part)."""
    ip = parse_ip_sloppy(value)
    if ip is None:
        return [fe.invalid(path, value, IP_FORMAT_ERROR)]
    if not strict:
        return []
    if not _netip_parses(value):
        return [fe.invalid(path, value, "must not have leading 0s")]
    if ":" in value and ip[:12] == bytes(10) + b"\xff\xff":
        return [fe.invalid(path, value, "must not be an IPv4-mapped IPv6 address")]
    return []


def validate_pod_dns_config(
    dns_config: Mapping[str, Any] | None,
    dns_policy: str,
    path: str,
    release: int,
    allow_relaxed_search: bool,
) -> list[FieldError]:
    """validatePodDNSConfig (`pkg/apis/core/validation/validation.go`)."""
    if dns_policy == "None":
        if dns_config is None:
            return [fe.required(path, "must provide `dnsConfig` when `dnsPolicy` is None")]
        if not dns_config.get("nameservers"):
            return [
                fe.required(
                    fe.child(path, "nameservers"),
                    "must provide at least one DNS nameserver when `dnsPolicy` is None",
                )
            ]
    if dns_config is None:
        return []
    errs: list[FieldError] = []
    nameservers = dns_config.get("nameservers") or []
    ns_path = fe.child(path, "nameservers")
    if len(nameservers) > MAX_DNS_NAMESERVERS:
        errs.append(fe.invalid(ns_path, nameservers, f"must not have more than {MAX_DNS_NAMESERVERS} nameservers"))
    for i, ns in enumerate(nameservers):
        errs.extend(parse_ip(ns, fe.index(ns_path, i), strict=release >= 36))
    searches = dns_config.get("searches") or []
    search_path = fe.child(path, "searches")
    if len(searches) > MAX_DNS_SEARCH_PATHS:
        errs.append(fe.invalid(search_path, searches, f"must not have more than {MAX_DNS_SEARCH_PATHS} search paths"))
    if len(" ".join(searches).encode()) > MAX_DNS_SEARCH_LIST_CHARS:
        errs.append(
            fe.invalid(
                search_path,
                searches,
                f"must not have more than {MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list",
            )
        )
    for i, search in enumerate(searches):
        if allow_relaxed_search and search == ".":
            continue
        trimmed = search.removesuffix(".")
        messages = (
            is_dns1123_subdomain_with_underscore(trimmed, release)
            if allow_relaxed_search
            else mv.is_dns1123_subdomain(trimmed)
        )
        errs.extend(fe.invalid(fe.index(search_path, i), trimmed, m) for m in messages)
    errs.extend(
        fe.required(fe.index(fe.child(path, "options"), i), "must not be empty")
        for i, option in enumerate(dns_config.get("options") or [])
        if not option.get("name")
    )
    return errs
