"""`jobmodel validate`: stored objects, kubectl-style errors, clear input errors, exit codes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import yaml

from jobmodel.cli import main
from jobmodel.commands.validate import validate_manifests
from jobmodel.errors import InputError
from jobmodel.features import DEFAULT_GATES, gates_from_options

REPO = Path(__file__).resolve().parent.parent.parent
PI = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  backoffLimit: 4
  template:
    spec:
      containers:
      - name: pi
        image: perl:5.34.0
      restartPolicy: Never
"""


def _run(text: str, output: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = validate_manifests(
        ["-"], output, "default", None, DEFAULT_GATES, io.StringIO(text), out, err
    )
    return code, out.getvalue(), err.getvalue()


def test_valid_job_prints_the_stored_object() -> None:
    code, out, err = _run(PI, "json")
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["kind"] == "ValidationReport"
    [entry] = report["objects"]
    assert (entry["valid"], entry["name"], entry["errors"]) == (True, "pi", [])
    stored = entry["object"]
    assert stored["spec"]["completions"] == 1
    assert stored["spec"]["backoffLimit"] == 4
    uid = stored["metadata"]["uid"]
    assert stored["spec"]["selector"]["matchLabels"] == {"batch.kubernetes.io/controller-uid": uid}


def test_yaml_output_and_summary_line() -> None:
    code, out, _ = _run(PI, "yaml")
    assert code == 0
    assert yaml.safe_load(out)["metadata"]["generation"] == 1
    assert _run(PI)[1] == "job.batch/pi valid\n"


def test_invalid_job_prints_kubectl_message_and_fails() -> None:
    code, out, err = _run(PI.replace("backoffLimit: 4", "completions: -1"))
    assert code == 1 and out == ""
    assert (
        err.strip()
        == 'error: STDIN: The Job "pi" is invalid: spec.completions: Invalid value: -1: must be greater than or equal to 0'
    )


def test_json_report_gives_field_errors() -> None:
    code, out, err = _run(PI.replace("backoffLimit: 4", "completions: -1"), "json")
    assert (code, err) == (1, "")
    [entry] = json.loads(out)["objects"]
    assert entry["valid"] is False and entry["object"] is None
    assert entry["errors"][0]["field"] == "spec.completions" and entry["errors"][0]["type"] == "FieldValueInvalid"


def test_a_valid_verdict_has_no_note_once_everything_is_checked() -> None:
    # NOT_CHECKED is empty since volumes are checked (pod_volumes): no "not checked" note.
    code, out, err = _run(PI)
    assert (code, out, err) == (0, "job.batch/pi valid\n", "")
    code, out, _ = _run(PI, "json")
    assert json.loads(out)["notChecked"] == []


def test_a_bad_quantity_is_refused_as_the_decoder_refuses_it() -> None:
    with_quantity = PI.replace("image: perl:5.34.0", "image: perl:5.34.0\n        resources: {requests: {memory: 1Gb}}")
    code, out, err = _run(with_quantity)
    assert code != 0 and out == ""
    assert "resources.requests[memory]: quantities must match the regular expression" in err
    assert "Traceback" not in err


def test_generate_name_alone_is_named_as_the_api_server_names_it() -> None:
    code, out, err = _run(PI.replace("name: pi", "generateName: pi-", 1), "yaml")
    assert code == 0 and "is invalid" not in err
    name = yaml.safe_load(out)["metadata"]["name"]
    assert name.startswith("pi-") and len(name) == len("pi-") + 5


def test_several_documents_each_judged() -> None:
    text = PI + "---\n" + PI.replace("name: pi\n", "name: Pi\n", 1)
    code, out, err = _run(text)
    assert code == 1
    assert out == "job.batch/pi valid\n"
    assert 'The Job "Pi" is invalid: metadata.name: Invalid value: "Pi"' in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("kind: Job\nspec: [\n", "malformed YAML at line"),
        (PI.replace("backoffLimit: 4", "backoffLimits: 4"), "spec.backoffLimits: unknown field"),
        (
            PI.replace("backoffLimit: 4", "backoffLimit: four"),
            "spec.backoffLimit: expected an integer",
        ),
        ("kind: Pod\n", "kind: expected Job or CronJob"),
        ('{"kind": "Job",', "not JSON"),
        ("", "no object in it"),
        ("---\n# only a comment\n", "no object in it"),
        ("kind: List\nitems: []\n", "no object in it"),
        (
            PI.replace("image: perl:5.34.0", 'image: perl:5.34.0\n        resources: {limits: {cpu: "1e100000000"}}'),
            "resources.limits[cpu]: the model computes quantities of fewer than 100000 digits",
        ),
    ],
)
def test_bad_input_is_named_never_a_traceback(text: str, message: str) -> None:
    code, _, err = _run(text)
    assert code == 2
    assert err.startswith("error: STDIN: ")
    assert message in err
    assert "Traceback" not in err


