"""The front door every manifest-taking command shares (jobmodel/commands/common.py): the same
object as `validate` stores, `-n/--namespace`, kubectl's message naming the file, exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobmodel.cli import main

JOB = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  completions: 2
  template:
    spec:
      containers: [{name: pi, image: perl}]
      restartPolicy: Never
"""
CRON_JOB = """\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: tick
spec:
  schedule: "*/10 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers: [{name: c, image: busybox}]
          restartPolicy: OnFailure
"""
WINDOW = ["--start", "2025-01-01T00:00:00Z", "--end", "2025-01-01T02:00:00Z"]


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# Each command taking a manifest, with what it needs besides it.
COMMANDS = {
    "validate": (["validate"], [], JOB),
    "simulate": (["simulate"], [], JOB),
    "explore": (["explore"], ["--depth", "2"], JOB),
    "cron simulate": (["cron", "simulate"], WINDOW, CRON_JOB),
}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_manifest_without_a_namespace_is_taken_as_validate_takes_it(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head, tail, text = COMMANDS[command]
    path = _write(tmp_path, "obj.yaml", text)
    assert main([*head, path, *tail]) == 0, capsys.readouterr().err
    assert main([*head, path, "-n", "team-a", *tail]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_rejected_object_is_a_finding_in_kubectls_words(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head, tail, text = COMMANDS[command]
    bad = text.replace("name: pi\n", "name: Pi\n").replace("name: tick\n", "name: Tick\n")
    path = _write(tmp_path, "obj.yaml", bad)
    capsys.readouterr()
    assert main([*head, path, *tail]) == 1
    kind = "Job" if "kind: Job" in text else "CronJob"
    name = "Pi" if kind == "Job" else "Tick"
    err = capsys.readouterr().err
    assert err.startswith(f'error: {path}: The {kind} "{name}" is invalid: metadata.name: Invalid value: "{name}"')
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", COMMANDS)
def test_an_undecodable_manifest_is_an_input_error_naming_file_and_field(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head, tail, text = COMMANDS[command]
    path = _write(tmp_path, "obj.yaml", text.replace("metadata:\n", "metadata:\n  labels: [a]\n"))
    capsys.readouterr()
    assert main([*head, path, *tail]) == 2
    assert capsys.readouterr().err == f"error: {path}: metadata.labels: expected an object, got a list\n"


def test_several_errors_are_listed_one_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "job.yaml", JOB.replace("completions: 2", "completions: -1\n  parallelism: -1"))
    assert main(["simulate", path]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == f'error: {path}: The Job "pi" is invalid: '
    assert [line.split(":")[0] for line in lines[1:]] == ["* spec.parallelism", "* spec.completions"]


def test_cron_simulate_keeps_the_default_history_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The API server stores successfulJobsHistoryLimit 3: of the 11 runs after the creation at
    # 00:00 (00:10 to 01:50), all but the last 3 finished Jobs are deleted.
    path = _write(tmp_path, "cj.yaml", CRON_JOB)
    assert main(["cron", "simulate", path, *WINDOW]) == 0
    out = capsys.readouterr().out
    assert "11 created, 8 deleted" in out


def test_output_paths_are_checked_before_the_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "job.yaml", JOB)
    missing = tmp_path / "no" / "such" / "dir"
    assert main(["simulate", path, "--picture", str(missing / "p.svg")]) == 2
    err = capsys.readouterr()
    assert err.out == "" and "--picture: no such directory" in err.err
    assert main(["simulate", path, "--picture", str(tmp_path / "p.gif")]) == 2
    assert main(["explore", path, "--depth", "1", "--save", str(missing / "t.json")]) == 2
    assert capsys.readouterr().out == ""


def test_an_unexpected_exception_is_one_line_and_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from jobmodel.commands import validate

    def broken(*_args: object, **_kwargs: object) -> int:
        raise KeyError("boom")

    monkeypatch.setattr(validate, "validate_manifests", broken)
    path = _write(tmp_path, "job.yaml", JOB)
    assert main(["validate", path]) == 3
    err = capsys.readouterr().err
    assert err == "internal error: KeyError: 'boom' (run again with --debug for the traceback)\n"
    assert main(["validate", "--debug", path]) == 3
    err = capsys.readouterr().err
    assert "Traceback" in err and err.endswith("internal error: KeyError: 'boom'\n")


def test_a_cut_short_cron_simulation_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from jobmodel.commands import cron

    monkeypatch.setattr(cron, "MAX_SYNCS", 5)
    path = _write(tmp_path, "cj.yaml", CRON_JOB)
    assert main(["cron", "simulate", path, *WINDOW]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("cut short at 2025-01-01T00:") and "more than 5 syncs" in last


def test_a_namespace_given_must_be_the_objects_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "job.yaml", JOB.replace("name: pi\n", "name: pi\n  namespace: team-a\n"))
    assert main(["simulate", path]) == 0
    assert main(["simulate", path, "-n", "team-a"]) == 0
    capsys.readouterr()
    assert main(["validate", path, "-n", "team-b"]) == 2
    assert capsys.readouterr().err == (
        f'error: {path}: metadata.namespace: the namespace from the provided object "team-a" does not match '
        "the namespace \"team-b\". You must pass '--namespace=team-a' to perform this operation.\n"
    )


def test_a_manifest_without_the_object_wanted_says_what_it_holds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cron_job, other = tmp_path / "cron.yaml", tmp_path / "other.yaml"
    cron_job.write_text(CRON_JOB)
    other.write_text("a: 1\n---\nkind: 3\n")
    assert main(["simulate", str(cron_job)]) == 2
    err = capsys.readouterr().err
    assert 'found 0 (it holds: a "CronJob"; `jobmodel cron simulate` runs a CronJob)' in err
    assert main(["simulate", str(other)]) == 2
    assert "(it holds: an object without a kind, an object of kind the integer 3)" in capsys.readouterr().err
    # Where a CronJob is what is wanted, no hint.
    job = tmp_path / "job.yaml"
    job.write_text(JOB)
    assert main(["cron", "simulate", str(job), *WINDOW]) == 2
    err = capsys.readouterr().err
    assert 'found 0 (it holds: a "Job")' in err and "runs a CronJob" not in err


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_prints_the_api_server_s_warnings_as_kubectl_does(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A manifest valid but warned of (a deprecated node label) runs, and its create's warning
    is on standard error once, as kubectl prints it on an apply; a manifest without any has none."""
    head, tail, text = COMMANDS[command]
    cron = command == "cron simulate"
    indent = " " * (10 if cron else 6)
    warned = text.replace(f"{indent}restartPolicy:", f"{indent}nodeSelector: {{beta.kubernetes.io/os: linux}}\n{indent}restartPolicy:")
    assert main([*head, _write(tmp_path, "warned.yaml", warned), *tail]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("Warning: ")]
    template = "spec.jobTemplate.spec.template" if cron else "spec.template"
    assert lines == [f'Warning: {template}.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead']
    assert main([*head, _write(tmp_path, "plain.yaml", text), *tail]) == 0
    assert "Warning:" not in capsys.readouterr().err
