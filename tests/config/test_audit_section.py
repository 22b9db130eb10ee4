"""The audit section of the config: retention and audit.jsonl's size, validated like the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from hermesd.config import load_config
from hermesd.config.operations import Audit
from hermesd.core.errors import ConfigError


def _load(tmp_path: Path, audit: Any) -> Any:
    path = tmp_path / "c.yaml"
    data: dict[str, Any] = {"node": {"id": "n1"}, "devices": {}}
    if audit is not None:
        data["audit"] = audit
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return load_config(path)


def test_defaults_keep_the_trail_400_days(tmp_path: Path) -> None:
    assert _load(tmp_path, None).audit == Audit(400 * 86400.0, 10 * 1024 * 1024, 5)


def test_valid_audit_settings(tmp_path: Path) -> None:
    audit = _load(tmp_path, {"retention": "730d", "log_size": "64K", "log_files": 2}).audit
    assert audit == Audit(730 * 86400.0, 64 * 1024, 2)


def test_invalid_audit_settings_are_all_reported(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, {"retention": "2h", "log_size": "10", "log_files": 0, "keep": 3})
    assert sorted(caught.value.lines()) == [
        "config error: audit.keep: unknown key; valid keys: log_files, log_size, retention",
        "config error: audit.log_files: 0 is out of range 1..100",
        "config error: audit.log_size: '10' is not a size like 10M or 512K",
        "config error: audit.retention: 2h is out of range 86400s..10 years",
    ]


@pytest.mark.parametrize(("value", "expected"), [
    ("2G", "config error: audit.log_size: 2G is out of range 64K..1G"),
    ("1K", "config error: audit.log_size: 1K is out of range 64K..1G"),
    (1000, "config error: audit.log_size: expected a size like 10M or 512K, got the number 1000"),
])
def test_log_size_bounds(tmp_path: Path, value: Any, expected: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, {"log_size": value})
    assert caught.value.lines() == [expected]
