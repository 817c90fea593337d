"""IP addresses as Kubernetes validation reads them: `ParseIPSloppy` (`k8s.io/utils/net`, Go 1.16's
`net.ParseIP`, which takes leading zeros as decimal) and apimachinery's `IsValidIP` /
`IsValidIPForLegacyField` (`pkg/util/validation/ip.go`), whose strict form (StrictIPCIDRValidation,
on from 1.36) also refuses what `netip.ParseAddr` refuses and IPv4-mapped IPv6 addresses.
Host aliases (`pod_env`) and DNS nameservers (`pod_dns`) are checked with it."""

from __future__ import annotations

from typing import Final

from jobmodel.api import field as fe
from jobmodel.api.field import FieldError

IP_FORMAT_ERROR: Final = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"


def is_valid_ip_for_legacy_field(path: str, value: str, strict: bool) -> list[FieldError]:
    """IsValidIPForLegacyField's parseIP (apimachinery `ip.go`): ParseIPSloppy, and with strict
    validation netip.ParseAddr's refusals (leading zeros) and IPv4-mapped IPv6."""
    parsed = parse_ip_sloppy(value)
    if parsed is None:
        return [fe.invalid(path, value, IP_FORMAT_ERROR)]
    if not strict:
        return []
    if not _netip_parses(value):
        return [fe.invalid(path, value, "must not have leading 0s")]
    if _is_ipv6_text(value) and parsed[:12] == bytes(10) + b"\xff\xff":
        return [fe.invalid(path, value, "must not be an IPv4-mapped IPv6 address")]
    return []


def _is_ipv6_text(value: str) -> bool:
    for c in value:
        if c in ".:":
            return c == ":"
    return False


def _netip_parses(value: str) -> bool:
    """Whether netip.ParseAddr takes what ParseIPSloppy took: no leading zeros in IPv4 octets, at
    most 4 digits in an IPv6 field."""
    head, _, tail = value.rpartition(":") if _is_ipv6_text(value) else ("", "", value)
    if head and any(len(group) > 4 for group in head.split(":")):
        return False
    if "." in tail:
        return not any(len(octet) > 1 and octet.startswith("0") for octet in tail.split("."))
    return len(tail) <= 4


def parse_ip_sloppy(value: str) -> bytes | None:
    """ParseIPSloppy (`k8s.io/utils/net`, Go 1.16's net.ParseIP): 16 bytes, or None."""
    if _is_ipv6_text(value):
        return _parse_ipv6(value)
    return _parse_ipv4(value) if "." in value else None


def _leading_number(s: str, base: int) -> tuple[int, int] | None:
    """dtoi/xtoi: the number at the start of `s` and its length (None without digits or from 0xFFFFFF)."""
    digits = "0123456789" if base == 10 else "0123456789abcdefABCDEF"
    n = i = 0
    while i < len(s) and s[i] in digits:
        n = n * base + int(s[i], base)
        if n >= 0xFFFFFF:
            return None
        i += 1
    return (n, i) if i else None


def _parse_ipv4(s: str) -> bytes | None:
    octets = bytearray()
    for i in range(4):
        if not s:
            return None
        if i > 0:
            if s[0] != ".":
                return None
            s = s[1:]
        number = _leading_number(s, 10)
        if number is None or number[0] > 0xFF:
            return None
        octets.append(number[0])
        s = s[number[1] :]
    return bytes(10) + b"\xff\xff" + bytes(octets) if not s else None


def _parse_ipv6(s: str) -> bytes | None:
    ip = bytearray(16)
    ellipsis = -1
    if s.startswith("::"):
        ellipsis, s = 0, s[2:]
        if not s:
            return bytes(ip)
    i = 0
    while i < 16:
        number = _leading_number(s, 16)
        if number is None or number[0] > 0xFFFF:
            return None
        n, c = number
        if c < len(s) and s[c] == ".":
            if (ellipsis < 0 and i != 12) or i + 4 > 16:
                return None
            ip4 = _parse_ipv4(s)
            if ip4 is None:
                return None
            ip[i : i + 4] = ip4[12:]
            i, s = i + 4, ""
            break
        ip[i], ip[i + 1] = n >> 8, n & 0xFF
        i, s = i + 2, s[c:]
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
        shift = 16 - i
        ip[ellipsis + shift : 16] = ip[ellipsis:i]
        ip[ellipsis : ellipsis + shift] = bytes(shift)
    elif ellipsis >= 0:
        return None
    return bytes(ip)
