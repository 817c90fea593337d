"""IP addresses as Kubernetes validation reads them: `ParseIPSloppy` (`k8s.io/utils/net`, Go 1.16's
`net.ParseIP`, which takes leading zeros as decimal) and apimachinery's `IsValidIP` /
`IsValidIPForLegacyField` (`pkg/util/validation/ip.go`), whose strict form (StrictIPCIDRValidation,
on from 1.36) also refuses what `netip.ParseAddr` refuses and IPv4-mapped IPv6 addresses.
Host aliases (`pod_env`) and DNS nameservers (`pod_dns`) are checked with it."""

from __future__ import annotations

from typing import Final

from jobmodel.api import field as fe
from jobmodel.api.field import FieldError
from jobmodel.util.goquote import go_quote

STRICT_IP_RELEASE: Final = 36  # StrictIPCIDRValidation on by default
V4_IN_V6_PREFIX: Final = bytes(10) + b"\xff\xff"  # an IPv4 address in its 16-byte form
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
    if _is_ipv4_mapped_ipv6(value, parsed):
        return [fe.invalid(path, value, "must not be an IPv4-mapped IPv6 address")]
    return []


def _is_ipv4_mapped_ipv6(value: str, parsed: bytes) -> bool:
    """An address written in IPv6 form that holds an IPv4 one (netip's Is4In6)."""
    return _is_ipv6_text(value) and parsed[:12] == V4_IN_V6_PREFIX


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
    return V4_IN_V6_PREFIX + bytes(octets) if not s else None


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


def ip_string(ip: bytes) -> str:
    """net.IP.String (and netip.Addr.String for an IPv6 address that is no IPv4-mapped one): an
    IPv4 or IPv4-mapped address dotted, else RFC 5952 (lowercase, `::` for the first longest run
    of at least two zero groups)."""
    if ip[:12] == V4_IN_V6_PREFIX:
        return ".".join(str(b) for b in ip[12:])
    groups = [ip[i] << 8 | ip[i + 1] for i in range(0, 16, 2)]
    start, length = -1, 1
    i = 0
    while i < 8:
        j = i
        while j < 8 and groups[j] == 0:
            j += 1
        if j - i > length:
            start, length = i, j - i
        i = j + 1
    if start < 0:
        return ":".join(f"{g:x}" for g in groups)
    head = ":".join(f"{g:x}" for g in groups[:start])
    tail = ":".join(f"{g:x}" for g in groups[start + length :])
    return f"{head}::{tail}"


def get_warnings_for_ip(path: str, value: str, release: int) -> list[str]:
    """GetWarningsForIP (apimachinery `ip.go`, from 1.33): an address ParseIPSloppy takes but
    netip.ParseAddr refuses (leading zeros) or an IPv4-mapped IPv6 one (from 1.36, when strict
    validation refuses them, said to be invalid now), and an IPv6 address not in its canonical
    form."""
    parsed = parse_ip_sloppy(value)
    if parsed is None:  # upstream logs it: validation should have refused it
        return []
    if not _netip_parses(value) or _is_ipv4_mapped_ipv6(value, parsed):
        verdict = "is invalid" if release >= STRICT_IP_RELEASE else "will be considered invalid in a future Kubernetes release"
        return [f"{path}: non-standard IP address {go_quote(value)} {verdict}: use {go_quote(ip_string(parsed))}"]
    canonical = ip_string(parsed)
    if _is_ipv6_text(value) and canonical != value:
        return [f"{path}: IPv6 address {go_quote(value)} should be in RFC 5952 canonical format ({go_quote(canonical)})"]
    return []
