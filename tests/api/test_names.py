"""The API server's generated names (jobmodel/api/names.py): names.SimpleNameGenerator."""

from __future__ import annotations

from jobmodel.api.names import (
    MAX_GENERATED_NAME_LENGTH,
    NAME_SUFFIX_ALPHABET,
    generate_name,
    name_generated_before_create,
)


def test_generated_name_is_the_prefix_and_five_characters() -> None:
    name = generate_name("job-", "seed")
    assert name.startswith("job-") and len(name) == len("job-") + 5
    assert all(c in NAME_SUFFIX_ALPHABET for c in name[4:])
    assert generate_name("job-", "seed") == name


def test_prefix_is_cut_to_58_bytes() -> None:
    """GenerateName's `base[:maxGeneratedNameLength]` cuts bytes (apiserver `storage/names`): 40 `é`
    (80 bytes) keep 29; Python's slice would keep all 40. A rune cut in two is dropped."""
    assert generate_name("a" * 70, "s")[:-5] == "a" * MAX_GENERATED_NAME_LENGTH
    assert generate_name("\u00e9" * 40, "s")[:-5] == "\u00e9" * 29
    assert generate_name("a" + "\u00e9" * 40, "s")[:-5] == "a" + "\u00e9" * 28


def test_only_a_generate_name_without_a_name_is_named() -> None:
    named = name_generated_before_create({"metadata": {"generateName": "x-"}}, "s")
    assert named["metadata"]["name"].startswith("x-")
    assert name_generated_before_create({"metadata": {"generateName": "x-", "name": "n"}}, "s")["metadata"]["name"] == "n"
