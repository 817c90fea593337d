"""The manifest reader (jobmodel/adapters/manifests.py `manifest_documents`) against kubectl's own
(the harness's `--manifests`, harness/upstream/manifests.go: apimachinery's YAMLOrJSONDecoder
into a RawExtension, through go-yaml v2 and sigs.k8s.io/yaml), on generated YAML and JSON
manifests full of scalars that YAML 1.1, YAML 1.2 and Go read differently: the same documents,
the same JSON values, and each number written as the same JSON text."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import currently_in_test_context, event, example, given, settings
from hypothesis import strategies as st

from jobmodel.adapters.manifests import manifest_documents, parse_json
from jobmodel.adapters.upstream import build_harness, harness_environment
from jobmodel.errors import InputError
from jobmodel.features import parse_kube_version
from tests.differential.conftest import differential_releases

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"

# Plain scalars whose reading differs between YAML 1.1 (PyYAML), YAML 1.2 and go-yaml v2.
TRICKY = (
    "y", "Y", "n", "N", "yes", "No", "on", "OFF", "true", "False", "~", "null", "Null", "NULL",
    "=", "<<x", "1:20", "190:20:30", "0o17", "0O17", "017", "08", "0x1F", "0X1f", "0x_1F", "0b101",
    "-0b101", "0b-1", "+0b1", "1_000", "1__0", "_1", "1_", "+685_230", "1e3", "1E3", "1e+3", "1.e3",
    "1.0", "-0", "-0.0", "+1", ".5", "-.5", "+.5", "._5", ".5_5", ".5e1_0", "5.", ".", "..", ".e3",
    ".inf", ".Inf", "-.INF", "+.inf", ".nan", ".NaN", "inf", "nan", "Infinity", "0x1p-2", "1e400",
    "1e-400", "1e21", "1e20", "1e-6", "1e-7", "123456789012345678901", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
    "18446744073709551616", "2024-01-01", "2024-1-1", "2024-06-01T12:00:00Z", "2024-06-01 12:00:00",
    "2001-12-14t21:59:43.10-05:00", "12:30", "0.1", "3.14159265358979323846", "100m", "1Gi", "0.5",
    "1_0.5", "0.000001", "0.0000001", "1e6", "1234567", "١", "²", "x", "",
)  # fmt: skip
TAGS = ("!!str", "!!int", "!!float", "!!bool", "!!null", "!!timestamp", "!foo", "!!foo")
# Double-quoted escapes go-yaml and PyYAML read differently (`\/`, `\'`) or refuse (surrogates).
ESCAPED = ('"\\/"', '"\\\'"', '"\\ud800"', '"\\U0010FFFF"', '"\\U00110000"', '"\\x41\\e\\N"', '"\\x4"')
TIMESTAMPS = ("!!timestamp 2024-02-30", "!!timestamp 2024-01-01T00:00:00", "!!timestamp 2024-1-1T1:2:3.5+24:60", "!!timestamp 2024-01-01  1:2:3")
TAGGED = ("!!binary aGVsbG8=", "!!binary /w==", "!!binary x", "!!set {x, y}", "!!omap [x: 1, y: 2]", "!!pairs [a: 1]", "!!map {b: 1}")
KEY_WORDS = ("a", "b", "kind", "y", "n", "1", "1.5", "1e3", "0.1", "1e6", "1234567", "-0.0", "~", "on", "2024-01-01")


def plain_numbers() -> st.SearchStrategy[str]:
    """Integers in Go's bases (with `_`), and decimal floats with exponents."""
    integers = st.builds(
        lambda sign, prefix, digits, cut: sign + prefix + (digits[:cut] + "_" + digits[cut:] if cut else digits),
        st.sampled_from(("", "-", "+")),
        st.sampled_from(("", "0", "0x", "0o", "0b", "0X")),
        st.text("0123456789abcdef", min_size=1, max_size=22),
        st.integers(0, 3),
    )
    floats = st.floats(allow_nan=False, allow_infinity=False).map(repr) | st.builds(
        lambda m, e: f"{m}e{e}", st.integers(-10**20, 10**20), st.integers(-330, 330)
    )
    return integers | floats


def scalars() -> st.SearchStrategy[str]:
    """A scalar as written in YAML: plain, or quoted (a string whatever it spells)."""
    plain = st.sampled_from(TRICKY) | plain_numbers()
    tagged = st.builds(lambda tag, s: f"{tag} {s}", st.sampled_from(TAGS), plain.filter(bool))
    return plain | plain.map(lambda s: json.dumps(s)) | plain.map(lambda s: "'" + s + "'") | tagged | st.sampled_from(TAGGED + ESCAPED + TIMESTAMPS)


def keys() -> st.SearchStrategy[str]:
    return st.sampled_from(KEY_WORDS) | plain_numbers().map(lambda s: s.lstrip("-") or "0")


