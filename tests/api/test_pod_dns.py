"""validatePodDNSConfig and the IP parsing under it (jobmodel/api/pod_dns.py)."""

from __future__ import annotations

from typing import Any

from jobmodel.api.pod_dns import (
    use_relaxed_dns_search_validation,
    validate_pod_dns_config,
)
from tests.api.helpers import pairs

P = "spec.dnsConfig"


def _errors(config: dict[str, Any] | None, policy: str = "ClusterFirst", release: int = 37, relaxed: bool = True) -> set[tuple[str, str]]:
    return pairs(validate_pod_dns_config(config, policy, P, release, relaxed))


def test_dns_policy_none_needs_config_and_a_nameserver() -> None:
    assert _errors(None, "None") == {(P, "FieldValueRequired")}
    assert _errors({"searches": ["bad_"]}, "None") == {(f"{P}.nameservers", "FieldValueRequired")}
    assert _errors({"nameservers": ["1.2.3.4"]}, "None") == set()
    assert _errors(None, "ClusterFirst") == set()


def test_list_limits() -> None:
    assert _errors({"nameservers": ["1.1.1.1"] * 4}) == {(f"{P}.nameservers", "FieldValueInvalid")}
    searches = [f"s{i}" for i in range(33)]
    assert _errors({"searches": searches}) == {(f"{P}.searches", "FieldValueInvalid")}
    # 9 x 250 characters and 8 spaces: over 2048 in all, each one valid.
    long = ["a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 58] * 9
    errors = validate_pod_dns_config({"searches": long}, "ClusterFirst", P, 37, True)
    assert [e.detail for e in errors] == ["must not have more than 2048 characters (including spaces) in the search list"]


def test_searches_relaxed_and_strict() -> None:
    config = {"searches": ["_sip._tcp.example.com", ".", "example.com.", "Bad"]}
    assert _errors(config, relaxed=True) == {(f"{P}.searches[3]", "FieldValueInvalid")}
    assert _errors(config, release=32, relaxed=False) == {
        (f"{P}.searches[0]", "FieldValueInvalid"),
        (f"{P}.searches[1]", "FieldValueInvalid"),
        (f"{P}.searches[3]", "FieldValueInvalid"),
    }


def test_with_underscore_regex_named_by_release() -> None:
    def detail(release: int) -> str:
        return validate_pod_dns_config({"searches": ["-x"]}, "", P, release, True)[0].detail

    assert "_?[a-z0-9]" not in detail(33)
    assert "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?" in detail(34)


def test_relaxed_search_length_counts_bytes() -> None:
    """IsDNS1123SubdomainWithUnderscore's 253 is Go's len, bytes (apimachinery v0.37.2, run with
    Go 1.26): 130 `é` are 260 bytes, too long as well as not matching the regex."""
    errors = validate_pod_dns_config({"searches": ["\u00e9" * 130]}, "ClusterFirst", P, 37, True)
    assert [e.detail.split(" (")[0] for e in errors] == [
        "must be no more than 253 characters",
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', "
        "and must start and end with an alphanumeric character",
    ]


def test_empty_option_name() -> None:
    assert _errors({"options": [{"name": "ndots", "value": "2"}, {"value": "x"}]}) == {(f"{P}.options[1]", "FieldValueRequired")}


def test_relaxed_search_option() -> None:
    assert use_relaxed_dns_search_validation(33, None)
    assert not use_relaxed_dns_search_validation(32, None)
    assert not use_relaxed_dns_search_validation(32, {"dnsConfig": {"searches": ["a.b"]}})
    assert use_relaxed_dns_search_validation(32, {"dnsConfig": {"searches": ["a_b"]}})
    assert use_relaxed_dns_search_validation(32, {"dnsConfig": {"searches": ["."]}})
