"""hermesctl's history and alarm output: a sparkline with gaps, CSV, the alarm table."""

from __future__ import annotations

import csv
import io

from hermesd.history.terminal import alarms_text, history_csv, sparkline


def test_the_sparkline_rises_with_the_mean_and_shows_a_gap_as_a_gap() -> None:
    series = [{"mean": v} for v in (0.0, 1.0, 2.0, None, 7.0)]
    assert sparkline(series) == "▁▂▃ █"
    assert sparkline([{"mean": 5.0}, {"mean": 5.0}]) == "▅▅"
    assert sparkline([{"mean": None}]) == ""


def test_csv_has_a_header_and_empty_cells_where_there_is_no_data() -> None:
    answer = {"status": "ok", "result": {"point": "temp", "unit": "°C", "series": [
        {"t": "2026-11-30T08:00:00.000Z", "min": 1.0, "max": 2.0, "mean": 1.5, "last": 2.0},
        {"t": "2026-11-30T08:01:00.000Z", "min": None, "max": None, "mean": None,
         "last": None}]}}
    rows = list(csv.reader(io.StringIO(history_csv(answer))))
    assert rows == [["time", "point", "min", "max", "mean", "last", "unit"],
                    ["2026-11-30T08:00:00.000Z", "temp", "1.0", "2.0", "1.5", "2.0", "°C"],
                    ["2026-11-30T08:01:00.000Z", "temp", "", "", "", "", "°C"]]


def test_the_alarm_table() -> None:
    answer = {"reply": "1 active alarm", "result": {"alarms": [
        {"id": "temp_high", "state": "active", "raised": "2026-11-30T08:00:05.000Z",
         "cleared": None, "acked": None, "message": "Boiler temperature high, 545 °C"}]}}
    lines = alarms_text(answer).splitlines()
    assert lines[0].split() == ["ID", "STATE", "RAISED", "CLEARED", "ACKED", "MESSAGE"]
    assert lines[1].split()[:5] == ["temp_high", "active", "2026-11-30", "08:00:05", "-"]
    assert lines[1].endswith("Boiler temperature high, 545 °C")
    assert alarms_text({"reply": "No active alarms.", "result": {"alarms": []}}) == \
        "No active alarms."


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_quoted_as_text() -> None:
    # a device's text value (or a unit) is not the exporter's to run: OWASP's CSV injection
    answer = {"status": "ok", "result": {"point": "batch", "unit": "@unit", "series": [
        {"t": "2026-11-30T08:00:00.000Z", "min": None, "max": None, "mean": None,
         "last": "=cmd|' /C calc'!A0"},
        {"t": "2026-11-30T08:01:00.000Z", "min": None, "max": None, "mean": None,
         "last": "+1+1"},
        {"t": "2026-11-30T08:02:00.000Z", "min": -5.0, "max": -1.0, "mean": -2.5,
         "last": -1.0}]}}
    rows = list(csv.reader(io.StringIO(history_csv(answer))))
    assert [r[5] for r in rows[1:]] == ["'=cmd|' /C calc'!A0", "'+1+1", "-1.0"]
    assert rows[3][2:5] == ["-5.0", "-1.0", "-2.5"]  # negative numbers stay numbers
    assert {r[6] for r in rows[1:]} == {"'@unit"}
