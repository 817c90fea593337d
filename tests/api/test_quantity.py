"""Quantities as apimachinery's resource package parses and prints them. The expected values are
Go's (ParseQuantity, String, Value, MilliValue, Format, RoundUp of k8s.io/apimachinery v0.37.2)."""

from __future__ import annotations

import copy
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from jobmodel.api.quantity import (
    ERR_FORMAT_WRONG,
    ERR_SUFFIX,
    ERR_TOO_LARGE,
    MAX_DIGITS,
    QuantityError,
    _remove_factors,
    decode_quantity,
    milli_value,
    parse_quantity,
    quantity_of,
    quantity_string,
    round_up,
    set_defaults_resource_list,
    value_of,
)
from jobmodel.errors import InputError

# text -> (String(), Value(), MilliValue(), Format), as Go prints them.
GO_ANSWERS = {
    ".": ("0", 0, 0, "DecimalSI"),
    "-": ("0", 0, 0, "DecimalSI"),
    "+1": ("+1", 1, 1000, "DecimalSI"),
    "1.": ("1.", 1, 1000, "DecimalSI"),
    "1.5": ("1500m", 2, 1500, "DecimalSI"),
    "1000m": ("1", 1, 1000, "DecimalSI"),
    "0.1n": ("1n", 1, 1, "DecimalSI"),
    "1e3": ("1e3", 1000, 1000000, "DecimalExponent"),
    "1E3": ("1E3", 1000, 1000000, "DecimalExponent"),
    "1.5Gi": ("1536Mi", 1610612736, 1610612736000, "BinarySI"),
    "8Ki": ("8Ki", 8192, 8192000, "BinarySI"),
    "1Ki": ("1Ki", 1024, 1024000, "BinarySI"),
    "16Ei": ("9223372036854775807", 9223372036854775807, -1000, "BinarySI"),
    "1000E": ("1", 0, 0, "DecimalSI"),
    "1024Mi": ("1Gi", 1073741824, 1073741824000, "BinarySI"),
    "0.5Ki": ("512", 512, 512000, "BinarySI"),
    "12345678901234567890": ("12345678901234567890", -6101065172474983726, 4807115922877858896, "DecimalSI"),
    "-100m": ("-100m", -1, -100, "DecimalSI"),
    "+001.e-12": ("1e-9", 1, 1, "DecimalExponent"),
    "100Ei": ("9223372036854775807", 9223372036854775807, -1000, "BinarySI"),
}


@pytest.mark.parametrize("text", sorted(GO_ANSWERS))
def test_parse_as_go(text: str) -> None:
    q = parse_quantity(text)
    assert (quantity_string(q), value_of(q), milli_value(q), q.format) == GO_ANSWERS[text]


@pytest.mark.parametrize(
    ("text", "error"),
    [("1Gb", ERR_FORMAT_WRONG), ("", ERR_FORMAT_WRONG), ("1.5.5", ERR_FORMAT_WRONG), ("1mi", ERR_SUFFIX), ("1K", ERR_SUFFIX), ("1e", ERR_SUFFIX),
     ("1e" + "1" * 5000, ERR_SUFFIX), ("1e1_0", ERR_FORMAT_WRONG), ("\u0663", ERR_FORMAT_WRONG)],
)  # fmt: skip
def test_refused_as_go(text: str, error: str) -> None:
    with pytest.raises(QuantityError, match=f"^{re.escape(error)}$"):
        parse_quantity(text)


def test_decoding_names_the_field_and_trims_spaces() -> None:
    with pytest.raises(InputError) as err:
        decode_quantity("1Gb", "spec.x[cpu]")
    assert err.value.field == "spec.x[cpu]"
    assert decode_quantity(" 1 ", "x") == "1"
    assert decode_quantity(1.5, "x") == "1500m"  # a JSON number is read as its text


def test_quantities_of_thousands_of_digits() -> None:
    """An inf.Dec has no limit on its digits (Go's String() of `1` * 5000 is itself, of the same
    with `m` too); int() and str() stop at 4300 digits."""
    assert quantity_string(parse_quantity("1" * 5000)) == "1" * 5000
    assert quantity_string(parse_quantity("1" * 5000 + "m")) == "1" * 5000 + "m"
    assert decode_quantity("1" * 5000 + "m", "x") == "1" * 5000 + "m"


