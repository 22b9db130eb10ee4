"""scripts/install laid out under a scratch root: venv, config kept, unit, uninstall."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).parents[1]
INSTALL = ROOT / "scripts" / "install"


def _install(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(INSTALL), "--root", str(root), *args], capture_output=True,
                          text=True, timeout=600, check=False)


def test_install_upgrade_and_uninstall(tmp_path: Path) -> None:
    root = tmp_path / "root"
    done = _install(root, "--extras", "none", "--no-models")
    assert done.returncode == 0, done.stderr
    venv = root / "opt/hermesd/venv"
    config = root / "etc/hermesd/hermesd.yaml"
    assert "state_dir: /var/lib/hermesd" in config.read_text()
    assert "runtime_dir: /run/hermesd" in config.read_text()
    check = subprocess.run([str(venv / "bin/hermesd"), "--check-config", str(config)],
                           capture_output=True, text=True, timeout=60, check=False)
    assert check.returncode == 0, check.stderr
    # the installed (not editable) package holds every module of the source tree
    site = next(venv.glob("lib/python3*/site-packages"))
    for package, source in (("hermesd", ROOT / "hermesd"),
                            ("hermes_tools", ROOT / "tools/hermes_tools")):
        missing = [str(p.relative_to(source)) for p in source.rglob("*.py")
                   if not (site / package / p.relative_to(source)).exists()]
        assert missing == [], f"{package}: not installed: {missing}"
    unit = root / "etc/systemd/system/hermesd.service"
    assert unit.read_text() == (ROOT / "systemd/hermesd.service").read_text()
    memory = (root / "etc/systemd/system/hermesd.service.d/memory.conf").read_text()
    assert "MemoryMax=" in memory and "MemoryHigh=" in memory

    # an edited config survives a second install; the new example goes beside it
    config.write_text(config.read_text() + "# edited on site\n")
    done = _install(root, "--extras", "none", "--no-models")
    assert done.returncode == 0, done.stderr
    assert config.read_text().endswith("# edited on site\n")
    assert (root / "etc/hermesd/hermesd.yaml.example").exists()

    # uninstall keeps config and data; purge removes them
    (root / "var/lib/hermesd/lkv.json").write_text("{}")
    done = _install(root, "--uninstall")
    assert done.returncode == 0, done.stderr
    assert not venv.exists() and not unit.exists()
    assert config.exists() and (root / "var/lib/hermesd/lkv.json").exists()
    done = _install(root, "--uninstall", "--purge")
    assert done.returncode == 0, done.stderr
    assert not config.exists() and not (root / "var/lib/hermesd").exists()


def test_install_refuses_unknown_options(tmp_path: Path) -> None:
    done = _install(tmp_path, "--frobnicate")
    assert done.returncode == 64
    assert "unknown option --frobnicate" in done.stderr


def test_offline_install_from_a_wheelhouse(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    built = subprocess.run([str(ROOT / "scripts/build-wheelhouse"), "--extras", "none",
                            "--no-models", str(wheels)], capture_output=True, text=True,
                           timeout=600, check=False)
    assert built.returncode == 0, built.stderr
    assert any(p.name.startswith("hermesd-") for p in wheels.glob("*.whl"))
    root = tmp_path / "root"
    done = _install(root, "--wheelhouse", str(wheels), "--extras", "none", "--no-models")
    assert done.returncode == 0, done.stderr
    venv = root / "opt/hermesd/venv"
    check = subprocess.run([str(venv / "bin/hermesd"), "--check-config",
                            str(root / "etc/hermesd/hermesd.yaml")],
                           capture_output=True, text=True, timeout=60, check=False)
    assert check.returncode == 0, check.stderr
