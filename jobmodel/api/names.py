"""The API server's naming of objects created with only `metadata.generateName`
(`rest.BeforeCreate` with `names.SimpleNameGenerator`)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from jobmodel.util.gostrings import go_prefix

# utilrand's alphabet: no vowels, no 0, 1, 3 (so no words, no look-alikes).
NAME_SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
MAX_GENERATED_NAME_LENGTH = 58  # names.MaxGeneratedNameLength: 63 minus the 5 random characters


def generate_name(prefix: str, seed: str) -> str:
    """SimpleNameGenerator.GenerateName: the prefix (cut to 58 bytes, Go's `base[:58]`) and five
    characters; drawn from `seed` instead of at random, so that a simulation repeats."""
    digest = hashlib.sha256(seed.encode()).digest()
    suffix = "".join(NAME_SUFFIX_ALPHABET[b % len(NAME_SUFFIX_ALPHABET)] for b in digest[:5])
    return go_prefix(prefix, MAX_GENERATED_NAME_LENGTH) + suffix


def name_generated_before_create(obj: Mapping[str, Any], seed: str) -> dict[str, Any]:
    """rest.BeforeCreate: an object with a generateName and no name gets a generated name before
    it is validated; any other object is returned as it is."""
    meta = obj.get("metadata")
    if not isinstance(meta, Mapping):
        return dict(obj)
    prefix = meta.get("generateName")
    if meta.get("name") or not isinstance(prefix, str) or not prefix:
        return dict(obj)
    return {**obj, "metadata": {**meta, "name": generate_name(prefix, seed)}}
