"""`python -m rxt_tf_plugin setup <project>`: idempotent, keeps what is there."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rxt_tf_plugin.project_setup import SetupError, locate_sources, setup_project

ROOT = Path(__file__).resolve().parents[2]


def project(tmp_path: Path, rextio_toml: str = "[plugins]\nenabled = []\n") -> Path:
    (tmp_path / "rextio.toml").write_text(rextio_toml)
    return tmp_path


def cargo_config(path: Path) -> dict:  # type: ignore[type-arg]
    return tomllib.loads((path / ".cargo" / "config.toml").read_text())


def test_the_command_patches_cargo_and_enables_the_plugin(tmp_path: Path) -> None:
    proj = project(tmp_path)
    run = [sys.executable, "-m", "rxt_tf_plugin", "setup", str(proj)]
    first = subprocess.run(run, capture_output=True, text=True, check=True)
    assert "config.toml updated" in first.stdout
    assert cargo_config(proj) == {"patch": {"crates-io": {"rxt-tf": {"path": str(ROOT)}}}}
    assert tomllib.loads((proj / "rextio.toml").read_text())["plugins"]["enabled"] == ["rxt-tf"]
    before = [(p, p.read_text()) for p in (proj / "rextio.toml", proj / ".cargo/config.toml")]
    second = subprocess.run(run, capture_output=True, text=True, check=True)
    assert second.stdout.count("already up to date") == 2
    assert [(p, p.read_text()) for p, _ in before] == before


def test_existing_settings_are_kept(tmp_path: Path) -> None:
    proj = project(
        tmp_path,
        '[build]\nfallback = "cpython"\n\n[plugins]\n'
        'enabled = ["other"]  # keep\n\n[policy]\nx = 1\n',
    )
    (proj / ".cargo").mkdir()
    (proj / ".cargo" / "config.toml").write_text(
        '# mine\n[build]\njobs = 2\n\n[patch.crates-io]\nfoo = { path = "/src/foo" }\n'
        'rxt-tf = { path = "/old/place" }\n\n[net]\noffline = false\n'
    )
    with pytest.raises(SetupError, match=r"already pins rxt-tf to \{'path': '/old/place'\}"):
        setup_project(proj, str(ROOT))
    report = setup_project(proj, str(ROOT), force=True)
    assert report.replaced == ("rxt-tf = {'path': '/old/place'}",)
    assert report.cargo_config_changed and report.rextio_toml_changed
    config = cargo_config(proj)
    assert config["build"] == {"jobs": 2}
    assert config["net"] == {"offline": False}
    assert config["patch"]["crates-io"] == {
        "foo": {"path": "/src/foo"},
        "rxt-tf": {"path": str(ROOT)},
    }
    assert (proj / ".cargo" / "config.toml").read_text().startswith("# mine\n")
    rextio = tomllib.loads((proj / "rextio.toml").read_text())
    assert rextio["plugins"]["enabled"] == ["other", "rxt-tf"]
    assert 'enabled = ["other", "rxt-tf"]  # keep\n' in (proj / "rextio.toml").read_text()
    assert rextio["build"] == {"fallback": "cpython"} and rextio["policy"] == {"x": 1}


def test_missing_sections_are_appended(tmp_path: Path) -> None:
    proj = project(tmp_path, '[build]\nfallback = "cpython"')
    (proj / ".cargo").mkdir()
    (proj / ".cargo" / "config.toml").write_text("[build]\njobs = 2")
    setup_project(proj, str(ROOT))
    assert cargo_config(proj)["build"] == {"jobs": 2}
    assert cargo_config(proj)["patch"]["crates-io"]["rxt-tf"] == {"path": str(ROOT)}
    assert tomllib.loads((proj / "rextio.toml").read_text())["plugins"] == {"enabled": ["rxt-tf"]}


def test_invalid_files_are_left_untouched(tmp_path: Path) -> None:
    proj = project(tmp_path)
    (proj / ".cargo").mkdir()
    broken = "[patch.crates-io\nrxt-tf = 1\n"
    (proj / ".cargo" / "config.toml").write_text(broken)
    with pytest.raises(SetupError, match="not valid TOML"):
        setup_project(proj, str(ROOT))
    assert (proj / ".cargo" / "config.toml").read_text() == broken
    assert "rxt-tf" not in (proj / "rextio.toml").read_text()


def test_multiline_enabled_is_refused_not_corrupted(tmp_path: Path) -> None:
    text = '[plugins]\nenabled = [\n  "other",\n]\n'
    proj = project(tmp_path, text)
    with pytest.raises(SetupError, match="by hand"):
        setup_project(proj, str(ROOT))
    assert (proj / "rextio.toml").read_text() == text


def test_a_project_without_rextio_toml_is_refused(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "rxt_tf_plugin", "setup", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1
    assert "has no rextio.toml; run `rextio init` there first" in out.stderr
    assert not (tmp_path / ".cargo").exists()


def test_sources_must_be_the_rxt_tf_crate_at_the_plugins_version(tmp_path: Path) -> None:
    assert locate_sources() == ROOT
    with pytest.raises(SetupError, match=re.escape("no Cargo.toml")):
        locate_sources(str(tmp_path))
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "rxt-tf"\nversion = "9.9.9"\n')
    with pytest.raises(SetupError, match=re.escape("version '9.9.9'; this plugin needs 0.1.0")):
        locate_sources(str(tmp_path))
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "other"\nversion = "0.1.0"\n')
    with pytest.raises(SetupError, match="is not the rxt-tf package"):
        locate_sources(str(tmp_path))


def test_the_environment_variable_names_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RXT_TF_SOURCE", str(tmp_path))
    with pytest.raises(SetupError, match=r"\$RXT_TF_SOURCE"):
        locate_sources()
    monkeypatch.setenv("RXT_TF_SOURCE", str(ROOT))
    assert locate_sources() == ROOT


def test_line_endings_and_comments_are_kept(tmp_path: Path) -> None:
    proj = project(tmp_path, "[plugins]\r\nenabled = [] # none yet\r\n")
    (proj / ".cargo").mkdir()
    config = proj / ".cargo" / "config.toml"
    config.write_bytes(b'[patch."crates-io"]\r\nrxt-tf = { path = "/old" } # mine\r\n')
    setup_project(proj, str(ROOT), force=True)
    assert (proj / "rextio.toml").read_bytes() == (
        b'[plugins]\r\nenabled = ["rxt-tf"] # none yet\r\n'
    )
    expected = f'[patch."crates-io"]\r\nrxt-tf = {{ path = "{ROOT}" }} # mine\r\n'
    assert config.read_bytes() == expected.encode()


@pytest.mark.parametrize(
    "cargo",
    [
        # A header inside a multi-line string is not a table.
        'note = """\n[patch.crates-io]\n"""\n',
        # The entry as a sub-table or with dotted keys.
        '[patch.crates-io.rxt-tf]\npath = "/old"\n',
        '[patch.crates-io]\nrxt-tf.path = "/old"\n',
    ],
)
def test_forms_it_cannot_edit_safely_are_refused_untouched(tmp_path: Path, cargo: str) -> None:
    proj = project(tmp_path)
    (proj / ".cargo").mkdir()
    (proj / ".cargo" / "config.toml").write_text(cargo)
    refused = r"cannot edit .* safely; put `rxt-tf = .*` under \[patch.crates-io\] by hand"
    with pytest.raises(SetupError, match=refused):
        setup_project(proj, str(ROOT), force=True)
    assert (proj / ".cargo" / "config.toml").read_text() == cargo


def test_plugins_header_inside_a_string_is_refused(tmp_path: Path) -> None:
    text = 'doc = """\n[plugins]\n"""\n'
    proj = project(tmp_path, text)
    with pytest.raises(SetupError, match="safely"):
        setup_project(proj, str(ROOT))
    assert (proj / "rextio.toml").read_text() == text


def setup_cli(proj: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rxt_tf_plugin", "setup", str(proj), "--crate-path", str(ROOT)]
    return subprocess.run([*command, *extra], capture_output=True, text=True)


def one_line_error(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 1, out
    assert "Traceback" not in out.stderr
    [line] = out.stderr.splitlines()
    assert line.startswith("rxt-tf setup: "), line
    return line


def test_both_edits_or_neither(tmp_path: Path) -> None:
    proj = project(tmp_path, "[plugins\n")
    line = one_line_error(setup_cli(proj))
    assert "rextio.toml is not valid TOML" in line
    assert not (proj / ".cargo").exists()


def test_symbolic_links_are_edited_through(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "cargo.toml").write_text("[build]\njobs = 2\n")
    (shared / "rextio.toml").write_text("[plugins]\nenabled = []\n")
    proj = tmp_path / "proj"
    (proj / ".cargo").mkdir(parents=True)
    (proj / ".cargo" / "config.toml").symlink_to(shared / "cargo.toml")
    (proj / "rextio.toml").symlink_to(shared / "rextio.toml")
    setup_project(proj, str(ROOT))
    assert (proj / ".cargo" / "config.toml").is_symlink() and (proj / "rextio.toml").is_symlink()
    assert tomllib.loads((shared / "cargo.toml").read_text())["patch"]["crates-io"] == {
        "rxt-tf": {"path": str(ROOT)}
    }
    assert "rxt-tf" in (shared / "rextio.toml").read_text()


def test_file_modes_are_kept_and_read_only_files_refused(tmp_path: Path) -> None:
    proj = project(tmp_path)
    (proj / ".cargo").mkdir()
    config = proj / ".cargo" / "config.toml"
    config.write_text("[build]\njobs = 2\n")
    config.chmod(0o600)
    setup_project(proj, str(ROOT))
    assert config.stat().st_mode & 0o777 == 0o600
    (tmp_path / "other").mkdir()
    other = project(tmp_path / "other")
    (other / "rextio.toml").chmod(0o444)
    line = one_line_error(setup_cli(other))
    assert "rextio.toml is read-only" in line
    assert (other / "rextio.toml").read_text() == "[plugins]\nenabled = []\n"
    assert not (other / ".cargo").exists()


def test_another_pin_is_replaced_only_with_force(tmp_path: Path) -> None:
    proj = project(tmp_path)
    (proj / ".cargo").mkdir()
    pinned = '[patch.crates-io]\nrxt-tf = { git = "https://example.org/fork", rev = "abc" }\n'
    (proj / ".cargo" / "config.toml").write_text(pinned)
    line = one_line_error(setup_cli(proj))
    assert "already pins rxt-tf to" in line and "pass --force to replace it" in line
    assert (proj / ".cargo" / "config.toml").read_text() == pinned
    assert "rxt-tf" not in (proj / "rextio.toml").read_text()
    out = setup_cli(proj, "--force")
    assert out.returncode == 0, out.stderr
    assert (
        "replaced the pin rxt-tf = {'git': 'https://example.org/fork', 'rev': 'abc'}" in out.stdout
    )
    assert cargo_config(proj)["patch"]["crates-io"] == {"rxt-tf": {"path": str(ROOT)}}


def test_a_legacy_cargo_config_is_the_one_edited(tmp_path: Path) -> None:
    proj = project(tmp_path)
    (proj / ".cargo").mkdir()
    (proj / ".cargo" / "config").write_text("[build]\njobs = 2\n")
    report = setup_project(proj, str(ROOT))
    assert report.cargo_config == proj / ".cargo" / "config"
    assert not (proj / ".cargo" / "config.toml").exists()
    legacy = tomllib.loads((proj / ".cargo" / "config").read_text())
    assert legacy["patch"]["crates-io"] == {"rxt-tf": {"path": str(ROOT)}}


def test_an_unwritable_cargo_folder_is_a_one_line_error(tmp_path: Path) -> None:
    proj = project(tmp_path)
    (proj / ".cargo").write_text("not a folder")
    line = one_line_error(setup_cli(proj))
    assert ".cargo" in line


def test_a_dry_run_shows_the_change_and_writes_nothing(tmp_path: Path) -> None:
    proj = project(tmp_path)
    out = setup_cli(proj, "--dry-run")
    assert out.returncode == 0, out.stderr
    assert f'+rxt-tf = {{ path = "{ROOT}" }}' in out.stdout
    assert '-enabled = []\n+enabled = ["rxt-tf"]' in out.stdout
    assert not (proj / ".cargo").exists()
    assert (proj / "rextio.toml").read_text() == "[plugins]\nenabled = []\n"
