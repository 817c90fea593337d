"""IP addresses as validation reads them (jobmodel/api/ip.py): ParseIPSloppy and the strict checks."""

from __future__ import annotations

import pytest

from jobmodel.api.ip import (
    get_warnings_for_ip,
    ip_string,
    is_valid_ip_for_legacy_field,
    parse_ip_sloppy,
)

V4 = bytes(10) + b"\xff\xff"  # an IPv4 address in its 16-byte form, as net.ParseIP gives it


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.2.3.4", V4 + bytes([1, 2, 3, 4])),
        ("001.002.003.004", V4 + bytes([1, 2, 3, 4])),  # Go's pre-1.17 parser: leading zeros are decimal
        ("::", bytes(16)),
        ("::1", bytes(15) + b"\x01"),
        ("::ffff:1.2.3.4", bytes(10) + b"\xff\xff\x01\x02\x03\x04"),
        ("1.2.3", None),
        ("1.2.3.256", None),
        ("1::2::3", None),
        ("1:2:3:4:5:6:7:8::", None),
        ("fe80::1%eth0", None),
        ("", None),
        ("x", None),
    ],
)
def test_parse_ip_sloppy(text: str, expected: bytes | None) -> None:
    assert parse_ip_sloppy(text) == expected


@pytest.mark.parametrize(
    ("text", "strict", "details"),
    [
        ("01.2.3.4", False, []),
        ("01.2.3.4", True, ["must not have leading 0s"]),
        ("00001::", True, ["must not have leading 0s"]),
        ("::ffff:1.2.3.4", True, ["must not be an IPv4-mapped IPv6 address"]),
        ("::ffff:1.2.3.4", False, []),
        ("1.2.3", True, ["must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"]),
        ("2001:db8::1", True, []),
    ],
)
def test_is_valid_ip_for_legacy_field(text: str, strict: bool, details: list[str]) -> None:
    assert [e.detail for e in is_valid_ip_for_legacy_field("p", text, strict)] == details


def test_parse_ip_sloppy_ipv6_forms() -> None:
    assert parse_ip_sloppy("::") == bytes(16)
    assert parse_ip_sloppy("::1.2.3.4") == bytes(12) + bytes([1, 2, 3, 4])
    assert parse_ip_sloppy("1:2:3:4:5:6:7:8") == bytes([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8])
    assert parse_ip_sloppy("1:2:3:4:5:6:7:8::") is None  # an ellipsis must stand for a group
    assert parse_ip_sloppy("001.2.3.4") == bytes(10) + b"\xff\xff" + bytes([1, 2, 3, 4])


@pytest.mark.parametrize(
    ("text", "expected"),
    [  # net.IP.String / netip.Addr.String, as Go 1.24 prints them
        ("::1.2.3.4", "::102:304"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),  # the first of two equal runs of zeros
        ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),  # the longest run
        ("0:0:0:0:0:0:0:1", "::1"),
        ("2001:DB8::1", "2001:db8::1"),
        ("::ffff:1.2.3.4", "1.2.3.4"),
        ("1:2:3:4:5:6:7:0", "1:2:3:4:5:6:7:0"),  # a single zero group is not shortened
        ("0:0:1:0:0:1:0:0", "::1:0:0:1:0:0"),
        ("010.001.0.1", "10.1.0.1"),
    ],
)
def test_ip_string(text: str, expected: str) -> None:
    parsed = parse_ip_sloppy(text)
    assert parsed is not None
    assert ip_string(parsed) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10.0.0.1", []),
        ("2001:db8::1", []),
        ("", []),  # not an address: validation refuses it, upstream only logs
        ("010.0.0.1", ['p: non-standard IP address "010.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"']),
        ("::ffff:10.0.0.1", ['p: non-standard IP address "::ffff:10.0.0.1" will be considered invalid in a future Kubernetes release: use "10.0.0.1"']),
        ("2001:DB8::1", ['p: IPv6 address "2001:DB8::1" should be in RFC 5952 canonical format ("2001:db8::1")']),
    ],
)
def test_get_warnings_for_ip(text: str, expected: list[str]) -> None:
    """GetWarningsForIP's three outcomes (apimachinery's TestGetWarningsForIP has the same kinds),
    at 1.35; from 1.36 (strict validation) a non-standard address "is invalid"."""
    assert get_warnings_for_ip("p", text, 35) == expected
    now = [w.replace("will be considered invalid in a future Kubernetes release", "is invalid") for w in expected]
    assert get_warnings_for_ip("p", text, 36) == now
