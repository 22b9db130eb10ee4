"""Whisper's mel filterbank, computed here instead of downloaded.

Whisper's front end uses the filters librosa makes by default for `sr=16000, n_fft=400,
n_mels=80`: the Slaney mel scale (linear below 1 kHz, logarithmic above), triangles between
neighbouring mel points, each scaled by 2 / (its width in Hz) so that every triangle has unit
area ("Slaney normalisation"). The ggml model file carries this matrix, so the converter
writes it.

The 82 mel points use Python's `math` (the C library), not numpy's vectorised log/exp, whose
results may differ in the last bit between CPUs; everything else is exactly rounded
arithmetic. So the produced model file is the same bytes on every machine, which lets us pin
its sha256. This module must never fetch anything.
"""

from __future__ import annotations

import math

import numpy as np

SAMPLE_RATE = 16000
N_FFT = 400
N_MELS = 80

_F_SP = 200.0 / 3  # Hz per mel on the linear part
_MIN_LOG_HZ = 1000.0
_MIN_LOG_MEL = _MIN_LOG_HZ / _F_SP  # 15
_LOGSTEP = math.log(6.4) / 27.0  # the log part: 27 mels per factor 6.4


def hz_to_mel(hz: float) -> float:
    """Slaney's mel scale (the default of librosa, not HTK's)."""
    if hz >= _MIN_LOG_HZ:
        return _MIN_LOG_MEL + math.log(hz / _MIN_LOG_HZ) / _LOGSTEP
    return hz / _F_SP


def mel_to_hz(mel: float) -> float:
    if mel >= _MIN_LOG_MEL:
        return _MIN_LOG_HZ * math.exp(_LOGSTEP * (mel - _MIN_LOG_MEL))
    return _F_SP * mel


def mel_filters(sr: int = SAMPLE_RATE, n_fft: int = N_FFT, n_mels: int = N_MELS) -> np.ndarray:
    """The [n_mels, 1 + n_fft // 2] float32 filterbank whisper expects."""
    if sr <= 0 or n_fft < 2 or n_mels < 1:
        raise ValueError(f"bad filterbank parameters sr={sr} n_fft={n_fft} n_mels={n_mels}")
    fft_freqs = np.fft.rfftfreq(n_fft, 1.0 / sr)  # bin centre frequencies, 0..sr/2
    top = hz_to_mel(sr / 2.0)
    mel_points = np.linspace(0.0, top, n_mels + 2)
    hz_points = np.array([mel_to_hz(float(m)) for m in mel_points])
    widths = np.diff(hz_points)
    ramps = hz_points[:, None] - fft_freqs[None, :]
    weights = np.zeros((n_mels, fft_freqs.size), dtype=np.float32)
    for i in range(n_mels):
        rising = -ramps[i] / widths[i]
        falling = ramps[i + 2] / widths[i + 1]
        weights[i] = np.maximum(0.0, np.minimum(rising, falling))
    # Slaney normalisation, applied to the float32 triangles as librosa does (same rounding)
    weights *= (2.0 / (hz_points[2:n_mels + 2] - hz_points[:n_mels]))[:, None]
    return weights
