"""A pod's DNS config as core validation checks it (`validatePodDNSConfig`,
`pkg/apis/core/validation/validation.go`); nameservers are IP addresses as `jobmodel.api.ip`
parses them.

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
from jobmodel.api.ip import STRICT_IP_RELEASE, is_valid_ip_for_legacy_field
from jobmodel.util.gostrings import go_len

MAX_DNS_NAMESERVERS: Final = 3
MAX_DNS_SEARCH_PATHS: Final = 32
MAX_DNS_SEARCH_LIST_CHARS: Final = 2048

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
    errs = [mv.max_len_error(mv.DNS1123_SUBDOMAIN_MAX_LENGTH)] if go_len(value) > mv.DNS1123_SUBDOMAIN_MAX_LENGTH else []
    if _SUBDOMAIN_WITH_UNDERSCORE_RE.fullmatch(value) is None:
        fmt = _SUBDOMAIN_WITH_UNDERSCORE_FMT if release >= 34 else _SUBDOMAIN_FMT
        errs.append(mv.regex_error(_SUBDOMAIN_ERROR_MSG_FG, fmt, "example.com"))
    return errs


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
        errs.append(fe.invalid(ns_path, fe.go_slice(nameservers, "[]string", release), f"must not have more than {MAX_DNS_NAMESERVERS} nameservers"))
    for i, ns in enumerate(nameservers):
        errs.extend(is_valid_ip_for_legacy_field(fe.index(ns_path, i), ns, strict=release >= STRICT_IP_RELEASE))
    searches = dns_config.get("searches") or []
    search_path = fe.child(path, "searches")
    if len(searches) > MAX_DNS_SEARCH_PATHS:
        errs.append(fe.invalid(search_path, fe.go_slice(searches, "[]string", release), f"must not have more than {MAX_DNS_SEARCH_PATHS} search paths"))
    if go_len(" ".join(searches)) > MAX_DNS_SEARCH_LIST_CHARS:
        errs.append(
            fe.invalid(
                search_path,
                fe.go_slice(searches, "[]string", release),
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
