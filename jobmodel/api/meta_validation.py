"""Object metadata, names, labels and label selectors, as apimachinery validates them
(`k8s.io/apimachinery/pkg/util/validation`, `pkg/api/validation`, `pkg/apis/meta/v1/validation`).

Everything works on plain JSON dicts in wire format; types are checked beforehand by
`jobmodel.api.schema`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any, Final

from jobmodel.api import field as fe
from jobmodel.api.equality import semantic_equal
from jobmodel.api.field import FieldError
from jobmodel.api.wire import label_selector_from_json
from jobmodel.errors import InputError
from jobmodel.features import NEWEST_MINOR
from jobmodel.state import selector_matches
from jobmodel.timeutil import UNIX_EPOCH, format_time, is_zero, parse_time_nanos
from jobmodel.util.goquote import go_quote
from jobmodel.util.gostrings import go_is_print, go_len, go_prefix_as_written, go_to_lower

IS_NEGATIVE_ERROR_MSG: Final = "must be greater than or equal to 0"
FIELD_IMMUTABLE_ERROR_MSG: Final = "field is immutable"

_DNS1123_LABEL_FMT: Final = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT: Final = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1035_LABEL_FMT: Final = "[a-z]([-a-z0-9]*[a-z0-9])?"
_QNAME_CHAR_FMT: Final = "[A-Za-z0-9]"
_QUALIFIED_NAME_FMT: Final = "(" + _QNAME_CHAR_FMT + "[-A-Za-z0-9_.]*)?" + _QNAME_CHAR_FMT
_LABEL_VALUE_FMT: Final = "(" + _QUALIFIED_NAME_FMT + ")?"
_HTTP_PATH_FMT: Final = r"[A-Za-z0-9/\-._~%!$&'()*+,;=:]+"

_DNS1123_LABEL_RE: Final = re.compile(_DNS1123_LABEL_FMT)
_DNS1123_SUBDOMAIN_RE: Final = re.compile(_DNS1123_SUBDOMAIN_FMT)
_DNS1035_LABEL_RE: Final = re.compile(_DNS1035_LABEL_FMT)
_QUALIFIED_NAME_RE: Final = re.compile(_QUALIFIED_NAME_FMT)
_LABEL_VALUE_RE: Final = re.compile(_LABEL_VALUE_FMT)
_HTTP_PATH_RE: Final = re.compile(_HTTP_PATH_FMT)

DNS1123_LABEL_MAX_LENGTH: Final = 63
DNS1123_SUBDOMAIN_MAX_LENGTH: Final = 253
DNS1035_LABEL_MAX_LENGTH: Final = 63
TOTAL_ANNOTATION_SIZE_LIMIT: Final = 256 * 1024


def _full(pattern: re.Pattern[str], value: str) -> bool:
    # Go's regexp `^...$` anchors; fullmatch also refuses a trailing newline, as Go does.
    return pattern.fullmatch(value) is not None


def max_len_error(length: int) -> str:
    """MaxLenError (pkg/util/validation)."""
    return f"must be no more than {length} characters"


def content_max_len_error(length: int) -> str:
    """content.MaxLenError (apimachinery `pkg/api/validate/content/errors.go`, 1.35+): bytes."""
    return f"must be no more than {length} bytes"


def label_max_len_error(length: int, release: int) -> str:
    """The length message of label keys and values: from 1.35 they are checked by
    `content.IsLabelKey`/`IsLabelValue`, which count bytes."""
    return content_max_len_error(length) if release >= 35 else max_len_error(length)


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """RegexError."""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    shown = " or ".join(f"'{e}', " for e in examples)
    return f"{msg} (e.g. {shown}regex used for validation is '{fmt}')"


def is_dns1123_label(value: str) -> list[str]:
    """IsDNS1123Label."""
    errs: list[str] = []
    if go_len(value) > DNS1123_LABEL_MAX_LENGTH:
        errs.append(max_len_error(DNS1123_LABEL_MAX_LENGTH))
    if not _full(_DNS1123_LABEL_RE, value):
        if _full(_DNS1123_SUBDOMAIN_RE, value):
            errs.append("must not contain dots")
        else:
            errs.append(
                regex_error(
                    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                    "and must start and end with an alphanumeric character",
                    _DNS1123_LABEL_FMT,
                    "my-name",
                    "123-abc",
                )
            )
    return errs


def _length_and_format(
    value: str, max_length: int, pattern: re.Pattern[str], message: str, fmt: str, *examples: str, too_long: str = ""
) -> list[str]:
    """The two checks of a name format: at most `max_length` characters (`too_long` words the
    error, MaxLenError's by default), and the whole value matching."""
    errs = [too_long or max_len_error(max_length)] if go_len(value) > max_length else []
    if not _full(pattern, value):
        errs.append(regex_error(message, fmt, *examples))
    return errs


def is_dns1123_subdomain(value: str, too_long: str = "") -> list[str]:
    """IsDNS1123Subdomain (`too_long`: content.IsDNS1123Subdomain's byte wording, 1.35+)."""
    return _length_and_format(
        value,
        DNS1123_SUBDOMAIN_MAX_LENGTH,
        _DNS1123_SUBDOMAIN_RE,
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
        "and must start and end with an alphanumeric character",
        _DNS1123_SUBDOMAIN_FMT,
        "example.com",
        too_long=too_long,
    )


def is_dns1035_label(value: str) -> list[str]:
    """IsDNS1035Label."""
    return _length_and_format(
        value,
        DNS1035_LABEL_MAX_LENGTH,
        _DNS1035_LABEL_RE,
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
        "alphabetic character, and end with an alphanumeric character",
        _DNS1035_LABEL_FMT,
        "my-name",
        "abc-123",
    )


_QNAME_MSG: Final = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"


def is_qualified_name(value: str, release: int = NEWEST_MINOR) -> list[str]:
    """IsQualifiedName: an optional DNS-subdomain prefix and '/', then a name of at most 63
    characters. From 1.35 it is `content.IsLabelKey` (apimachinery `api/validate/content/kube.go`):
    "a valid label key" for more than one '/', lengths in bytes."""
    errs: list[str] = []
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            too_long = content_max_len_error(DNS1123_SUBDOMAIN_MAX_LENGTH) if release >= 35 else ""
            errs.extend("prefix part " + m for m in is_dns1123_subdomain(prefix, too_long))
    else:
        return [
            ("a valid label key " if release >= 35 else "a qualified name ")
            + regex_error(_QNAME_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errs.append("name part must be non-empty")
    elif go_len(name) > 63:
        errs.append("name part " + label_max_len_error(63, release))
    if not _full(_QUALIFIED_NAME_RE, name):
        errs.append(
            "name part "
            + regex_error(_QNAME_MSG, _QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
        )
    return errs


def is_valid_label_value(value: str, release: int = NEWEST_MINOR) -> list[str]:
    """IsValidLabelValue (from 1.35 `content.IsLabelValue`: the length in bytes)."""
    errs: list[str] = []
    if go_len(value) > 63:
        errs.append(label_max_len_error(63, release))
    if not _full(_LABEL_VALUE_RE, value):
        errs.append(
            regex_error(
                "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                "and must start and end with an alphanumeric character",
                _LABEL_VALUE_FMT,
                "MyValue",
                "my_value",
                "12345",
            )
        )
    return errs


def is_domain_prefixed_path(path: str, value: str) -> list[FieldError]:
    """IsDomainPrefixedPath: `acme.io/foo`."""
    if not value:
        return [fe.required(path)]
    segments = value.split("/", 1)
    if len(segments) != 2 or not segments[0] or not segments[1]:
        return [fe.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')]
    host, rest = segments
    errs = [fe.invalid(path, host, m) for m in is_dns1123_subdomain(host)]
    if not _full(_HTTP_PATH_RE, rest):
        errs.append(fe.invalid(path, rest, regex_error("Invalid path", _HTTP_PATH_FMT)))
    return errs


def validate_nonnegative_field(value: int, path: str) -> list[FieldError]:
    """ValidateNonnegativeField."""
    return [fe.invalid(path, value, IS_NEGATIVE_ERROR_MSG)] if value < 0 else []


def validate_immutable_field(
    new: Any, old: Any, path: str, key: str | None = None, shown: Callable[[Any], Any] | None = None
) -> list[FieldError]:
    """ValidateImmutableField: new and old must be semantically equal (`key`: the field they are
    of); `shown` gives the bad value as upstream's Go type of `new` prints (default: `new`)."""
    if semantic_equal(new, old, key):
        return []
    return [fe.invalid(path, new if shown is None else shown(new), FIELD_IMMUTABLE_ERROR_MSG)]


def time_value(nanos: int | None, release: int, *, pointer: bool) -> Any:
    """A metav1.Time bad value (a `pointer`, *metav1.Time, or the value itself) as ErrorBody
    prints it: before v1.34 time.Time's String() (in the API server's zone, UTC; a nil pointer as
    the string "null", quoted); from v1.34 json.Marshal (Time.MarshalJSON: RFC 3339 in UTC, whole
    seconds; the zero time as null); `nanos` None: nil (a pointer) or the zero time."""
    if nanos is None:
        if pointer:
            return fe.pointer(None, release)
        nanos = ZERO_TIME_NANOS
    seconds, fraction = divmod(nanos, 10**9)
    t = UNIX_EPOCH + timedelta(seconds=seconds)
    wire = format_time(t)  # 2024-01-01T00:04:59Z
    if release >= 34:
        return None if is_zero(t) and fraction == 0 else fe.Marshalled(wire)
    digits = f".{fraction:09d}".rstrip("0") if fraction else ""
    return fe.GoSyntax(f"{wire[:10]} {wire[11:19]}{digits} +0000 UTC")


ZERO_TIME_NANOS: Final = -62135596800 * 10**9  # 0001-01-01T00:00:00Z, Go's zero time


def _meta_time_value(value: Any, release: int, *, pointer: bool) -> Any:
    """An object meta time (wire text) as a bad value (`time_value`); text that is no time as it is."""
    if value is None:
        return time_value(None, release, pointer=pointer)
    try:
        return time_value(parse_time_nanos(value, "time"), release, pointer=pointer)
    except InputError:
        return value


def validate_qualified_name(value: str, path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidateQualifiedName."""
    return [fe.invalid(path, value, m) for m in is_qualified_name(value, release)]


def validate_dns1123_label(value: str, path: str) -> list[FieldError]:
    """ValidateDNS1123Label."""
    return [fe.invalid(path, value, m) for m in is_dns1123_label(value)]


def validate_label_name(name: str, path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidateLabelName."""
    return [fe.invalid(path, name, m) for m in is_qualified_name(name, release)]


def validate_labels(labels: Mapping[str, str] | None, path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidateLabels."""
    errs: list[FieldError] = []
    for k, v in (labels or {}).items():
        errs.extend(validate_label_name(k, path, release))
        errs.extend(fe.invalid(path, v, m) for m in is_valid_label_value(v, release))
    return errs


def validate_annotations(
    annotations: Mapping[str, str] | None, path: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """ValidateAnnotations: keys are qualified names in any case; the total size is limited."""
    errs: list[FieldError] = []
    annotations = annotations or {}
    for k in annotations:
        errs.extend(fe.invalid(path, k, m) for m in is_qualified_name(go_to_lower(k), release))
    if sum(go_len(k) + go_len(v) for k, v in annotations.items()) > TOTAL_ANNOTATION_SIZE_LIMIT:
        errs.append(fe.too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT))
    return errs


def validate_label_selector(
    selector: Mapping[str, Any] | None,
    path: str,
    allow_invalid_label_value: bool = False,
    release: int = NEWEST_MINOR,
) -> list[FieldError]:
    """ValidateLabelSelector."""
    if selector is None:
        return []
    errs = validate_labels(selector.get("matchLabels"), fe.child(path, "matchLabels"), release)
    for i, req in enumerate(selector.get("matchExpressions") or []):
        errs.extend(
            validate_label_selector_requirement(
                req, fe.index(fe.child(path, "matchExpressions"), i), allow_invalid_label_value, release
            )
        )
    return errs


def validate_label_selector_requirement(
    req: Mapping[str, Any], path: str, allow_invalid_label_value: bool, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """ValidateLabelSelectorRequirement."""
    errs: list[FieldError] = []
    operator = req.get("operator", "")
    values: list[str] = req.get("values") or []
    if operator in ("In", "NotIn"):
        if not values:
            errs.append(
                fe.required(
                    fe.child(path, "values"), "must be specified when `operator` is 'In' or 'NotIn'"
                )
            )
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            errs.append(
                fe.forbidden(
                    fe.child(path, "values"),
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                )
            )
    else:
        errs.append(
            fe.invalid(fe.child(path, "operator"), fe.named(operator, release), "not a valid selector operator")
        )
    errs.extend(validate_label_name(req.get("key", ""), fe.child(path, "key"), release))
    if not allow_invalid_label_value:
        for i, v in enumerate(values):
            errs.extend(
                fe.invalid(fe.index(fe.child(path, "values"), i), v, m)
                for m in is_valid_label_value(v, release)
            )
    return errs


def label_selector_value(selector: Mapping[str, Any], release: int) -> Any:
    """A *metav1.LabelSelector bad value as ErrorBody prints it: `%#v` before v1.34, json.Marshal
    (json tags in declaration order, omitempty) from v1.34."""
    labels, expressions = selector.get("matchLabels"), selector.get("matchExpressions")
    if release >= 34:
        requirements = [fe.json_struct(r, ("key", "operator", "values"), frozenset({"values"})) for r in expressions or []]
        return fe.json_struct({"matchLabels": labels, "matchExpressions": requirements}, ("matchLabels", "matchExpressions"),
                              frozenset({"matchLabels", "matchExpressions"}))
    return fe.GoSyntax(f"v1.LabelSelector{{MatchLabels:{fe.go_syntax_string_map(labels)}, "
                       f"MatchExpressions:{_go_syntax_requirements(expressions)}}}")


def _go_syntax_requirements(expressions: list[Mapping[str, Any]] | None) -> str:
    """`%#v` of a []metav1.LabelSelectorRequirement."""
    if expressions is None:
        return "[]v1.LabelSelectorRequirement(nil)"
    items = []
    for r in expressions:
        values = fe.go_syntax_slice(r.get("values"), "[]string")
        items.append(f"v1.LabelSelectorRequirement{{Key:{go_quote(r.get('key', ''))}, "
                     f"Operator:{go_quote(r.get('operator', ''))}, Values:{values}}}")
    return "[]v1.LabelSelectorRequirement{" + ", ".join(items) + "}"


def label_selector_has_invalid_label_value(selector: Mapping[str, Any] | None) -> bool:
    """LabelSelectorHasInvalidLabelValue."""
    if selector is None:
        return False
    return any(
        is_valid_label_value(v)
        for e in selector.get("matchExpressions") or []
        for v in e.get("values") or []
    )


def label_selector_matches(
    selector: Mapping[str, Any] | None, labels: Mapping[str, str] | None
) -> bool | None:
    """LabelSelectorAsSelector(...).Matches(labels); None when the selector does not convert.

    A nil selector converts to labels.Nothing() (matches nothing); an empty one matches everything.
    """
    if selector is None:
        return False
    # NewRequirement checks matchLabels' keys and values too; a bad one fails the conversion.
    for key, value in (selector.get("matchLabels") or {}).items():
        if is_qualified_name(key) or is_valid_label_value(value):
            return None
    for req in selector.get("matchExpressions") or []:
        op, k, values = req.get("operator"), req.get("key", ""), req.get("values") or []
        if (
            op not in ("In", "NotIn", "Exists", "DoesNotExist")
            or validate_label_name(k, "")
            or (op in ("In", "NotIn") and not values)
            or (op in ("Exists", "DoesNotExist") and values)
            or any(is_valid_label_value(v) for v in values)
        ):
            return None
    return selector_matches(label_selector_from_json(selector, "selector"), labels or {})


def _mask_trailing_dash(name: str) -> str:
    """maskTrailingDash: `name[:len(name)-2] + "a"` cut in bytes (a rune cut in two is left
    invalid, as U+FFFD here: no DNS name either way)."""
    if go_len(name) <= 1 or not name.endswith("-"):
        return name
    return go_prefix_as_written(name, go_len(name) - 2) + "a"


def name_is_dns_subdomain(name: str, prefix: bool) -> list[str]:
    """NameIsDNSSubdomain (ValidateReplicationControllerName, used for Jobs and CronJobs)."""
    return is_dns1123_subdomain(_mask_trailing_dash(name) if prefix else name)


def validate_object_meta(
    meta: Mapping[str, Any], path: str = "metadata", release: int = NEWEST_MINOR
) -> list[FieldError]:
    """ValidateObjectMeta for a namespaced object whose name is a DNS subdomain."""
    errs: list[FieldError] = []
    generate_name = meta.get("generateName") or ""
    if generate_name:
        errs.extend(
            fe.invalid(fe.child(path, "generateName"), generate_name, m)
            for m in name_is_dns_subdomain(generate_name, True)
        )
    name = meta.get("name") or ""
    if not name:
        errs.append(fe.required(fe.child(path, "name"), "name or generateName is required"))
    else:
        errs.extend(
            fe.invalid(fe.child(path, "name"), name, m) for m in name_is_dns_subdomain(name, False)
        )
    namespace = meta.get("namespace") or ""
    if not namespace:
        errs.append(fe.required(fe.child(path, "namespace")))
    else:
        errs.extend(
            fe.invalid(fe.child(path, "namespace"), namespace, m)
            for m in is_dns1123_label(namespace)
        )
    errs.extend(
        validate_nonnegative_field(int(meta.get("generation") or 0), fe.child(path, "generation"))
    )
    errs.extend(validate_labels(meta.get("labels"), fe.child(path, "labels"), release))
    errs.extend(validate_annotations(meta.get("annotations"), fe.child(path, "annotations"), release))
    errs.extend(
        validate_owner_references(
            meta.get("ownerReferences") or [], fe.child(path, "ownerReferences"), release
        )
    )
    errs.extend(
        validate_finalizers(meta.get("finalizers") or [], fe.child(path, "finalizers"), release)
    )
    errs.extend(
        validate_managed_fields(meta.get("managedFields") or [], fe.child(path, "managedFields"), release)
    )
    errs.extend(_validate_kube_finalizer_names(meta, path))
    return errs


STANDARD_FINALIZERS: Final = frozenset({"kubernetes", "orphan", "foregroundDeletion"})


def validate_kube_finalizer_name(name: str, path: str) -> list[FieldError]:
    """validateKubeFinalizerName: a name without a `/` must be one of the standard finalizers."""
    if "/" not in name and name not in STANDARD_FINALIZERS:
        return [
            fe.invalid(
                path, name, "name is neither a standard finalizer name nor is it fully qualified"
            )
        ]
    return []


def _validate_kube_finalizer_names(meta: Mapping[str, Any], path: str) -> list[FieldError]:
    """The check core's ValidateObjectMeta(Update) adds to apimachinery's, finalizer by finalizer."""
    finalizers_path = fe.child(path, "finalizers")
    return [
        e
        for i, name in enumerate(meta.get("finalizers") or [])
        for e in validate_kube_finalizer_name(name, fe.index(finalizers_path, i))
    ]


FIELD_MANAGER_MAX_LENGTH: Final = 128
MAX_SUBRESOURCE_NAME_LENGTH: Final = 256
MANAGED_FIELDS_OPERATIONS: Final = ("Apply", "Update")


def validate_field_manager(manager: str, path: str) -> list[FieldError]:
    """ValidateFieldManager (apimachinery meta/v1/validation): at most 128 bytes, every rune
    printable (Go's `%#U` and the rune's byte offset)."""
    errs: list[FieldError] = []
    if go_len(manager) > FIELD_MANAGER_MAX_LENGTH:
        errs.append(fe.too_long(path, FIELD_MANAGER_MAX_LENGTH))
    offset = 0
    for char in manager:
        if not go_is_print(char):
            errs.append(fe.invalid(path, manager, f"invalid character U+{ord(char):04X} (at position {offset})"))
        offset += go_len(char)
    return errs


def validate_managed_fields(
    entries: list[Mapping[str, Any]], path: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """ValidateManagedFields (apimachinery meta/v1/validation): the operation (1.37: Required when
    empty, else NotSupported; before: Invalid), the fields type, the manager, the subresource."""
    errs: list[FieldError] = []
    for i, entry in enumerate(entries):
        entry_path = fe.index(path, i)
        operation = entry.get("operation") or ""
        if operation not in MANAGED_FIELDS_OPERATIONS:
            op_path = fe.child(entry_path, "operation")
            if release < 37:
                errs.append(fe.invalid(op_path, operation, "must be `Apply` or `Update`"))
            elif not operation:
                errs.append(fe.required(op_path, "must not be empty"))
            else:
                errs.append(fe.not_supported(op_path, operation, MANAGED_FIELDS_OPERATIONS))
        fields_type = entry.get("fieldsType") or ""
        if fields_type and fields_type != "FieldsV1":
            errs.append(fe.invalid(fe.child(entry_path, "fieldsType"), fields_type, "must be `FieldsV1`"))
        errs.extend(validate_field_manager(entry.get("manager") or "", fe.child(entry_path, "manager")))
        if go_len(entry.get("subresource") or "") > MAX_SUBRESOURCE_NAME_LENGTH:
            errs.append(fe.too_long(fe.child(entry_path, "subresource"), MAX_SUBRESOURCE_NAME_LENGTH))
    return errs


def parse_group_version(api_version: str) -> tuple[str, str]:
    """schema.FromAPIVersionAndKind's group and version: ParseGroupVersion, or empty on its error
    (more than one `/`)."""
    if api_version in ("", "/"):
        return "", ""
    parts = api_version.split("/")
    if len(parts) == 1:
        return "", api_version
    if len(parts) == 2:
        return parts[0], parts[1]
    return "", ""


def owner_references_value(refs: list[Mapping[str, Any]]) -> list[fe.GoStruct]:
    """A []metav1.OwnerReference bad value as json.Marshal prints it (ErrorBody from 1.34; before,
    `%#v` shows the *bool pointers' addresses, which the model does not reproduce: it prints this)."""
    names = ("apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion")
    return [fe.json_struct(r, names, frozenset({"controller", "blockOwnerDeletion"})) for r in refs]


def owner_reference_value(ref: Mapping[str, Any], release: int) -> Any:
    """A metav1.OwnerReference bad value: json.Marshal (json tags) from 1.34; before, `%#v` with
    the Go field names, unless a *bool is set (its address: then the 1.34 form)."""
    go_names = ("APIVersion", "Kind", "Name", "UID", "Controller", "BlockOwnerDeletion")
    wire = ("apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion")
    go_value = fe.GoStruct(
        tuple((g, ref.get(w, "") if i < 4 else ref.get(w)) for i, (g, w) in enumerate(zip(go_names, wire, strict=True))),
        "v1.OwnerReference",
        ("string", "string", "string", "types.UID", "*bool", "*bool"),
    )
    text = None if release >= 34 else fe.go_syntax_value(go_value, go_value.go_type)
    return owner_references_value([ref])[0] if text is None else fe.GoSyntax(text)


def _owner_reference_compared(ref: Any) -> Any:
    """An owner reference as Semantic.DeepEqual sees it: its strings with "" as absent, its two
    `*bool` fields with false kept (a nil pointer differs from one to false)."""
    if not isinstance(ref, Mapping):
        return ref
    return {k: v for k, v in ref.items() if v is not None and not (v == "" and k not in ("controller", "blockOwnerDeletion"))}


def dedup_owner_references(refs: list[Any]) -> tuple[list[Any], list[str]]:
    """dedupOwnerReferences (apiserver `pkg/endpoints/handlers/rest.go`), which the create and
    update handlers run before anything else: a reference equal to an earlier one with its uid
    is dropped; the uids of those dropped."""
    kept: list[Any] = []
    duplicates: list[str] = []
    seen: set[str] = set()
    for ref in refs:
        uid = str(ref.get("uid") or "") if isinstance(ref, Mapping) else ""
        value = _owner_reference_compared(ref)
        if uid in seen and any(_owner_reference_compared(k) == value for k in kept):
            duplicates.append(uid)
            continue
        seen.add(uid)
        kept.append(ref)
    return kept, duplicates


def validate_owner_references(
    refs: list[Mapping[str, Any]], path: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """ValidateOwnerReferences (1.37: each reference's errors under its index)."""
    errs: list[FieldError] = []
    first_controller = ""
    for i, ref in enumerate(refs):
        ref_path = fe.index(path, i) if release >= 37 else path
        errs.extend(validate_owner_reference(ref, ref_path, release))
        if ref.get("controller"):
            current = f"{ref.get('kind', '')}/{ref.get('name', '')}"
            if first_controller:
                errs.append(
                    fe.invalid(
                        path,
                        owner_references_value(refs),
                        'Only one reference can have Controller set to true. Found "true" in references for '
                        f"{first_controller} and {current}",
                    )
                )
            else:
                first_controller = current
    return errs


def validate_owner_reference(ref: Mapping[str, Any], path: str, release: int) -> list[FieldError]:
    """validateOwnerReference (apimachinery `api/validation/objectmeta.go`): "kind must not be
    empty" until 1.33, "must not be empty" from 1.34; 1.37 reports empty fields as Required and an
    apiVersion without a version as "must be <group>/<version> or <version>"."""
    errs: list[FieldError] = []
    api_version = str(ref.get("apiVersion", ""))
    group, version = parse_group_version(api_version)
    if release >= 37:
        if not api_version:
            errs.append(fe.required(fe.child(path, "apiVersion"), "must not be empty"))
        elif not version:
            errs.append(
                fe.invalid(
                    fe.child(path, "apiVersion"), api_version, "must be <group>/<version> or <version>"
                )
            )
    elif not version:
        errs.append(fe.invalid(fe.child(path, "apiVersion"), api_version, "version must not be empty"))
    for key in ("kind", "name", "uid"):
        if ref.get(key):
            continue
        if release >= 37:
            errs.append(fe.required(fe.child(path, key), "must not be empty"))
        else:
            message = "must not be empty" if release >= 34 else f"{key} must not be empty"
            errs.append(fe.invalid(fe.child(path, key), ref.get(key, ""), message))
    if ref.get("kind") == "Event" and (group, version) == ("", "v1"):
        errs.append(fe.invalid(path, owner_reference_value(ref, release), "/v1, Kind=Event is disallowed from being an owner"))
    return errs


def validate_finalizers(finalizers: list[str], path: str, release: int = NEWEST_MINOR) -> list[FieldError]:
    """ValidateFinalizers."""
    errs = [fe.invalid(path, f, m) for f in finalizers for m in is_qualified_name(f, release)]
    if "orphan" in finalizers and "foregroundDeletion" in finalizers:
        errs.append(
            fe.invalid(
                path, fe.go_slice(finalizers, "[]string", release), "finalizer orphan and foregroundDeletion cannot be both set"
            )
        )
    return errs


def validate_object_meta_update(
    new: Mapping[str, Any], old: Mapping[str, Any], path: str = "metadata", release: int = NEWEST_MINOR
) -> list[FieldError]:
    """ValidateObjectMetaUpdate."""
    errs: list[FieldError] = []
    if old.get("deletionTimestamp") is not None:
        extra = sorted(set(new.get("finalizers") or []) - set(old.get("finalizers") or []))
        if extra:
            listed = "[]string{" + ", ".join(go_quote(f) for f in extra) + "}"  # %#v
            errs.append(
                fe.forbidden(
                    fe.child(path, "finalizers"),
                    f"no new finalizers can be added if the object is being deleted, found new finalizers {listed}",
                )
            )
    if not new.get("resourceVersion"):
        errs.append(
            fe.invalid(
                fe.child(path, "resourceVersion"),
                new.get("resourceVersion", ""),
                "must be specified for an update",
            )
        )
    new_gen, old_gen = int(new.get("generation") or 0), int(old.get("generation") or 0)
    if release >= 37:
        # apimachinery v0.37's ValidateObjectMetaAccessorUpdate checks the generation's sign too.
        errs.extend(validate_nonnegative_field(new_gen, fe.child(path, "generation")))
    if new_gen < old_gen:
        errs.append(fe.invalid(fe.child(path, "generation"), new_gen, "must not be decremented"))
    for name, zero in (
        ("name", ""),
        ("namespace", ""),
        ("uid", ""),
        ("creationTimestamp", None),
        ("deletionTimestamp", None),
        ("deletionGracePeriodSeconds", None),
    ):
        # GetCreationTimestamp is a metav1.Time, GetDeletionTimestamp a *metav1.Time.
        shown = (lambda v, p=(name == "deletionTimestamp"): _meta_time_value(v, release, pointer=p)) if name.endswith("Timestamp") else None
        errs.extend(
            validate_immutable_field(new.get(name, zero), old.get(name, zero), fe.child(path, name), name, shown)
        )
    errs.extend(validate_labels(new.get("labels"), fe.child(path, "labels"), release))
    errs.extend(validate_annotations(new.get("annotations"), fe.child(path, "annotations"), release))
    errs.extend(
        validate_owner_references(
            new.get("ownerReferences") or [], fe.child(path, "ownerReferences"), release
        )
    )
    errs.extend(
        validate_managed_fields(new.get("managedFields") or [], fe.child(path, "managedFields"), release)
    )
    errs.extend(_validate_kube_finalizer_names(new, path))
    return errs


def validate_has_label(
    meta: Mapping[str, Any], path: str, key: str, expected: str, release: int = NEWEST_MINOR
) -> list[FieldError]:
    """ValidateHasLabel (core validation)."""
    labels = meta.get("labels") or {}
    label_path = fe.key(fe.child(path, "labels"), key)
    if key not in labels:
        return [fe.required(label_path, f"must be '{expected}'")]
    if labels[key] != expected:
        return [fe.invalid(label_path, fe.string_map(labels, release), f"must be '{expected}'")]
    return []


def is_valid_port_name(port: str) -> list[str]:
    """IsValidPortName (apimachinery `pkg/util/validation`): an IANA_SVC_NAME."""
    errs = [max_len_error(15)] if go_len(port) > 15 else []
    if not re.fullmatch("[-a-z0-9]+", port):
        errs.append("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
    if not re.search("[a-z]", port):
        errs.append("must contain at least one letter (a-z)")
    if "--" in port:
        errs.append("must not contain consecutive hyphens")
    if port.startswith("-") or port.endswith("-"):
        errs.append("must not begin or end with a hyphen")
    return errs


def inclusive_range_error(lo: int, hi: int) -> str:
    """InclusiveRangeError (apimachinery `pkg/util/validation`)."""
    return f"must be between {lo} and {hi}, inclusive"


def is_valid_port_num(port: int) -> list[str]:
    """IsValidPortNum: 1 to 65535."""
    return [] if 1 <= port <= 65535 else [inclusive_range_error(1, 65535)]