# Blanks between tokens and inside plain scalars: go-yaml reads a tab as a blank where it cannot
# be indentation, PyYAML nowhere.
BLANKS = (" ", " ", " ", "\t", " \t", "\t ")
BLOCK_SCALARS = ("|", ">", "|-", ">+", "|2", "|\t# c", ">-\t", "|#c", "|x")


@st.composite
def yaml_manifests(draw: st.DrawFn) -> str:
    """One or more YAML documents: block mappings of drawn keys to scalars, flow lists, nested
    mappings and block scalars, with spaces or tabs as blanks, and comments."""
    documents = []
    blank = st.sampled_from(BLANKS)
    for _ in range(draw(st.integers(1, 3))):
        lines = []
        for key in draw(st.lists(keys(), min_size=1, max_size=6, unique=True)):
            shape = draw(st.sampled_from(("scalar", "scalar", "words", "flow", "nested", "block")))
            if shape == "scalar":
                lines.append(f"{key}:{draw(blank)}{draw(scalars())}")
            elif shape == "words":
                # A plain scalar of several words, or folded over lines (whose indentation may
                # hold a tab, which go-yaml refuses where it is indentation).
                words = draw(st.lists(st.sampled_from(TRICKY).filter(bool), min_size=2, max_size=3))
                joins = [draw(st.sampled_from((*BLANKS, "\n  ", "\n\n  ", "\n \t", "\n  \t"))) for _ in words[1:]]
                text = words[0] + "".join(j + w for j, w in zip(joins, words[1:], strict=True))
                lines.append(f"{key}:{draw(blank)}{text}{draw(st.sampled_from(('', ' # c', chr(9) + '# c', chr(9))))}")
            elif shape == "flow":
                lines.append(f"{key}:{draw(blank)}[{(',' + draw(blank)).join(draw(st.lists(scalars(), max_size=4)))}]")
            elif shape == "block":
                body = draw(st.lists(st.sampled_from(TRICKY), min_size=1, max_size=3))
                indent = draw(st.sampled_from(("  ", "   ", " \t")))
                lines.append(f"{key}: {draw(st.sampled_from(BLOCK_SCALARS))}")
                lines.extend(indent + line for line in body)
            else:
                inner = draw(st.lists(st.tuples(keys(), scalars()), min_size=1, max_size=3, unique_by=lambda kv: kv[0]))
                lines.append(f"{key}:")
                lines.extend(f"  {k}:{draw(blank)}{v}" for k, v in inner)
        documents.append("\n".join(lines) + "\n")
    separator = draw(st.sampled_from(("---\n", "---\n", "--- # c\n", "--- a: 1\n", "----\n", "...\n---\n", "\n---\n\n")))
    return separator.join(documents)


JSON_NUMBERS = (
    "1E3", "1e3", "-0", "0.1000000000000000000001", "1e-7", "12345678901234567890", "1.5", "100", "2e+2", "0.0", "-1",
    "NaN", "-Infinity", "1e", "1.",
)  # fmt: skip


@st.composite
def json_manifests(draw: st.DrawFn) -> str:
    """A stream of one or more JSON objects whose numbers are written in several ways."""
    objects = []
    for _ in range(draw(st.integers(1, 2))):
        members = draw(st.lists(st.tuples(st.sampled_from(KEY_WORDS), st.sampled_from(JSON_NUMBERS) | scalars().map(json.dumps)), max_size=5, unique_by=lambda kv: kv[0]))
        objects.append("{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in members) + "}")
    between = draw(st.sampled_from(("\n", " ", "", "\n---\n", "\n\n  ", "\n---\nx: 1\n", "\nkind: y\n", "x")))
    return between.join(objects) + draw(st.sampled_from(("\n", "", "\n---\nb: 1e3\n", "\n{a: 1}\n")))


class Kubectl:
    """The harness of one release answering `--manifests` lines."""

    def __init__(self, release: str) -> None:
        self.minor = parse_kube_version(release)
        self.process = subprocess.Popen(
            [str(build_harness(release)), "--manifests"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=harness_environment(),
        )

    def documents(self, text: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"text": text}) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        self.process.communicate(timeout=60)


@pytest.fixture(scope="module", params=differential_releases())
def kubectl(request: pytest.FixtureRequest) -> Iterator[Kubectl]:
    if shutil.which("go") is None and os.environ.get("CI") != "true":
        pytest.skip("Go is not installed: the upstream harness cannot be built")
    reader = Kubectl(str(request.param))
    yield reader
    reader.close()


def canonical(value: Any) -> Any:
    """A JSON value with each number as its JSON text (what Quantity and the int decoders read)."""
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    literal = getattr(value, "literal", None)
    return ("number", literal if literal is not None else json.dumps(value))


def _event(name: str) -> None:
    if currently_in_test_context():
        event(name)


