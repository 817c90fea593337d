"""Container image references as upstream's defaulting reads them: `parsers.ParseImageName`
(pkg/util/parsers) over `reference.ParseNormalizedNamed` (github.com/distribution/reference v0.6.0,
with go-digest's sha256/sha384/sha512). Only the tag matters to the model: it picks the default
`imagePullPolicy`."""

from __future__ import annotations

import re
from typing import Final

from jobmodel.util.gostrings import go_to_lower

_ALNUM: Final = r"[a-z0-9]+"
_SEPARATOR: Final = r"(?:[._]|__|[-]+)"
_DOMAIN_COMPONENT: Final = r"(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
_HOST: Final = rf"(?:{_DOMAIN_COMPONENT}(?:\.{_DOMAIN_COMPONENT})*|\[(?:[a-fA-F0-9:]+)\])"
_DOMAIN_AND_PORT: Final = rf"{_HOST}(?::[0-9]+)?"
_PATH_COMPONENT: Final = rf"{_ALNUM}(?:{_SEPARATOR}{_ALNUM})*"
_REMOTE_NAME: Final = rf"{_PATH_COMPONENT}(?:/{_PATH_COMPONENT})*"
_NAME: Final = rf"(?:{_DOMAIN_AND_PORT}/)?{_REMOTE_NAME}"
_TAG: Final = r"[\w][\w.-]{0,127}"
_DIGEST: Final = r"[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}"
_REFERENCE_RE: Final = re.compile(rf"({_NAME})(?::({_TAG}))?(?:@({_DIGEST}))?", re.ASCII)
_ANCHORED_NAME_RE: Final = re.compile(rf"(?:({_DOMAIN_AND_PORT})/)?({_REMOTE_NAME})", re.ASCII)
_IDENTIFIER_RE: Final = re.compile(r"[a-f0-9]{64}")
# go-digest's registered algorithms (the parsers package imports sha256 and sha512) and hex lengths.
_DIGEST_HEX: Final = {"sha256": 64, "sha384": 96, "sha512": 128}
REPOSITORY_NAME_TOTAL_LENGTH_MAX: Final = 255
DEFAULT_DOMAIN: Final = "docker.io"
LEGACY_DEFAULT_DOMAIN: Final = "index.docker.io"
OFFICIAL_REPO_PREFIX: Final = "library/"


class InvalidReference(ValueError):
    """The reference does not parse (the Go function returns an error)."""


def split_docker_domain(name: str) -> tuple[str, str]:
    """splitDockerDomain: the registry domain and the remote name."""
    maybe_domain, sep, maybe_remote = name.partition("/")
    if not sep:
        return DEFAULT_DOMAIN, OFFICIAL_REPO_PREFIX + name
    if maybe_domain == "localhost":
        domain, remote = maybe_domain, maybe_remote
    elif maybe_domain == LEGACY_DEFAULT_DOMAIN:
        domain, remote = DEFAULT_DOMAIN, maybe_remote
    elif "." in maybe_domain or ":" in maybe_domain or go_to_lower(maybe_domain) != maybe_domain:
        domain, remote = maybe_domain, maybe_remote
    else:
        domain, remote = DEFAULT_DOMAIN, name
    if domain == DEFAULT_DOMAIN and "/" not in remote:
        remote = OFFICIAL_REPO_PREFIX + remote
    return domain, remote


def _validate_digest(digest: str) -> None:
    """digest.Parse: a registered algorithm and an encoded part of its length, lowercase hex."""
    algorithm, _, encoded = digest.partition(":")
    length = _DIGEST_HEX.get(algorithm)
    if length is None or len(encoded) != length or not re.fullmatch(r"[a-f0-9]+", encoded):
        raise InvalidReference(f"invalid digest {digest!r}")


def parse(reference: str) -> tuple[str, str]:
    """reference.Parse: (tag, digest) of a full reference; raises InvalidReference."""
    matches = _REFERENCE_RE.fullmatch(reference)
    if matches is None:
        raise InvalidReference("invalid reference format")
    name_match = _ANCHORED_NAME_RE.fullmatch(matches.group(1))
    path = name_match.group(2) if name_match else matches.group(1)
    if len(path) > REPOSITORY_NAME_TOTAL_LENGTH_MAX:
        raise InvalidReference("repository name must not be more than 255 characters")
    digest = matches.group(3) or ""
    if digest:
        _validate_digest(digest)
    return matches.group(2) or "", digest


def parse_normalized_named(image: str) -> tuple[str, str]:
    """ParseNormalizedNamed: (tag, digest) of an image name as users write it."""
    if _IDENTIFIER_RE.fullmatch(image):
        raise InvalidReference("cannot specify 64-byte hexadecimal strings")
    domain, remainder = split_docker_domain(image)
    remote = remainder.split(":", 1)[0]
    if go_to_lower(remote) != remote:
        raise InvalidReference("repository name must be lowercase")
    return parse(f"{domain}/{remainder}")


def parse_image_name(image: str) -> str:
    """ParseImageName's tag: `latest` when neither a tag nor a digest is given, "" when the name
    does not parse (SetDefaults_Container ignores the error)."""
    try:
        tag, digest = parse_normalized_named(image)
    except InvalidReference:
        return ""
    return "latest" if not tag and not digest else tag
