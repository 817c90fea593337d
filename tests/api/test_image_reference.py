"""Image references as ParseImageName reads them (the tag picks the default imagePullPolicy)."""

from __future__ import annotations

import pytest

from jobmodel.api.image_reference import (
    InvalidReference,
    parse_image_name,
    parse_normalized_named,
    split_docker_domain,
)

SHA = "sha256:" + "a" * 64


@pytest.mark.parametrize(
    ("image", "tag"),
    [
        ("busybox", "latest"),
        ("busybox:1.36", "1.36"),
        ("registry:5000/busybox", "latest"),
        ("localhost/x:v1", "v1"),
        (f"busybox@{SHA}", ""),
        (f"busybox:latest@{SHA}", "latest"),
        # Does not parse: the error is ignored and the tag is empty (so IfNotPresent).
        ("", ""),
        (" busybox", ""),
        ("Busybox", ""),
        ("busybox@sha256:abc", ""),
        ("busybox:latest@sha256:abc", ""),
        ("a" * 64, ""),
        ("x/" + "a" * 256, ""),
    ],
)
def test_parse_image_name_tag(image: str, tag: str) -> None:
    assert parse_image_name(image) == tag


def test_split_docker_domain() -> None:
    assert split_docker_domain("busybox") == ("docker.io", "library/busybox")
    assert split_docker_domain("user/app") == ("docker.io", "user/app")
    assert split_docker_domain("index.docker.io/app") == ("docker.io", "library/app")
    assert split_docker_domain("example.com/app") == ("example.com", "app")
    assert split_docker_domain("Upper/app") == ("Upper", "app")


def test_uppercase_repository_is_an_error() -> None:
    with pytest.raises(InvalidReference, match="repository name must be lowercase"):
        parse_normalized_named("example.com/App")


# What upstream's ParseNormalizedNamed (github.com/distribution/reference v0.6.0 over
# github.com/opencontainers/go-digest v1.0.0, the versions in the Go module cache) answers for each
# image, found by running it: the pattern is the part of its error the model words the same
# (upstream also names the repository: "invalid reference format: repository name (App) must be
# lowercase", "invalid repository name (aaa...), cannot specify 64-byte hexadecimal strings").
@pytest.mark.parametrize(
    ("image", "upstream"),
    [
        ("", "^invalid reference format$"),  # not ErrNameEmpty: the name is docker.io/library/
        (" busybox", "^invalid reference format$"),
        ("busybox@sha256:abc", "^invalid reference format$"),  # a digest under 32 hex digits
        ("x/" + "a" * 256, "^repository name must not be more than 255 characters$"),
        ("a" * 64, "cannot specify 64-byte hexadecimal strings$"),
        ("example.com/App", "must be lowercase$"),
        ("Busybox", "must be lowercase$"),
    ],
)
def test_a_reference_that_does_not_parse_says_why(image: str, upstream: str) -> None:
    with pytest.raises(InvalidReference, match=upstream):
        parse_normalized_named(image)
    assert parse_image_name(image) == ""


# go-digest v1.0.0 refuses these digests with "invalid checksum digest length", "invalid checksum
# digest format" and "unsupported digest algorithm" (digest.go's Validate, algorithm.go's
# Validate); the model reports each as "invalid digest '<digest>'".
@pytest.mark.parametrize(
    "digest",
    ["sha256:" + "a" * 32, "sha256:" + "A" * 64, "md5:" + "a" * 32],
    ids=["length", "uppercase hex", "unsupported algorithm"],
)
def test_a_bad_digest_is_an_error(digest: str) -> None:
    with pytest.raises(InvalidReference, match=f"digest '{digest}'$"):
        parse_normalized_named(f"busybox@{digest}")
    assert parse_image_name(f"busybox@{digest}") == ""
