"""The computed mel filterbank against whisper's (librosa's Slaney filters) and what they must be."""

from __future__ import annotations

import numpy as np
import pytest

from hermesd.models.mel import hz_to_mel, mel_filters, mel_to_hz

#: entries of librosa.filters.mel(sr=16000, n_fft=400, n_mels=80) as published in test suites of
#: other whisper front ends ([mel bin, FFT bin, value]); the values are float32s written out
REFERENCE = [(0, 1, 0.02486259490251541), (1, 1, 0.001990821911022067),
             (1, 2, 0.022871771827340126), (2, 2, 0.003981643822044134),
             (2, 3, 0.02088095061480999), (9, 10, 0.006945197004824877),
             (39, 41, 0.011486922390758991), (69, 131, 0.00487553421407938),
             (79, 190, 0.0022320549469441175), (79, 192, 0.0031647116411477327),
             (79, 199, 0.0004487590049393475)]
ROW_SUMS = {0: 0.024862593984176, 40: 0.026664860534783, 79: 0.024925339738859}


def test_matches_whispers_filterbank_entries() -> None:
    f = mel_filters()
    assert f.shape == (80, 201) and f.dtype == np.float32
    for i, j, value in REFERENCE:
        # exact for all but one entry, where the published references differ by one float32 ulp
        assert float(f[i, j]) == pytest.approx(value, rel=1e-7), (i, j)
    for i, total in ROW_SUMS.items():
        assert float(f[i].sum(dtype=np.float64)) == pytest.approx(total, rel=1e-7)
    assert float(f.sum(dtype=np.float64)) == pytest.approx(1.999024, rel=1e-6)


def test_each_filter_is_a_triangle_of_unit_area() -> None:
    f = mel_filters().astype(np.float64)
    assert (f >= 0).all()
    bin_hz = 16000 / 400
    for i, row in enumerate(f):
        support = np.flatnonzero(row)
        assert support.size and (np.diff(support) == 1).all(), i  # one contiguous run
        peak = int(np.argmax(row))
        assert (np.diff(row[support[0]:peak + 1]) >= 0).all()  # rises, then falls
        assert (np.diff(row[peak:support[-1] + 1]) <= 0).all()
        lower, upper = mel_to_hz(i * _step()), mel_to_hz((i + 2) * _step())
        if upper - lower > 4 * bin_hz:  # wide enough for the sampled area to be the area
            assert row.sum() * bin_hz == pytest.approx(1.0, rel=0.02), i


def test_centres_follow_the_slaney_scale() -> None:
    f = mel_filters()
    bin_hz = 16000 / 400
    for i in (5, 20, 40, 60, 79):
        centre = mel_to_hz((i + 1) * _step())
        assert abs(int(np.argmax(f[i])) * bin_hz - centre) <= bin_hz, i
    # linear below 1 kHz (200/3 Hz per mel), logarithmic above: 27 mels per factor 6.4
    assert hz_to_mel(1000.0) == pytest.approx(15.0)
    assert hz_to_mel(500.0) == pytest.approx(7.5)
    assert hz_to_mel(6400.0) - hz_to_mel(1000.0) == pytest.approx(27.0)
    assert mel_to_hz(hz_to_mel(3210.0)) == pytest.approx(3210.0)


def test_the_same_bytes_every_time() -> None:
    assert mel_filters().tobytes() == mel_filters().tobytes()
    assert mel_filters(n_mels=128).shape == (128, 201)
    with pytest.raises(ValueError, match="bad filterbank parameters"):
        mel_filters(n_mels=0)


def _step() -> float:
    return hz_to_mel(8000.0) / 81  # 82 points from 0 to the Nyquist frequency