def test_feature_gates_option_is_checked_against_the_release() -> None:
    assert gates_from_options("1.34", "JobManagedBy=false").JobManagedBy is False
    with pytest.raises(InputError, match=r"locked to true in Kubernetes 1\.37"):
        gates_from_options(None, "JobManagedBy=false")
    with pytest.raises(InputError):
        gates_from_options("1.34", "JobManagedBy")


def test_kube_version_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "pi.yaml"
    manifest.write_text(PI)
    assert main(["validate", "--kube-version", "1.32", "--feature-gates", "JobManagedBy=false", str(manifest)]) == 0
    assert main(["validate", "--kube-version", "1.31", str(manifest)]) == 2
    assert "unsupported Kubernetes release '1.31'" in capsys.readouterr().err


def test_cli_entry_point(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "pi.yaml"
    manifest.write_text(PI)
    assert main(["validate", str(manifest)]) == 0
    assert capsys.readouterr().out == "job.batch/pi valid\n"
    assert main(["validate", str(tmp_path / "missing.yaml")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_bad_file_does_not_stop_the_others(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad, invalid = tmp_path / "good.yaml", tmp_path / "bad.yaml", tmp_path / "invalid.yaml"
    good.write_text(PI)
    bad.write_text("kind: [Job]\n")
    invalid.write_text(PI.replace("backoffLimit: 4", "parallelism: -1"))
    assert main(["validate", str(bad), str(invalid), str(good)]) == 2
    out, err = capsys.readouterr()
    assert out == "job.batch/pi valid\n"
    assert f"error: {bad}: kind: expected Job or CronJob, got a list" in err
    assert f'error: {invalid}: The Job "pi" is invalid: spec.parallelism: Invalid value: -1' in err
    assert main(["validate", str(invalid), str(good)]) == 1


def test_the_examples_in_specs_validate() -> None:
    examples = [
        path
        for path in sorted((REPO / "specs" / "examples").glob("*.yaml"))
        if all(
            isinstance(d, dict) and d.get("kind") in ("Job", "CronJob")
            for d in yaml.safe_load_all(path.read_text())
        )
    ]
    if not examples:
        pytest.skip("no Job or CronJob examples in specs/examples yet")
    for path in examples:
        code, _, err = _run(path.read_text())
        assert code == 0, f"{path.name}: {err}"


def test_a_job_scheduling_is_dropped_at_1_37_and_unknown_before() -> None:
    """1.37's PrepareForCreate drops spec.scheduling (WorkloadWithJob off) before validation sees
    it (pkg/api/job/util.go DropDisabledFields); 1.36's types lack it (strict decoding)."""
    manifest = PI.replace("backoffLimit: 4", "backoffLimit: 4\n  scheduling: {schedulingPolicy: {gang: {minCount: 9}}}")
    for release, want_code in (("1.37", 0), ("1.36", 2)):
        out, err = io.StringIO(), io.StringIO()
        gates = gates_from_options(release, "")
        code = validate_manifests(["-"], "json", "default", None, gates, io.StringIO(manifest), out, err)
        assert code == want_code, (release, err.getvalue())
        if want_code == 0:
            [entry] = json.loads(out.getvalue())["objects"]
            assert "scheduling" not in entry["object"]["spec"]
        else:
            assert 'spec.scheduling: unknown field' in err.getvalue()


def test_a_yaml_manifest_reads_as_kubectl_reads_it() -> None:
    """go-yaml v2's scalars: `backoffLimit: 4.0` is the JSON number 4 (accepted), `y` a boolean
    (refused for a string field, as the decoder refuses it)."""
    code, out, _ = _run(PI.replace("backoffLimit: 4", "backoffLimit: 4.0"), "json")
    assert code == 0 and json.loads(out)["objects"][0]["object"]["spec"]["backoffLimit"] == 4
    code, _, err = _run(PI.replace("image: perl:5.34.0", "image: y"))
    assert code == 2 and "image" in err


def test_a_json_then_yaml_stream_is_read_from_1_33(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = tmp_path / "two.yaml"
    job = yaml.safe_load(PI)
    manifest.write_text(json.dumps(job) + "\n---\n" + PI.replace("name: pi\n", "name: pi2\n", 1))
    assert main(["validate", "--kube-version", "1.33", str(manifest)]) == 0
    assert capsys.readouterr().out == "job.batch/pi valid\njob.batch/pi2 valid\n"
    assert main(["validate", "--kube-version", "1.32", "--feature-gates", "JobManagedBy=false", str(manifest)]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_a_number_beyond_float64_in_a_free_form_field_is_written_as_given() -> None:
    """fieldsV1 is raw JSON to the API server: a JSON manifest's `1e400` there is stored and
    printed as written (valid JSON, not `Infinity`), and `-o yaml` does not fail on it."""
    job = yaml.safe_load(PI)
    job["metadata"]["managedFields"] = [{"manager": "m", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:a": "X"}}]
    text = json.dumps(job).replace('"X"', "1e400")
    code, out, _ = _run(text, "json")
    assert code == 0 and '"f:a": 1e400' in out
    code, out, _ = _run(text, "yaml")
    assert code == 0 and "f:a: 1e400" in out


def test_the_api_server_s_warnings_are_printed_as_kubectl_prints_them() -> None:
    """A valid object with what the API server warns of: valid (exit 0), each warning on
    standard error after `Warning: `, and in the JSON report; an invalid object has none."""
    warned = PI.replace("  name: pi\n", "  name: pi.example\n", 1).replace(
        "      restartPolicy: Never", "      restartPolicy: Never\n      nodeSelector: {beta.kubernetes.io/os: linux}"
    )
    code, out, err = _run(warned)
    assert (code, out) == (0, "job.batch/pi.example valid\n")
    assert err.splitlines() == [
        "Warning: metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; "
        "a DNS label is recommended: [must not contain dots]",
        'Warning: spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead',
    ]
    code, out, err = _run(warned, "json")
    [entry] = json.loads(out)["objects"]
    assert (code, err, len(entry["warnings"])) == (0, "", 2)
    code, out, _ = _run(warned.replace("backoffLimit: 4", "completions: -1"), "json")
    [entry] = json.loads(out)["objects"]
    assert (code, entry["valid"], entry["warnings"]) == (1, False, [])


def test_duplicate_owner_references_are_dropped_with_a_warning_first() -> None:
    """The create handler dedups owner references before validation (two equal controller
    references are one, so valid) and warns of it before the strategy's warnings."""
    refs = "  ownerReferences:\n" + "  - {apiVersion: v1, kind: ConfigMap, name: o, uid: u-1, controller: true}\n" * 2
    text = PI.replace("  name: pi\n", "  name: pi.x\n" + refs, 1)
    code, out, err = _run(text, "json")
    [entry] = json.loads(out)["objects"]
    assert (code, err, entry["valid"]) == (0, "", True)
    assert len(entry["object"]["metadata"]["ownerReferences"]) == 1
    assert [w.split(";")[0] for w in entry["warnings"]] == [
        ".metadata.ownerReferences contains duplicate entries",
        "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior",
    ]


UNKNOWN = PI.replace("  backoffLimit: 4\n", "  backoffLimit: 4\n  bogus: 1\n", 1).replace(
    "        image: perl:5.34.0\n", "        image: perl:5.34.0\n        Name: x\n", 1
).replace("  name: pi\n", "  name: pi.x\n", 1)


@pytest.mark.parametrize("flag", ["strict", "true", "STRICT"])
def test_unknown_fields_are_refused_under_strict_validation(flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """kubectl's default, `--validate=strict`: the strict decoding error names every unknown
    field, the first as the field (an input error: exit 2)."""
    manifest = tmp_path / "job.yaml"
    manifest.write_text(UNKNOWN)
    assert main(["validate", f"--validate={flag}", str(manifest)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"error: {manifest}: spec.bogus: unknown field (also unknown: spec.template.spec.containers[0].Name)"


def test_unknown_fields_are_warned_of_first_under_warn_validation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--validate=warn`: the object is created without the unknown fields, and the response
    warns of each, in the document's order, before the handler's and the strategy's warnings."""
    manifest = tmp_path / "job.yaml"
    manifest.write_text(UNKNOWN)
    assert main(["validate", "--validate", "warn", "-o", "json", str(manifest)]) == 0
    [entry] = json.loads(capsys.readouterr().out)["objects"]
    assert entry["valid"] and "bogus" not in entry["object"]["spec"]
    assert "Name" not in entry["object"]["spec"]["template"]["spec"]["containers"][0]
    assert [w.split(":")[0] for w in entry["warnings"]] == [
        'unknown field "spec.bogus"',
        'unknown field "spec.template.spec.containers[0].Name"',
        "metadata.name",
    ]


@pytest.mark.parametrize("flag", ["ignore", "false"])
def test_unknown_fields_are_left_out_silently_under_ignore_validation(
    flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "job.yaml"
    manifest.write_text(UNKNOWN)
    assert main(["validate", f"--validate={flag}", "-o", "yaml", str(manifest)]) == 0
    captured = capsys.readouterr()
    stored = yaml.safe_load(captured.out)
    assert "bogus" not in stored["spec"] and stored["spec"]["backoffLimit"] == 4
    assert [line.split(":")[0] for line in captured.err.splitlines() if line.startswith("Warning")] == ["Warning"]  # the name's only


def test_a_mistyped_value_is_an_error_under_every_validation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The directive governs unknown fields only: a value the decoder cannot read fails it first."""
    manifest = tmp_path / "job.yaml"
    manifest.write_text(UNKNOWN.replace("backoffLimit: 4", "backoffLimit: four"))
    for flag in ("strict", "warn", "ignore"):
        assert main(["validate", f"--validate={flag}", str(manifest)]) == 2
        assert "spec.backoffLimit: expected an integer" in capsys.readouterr().err


def test_an_unknown_validate_value_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["validate", "--validate=loose", "x.yaml"])
    assert exit_.value.code == 2
    assert 'argument --validate: expected strict, warn or ignore, got "loose"' in capsys.readouterr().err
