"""The plant's memory: every point's changes in an embedded store, questions about the past,
and alarms (see hermesd/history/component.py for how the parts fit)."""
