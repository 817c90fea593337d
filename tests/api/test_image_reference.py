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