def test_round_up_to_milli_units() -> None:
    # SetDefaults_ResourceList: RoundUp(-3) away from zero; a coarse int64 amount keeps its string.
    assert quantity_string(round_up(parse_quantity("1n"), -3)) == "1m"
    assert quantity_string(round_up(parse_quantity("-1n"), -3)) == "-1m"
    assert quantity_string(round_up(parse_quantity("+1"), -3)) == "+1"
    assert quantity_string(round_up(parse_quantity("1.0000001Gi"), -3)) == "1073741931375m"
    assert quantity_string(round_up(parse_quantity("1e-12"), -3)) == "1e-3"


def test_a_decoded_quantity_is_validated_by_its_value_not_its_written_text() -> None:
    """DecimalSI has no suffix for 10^21: Go writes 1e21 as "1" (CanonicalizeBytes finds no
    suffix), but validation reads the decoded Quantity, whose value is 1e21; and a 19-digit
    integer decoded as an inf.Dec keeps the representation its MilliValue wraps by."""
    huge = decode_quantity("1000000000000000000000", "q")
    assert huge == "1"
    assert quantity_of(huge, "q").value == 10**21
    wide = decode_quantity("1000000000000000000", "q")
    assert quantity_of(wide, "q") == parse_quantity("1000000000000000000")
    assert quantity_of(wide, "q") != parse_quantity(str(wide))  # "1E" parses as an int64Amount
    limits = {"memory": huge}
    set_defaults_resource_list(limits)  # SetDefaults_ResourceList rounds the Quantity itself
    assert limits["memory"] == "1" and quantity_of(limits["memory"], "m").value == 10**21
    copied = copy.deepcopy(limits)  # the strategies deep-copy objects: the value goes along
    assert quantity_of(copied["memory"], "m").value == 10**21


@pytest.mark.parametrize(
    ("text", "string"),
    [("1e-100000000", "1e-9"), ("1e-2147483648", "1e-9"), ("0." + "0" * 500_000 + "1", "1n"),
     ("1." + "0" * 500_000, "1"), ("0." + "0" * 500_000, "0"), ("-0." + "0" * 500_000 + "1", "-1n"),
     ("1" + "0" * 50_000 + "1e-99999", "1e-9"), ("0e100000000", "0"), ("0" * 30 + "e100000000", "0"),
     ("0." + "0" * 30 + "e100000000", "0"), ("7e" + str(MAX_DIGITS - 2), "700e" + str(MAX_DIGITS - 4))],
)  # fmt: skip
def test_far_exponents_and_long_zeros_are_read_as_go_reads_them(text: str, string: str) -> None:
    """Go rounds whatever is below a nano unit up to one (1e-100000000 is 1e-9) and reads long
    runs of zeros as the value they spell; the model does so without expanding 10^n."""
    assert quantity_string(parse_quantity(text)) == string


@pytest.mark.parametrize(
    "text",
    ["1e100000000", "1e2147483647", "9" * 900_000, "1" + "0" * MAX_DIGITS, "99999999999999999999e" + str(MAX_DIGITS),
     f"1e{MAX_DIGITS}"],
)  # fmt: skip
def test_a_quantity_beyond_the_models_bound_is_refused_with_its_field(text: str) -> None:
    """Go would expand these to 10^n of at least MAX_DIGITS digits (String(), Cmp, the sums of
    validation): the model refuses them, naming the field, instead of taking minutes."""
    with pytest.raises(InputError) as err:
        decode_quantity(text, "spec.x[cpu]")
    assert (err.value.field, err.value.reason) == ("spec.x[cpu]", ERR_TOO_LARGE)


def _remove_factors_one_by_one(value: int, base: int) -> tuple[int, int]:
    times, magnitude = 0, abs(value)
    while magnitude >= base and magnitude % base == 0:
        magnitude //= base
        times += 1
    return (-magnitude if value < 0 else magnitude), times


@given(
    st.integers(-(10**6), 10**6), st.sampled_from([10, 1024]), st.integers(0, 70), st.sampled_from([1, 3, 7, 9, 1023])
)
@example(0, 10, 5, 1)
@example(-1, 1024, 64, 1023)
def test_removing_factors_by_powers_is_removing_them_one_by_one(value: int, base: int, power: int, odd: int) -> None:
    number = value * odd * base**power
    assert _remove_factors(number, base) == _remove_factors_one_by_one(number, base)