def _check(kubectl: Kubectl, text: str) -> None:
    answer = kubectl.documents(text)
    try:
        model = [d for d in manifest_documents("m", text, kubectl.minor) if d is not None]
    except InputError as err:
        _event(f"model refuses: {str(err).split(':')[1].strip()[:30]}")
        if "duplicate field" in str(err):
            return  # a key given twice is refused by design (the strict decoder), not last-one-wins
        assert answer.get("error"), f"the model refuses {text!r} ({err}); kubectl reads {answer['documents']}"
        return
    assert not answer.get("error"), f"kubectl refuses {text!r} ({answer['error']}); the model reads {model}"
    _event("both read it")
    upstream = [canonical(parse_json("kubectl", d, wide_numbers=True)) for d in answer["documents"]]
    assert [canonical(d) for d in model] == upstream, text


EXAMPLES = 3000 if LONG else 400


@settings(max_examples=EXAMPLES)
@given(yaml_manifests())
@example("a: y\nb: n\nc: 1:20\nd: 0o17\ne: 1e3\nf: =\ng: 08\nh: 1.0\ni: 2024-06-01T12:00:00+02:00\n")
@example("1e6: a\n1234567: b\n0.1: c\n-0.0: d\n")
@example("a: 1e-7\nb: 18446744073709551616\nc: 1e400\nd: 0b-1\ne: .5_5\nf: ._5\n")
@example("a: !!float 18446744073709551615\n")  # a uint64: go-yaml refuses it as a float
@example("a: &b x\nc: &b y\nd: *b\n")  # an anchor given again
@example("x: &x {a: 1}\nz:\n  a: 3\n  <<: [*x, {a: 2}]\n  b: 1\n  <<: {b: 2}\n")  # merges where they stand
def test_yaml_manifests_read_as_kubectl_reads_them(kubectl: Kubectl, text: str) -> None:
    _check(kubectl, text)


# Pieces of YAML's syntax, for texts that no structure constrains (what scanners disagree on).
PIECES = (
    "a", "b1", "y", "1", "0x1", "1e3", " ", "  ", "\t", "\n", "\n  ", ": ", ":", "- ", "-", "#", " #", "[", "]", "{", "}", ",",
    ", ", "|", ">", "+", "2", "!", "!!str ", "!!int ", "!!float ", "!foo ", "&x ", "*x", "'", '"', "\\", "\\t", "\\x41",
    "? ", "---", "...", "<<: ", "~", "\r\n", "\r", "%YAML 1.1\n", "\u00e9", "\u2028", "\x85", "\ufeff",
)  # fmt: skip


@settings(max_examples=EXAMPLES)
@given(st.lists(st.sampled_from(PIECES), max_size=16).map("".join).filter(lambda t: not t.startswith("\ufeff\ufeff")))
@example("! <<: ")
@example(">\n  >\n  >2")
@example("\ufeff#\t}\t\n\ufeff #a\n#!!str a~")
@example("!~!!!")
def test_texts_of_yaml_s_pieces_read_as_kubectl_reads_them(kubectl: Kubectl, text: str) -> None:
    """Texts of YAML's indicators, blanks, breaks and marks in any order; two byte order marks
    at the start are left out (docs/validation.md: go-yaml then drops the first character of
    every line)."""
    _check(kubectl, text)


@settings(max_examples=EXAMPLES)
@given(json_manifests())
@example('{"cpu": 1E3, "b": 0.1000000000000000000001}\n{"c": -0}')
def test_json_manifests_read_as_kubectl_reads_them(kubectl: Kubectl, text: str) -> None:
    _check(kubectl, text)


@pytest.mark.parametrize(
    "text",
    [
        "~: 1\n", "a: .inf\n", "a: .nan\n", "a: 1\n\n{\"b\": 1E3}\n", "a: !!int x\n", "[1, 2", "a: 1\n--- b\n", '{"a": 1} {"b": 2} c',
        # control characters: go-yaml's reader and encoding/json refuse them as the model does
        "\x00\x01", "a: b\n---\nc: \x7f\n", '{"a": "\x01"}',
        # a uint64 (beyond int64) tagged as a float, as a key and in a list
        "!!float 18446744073709551615: x\n", "a: [!!float 0xFFFFFFFFFFFFFFFF]\n",
        # an alias inside its own anchor's node
        "&a [*a]", "a: &x\n  b: 1\n  <<: *x\n",
    ],
)
def test_what_kubectl_refuses_the_model_refuses(kubectl: Kubectl, text: str) -> None:
    assert kubectl.documents(text).get("error"), "the case no longer shows a refusal"
    with pytest.raises(InputError):
        manifest_documents("m", text, kubectl.minor)


@pytest.mark.parametrize("text", ['{"a": 1}\n---\nb: 2\n', "{a: 1}\n", '{"a": 1}\n  b: 2\n'])
def test_a_json_stream_goes_on_as_yaml_from_1_33(kubectl: Kubectl, text: str) -> None:
    """YAMLOrJSONDecoder of 1.33 on: JSON that fails at its first or second value is read on as
    YAML from the end of the last value read; 1.32 refuses it."""
    answer = kubectl.documents(text)
    assert bool(answer.get("error")) == (kubectl.minor < 33), answer
    _check(kubectl, text)
