"""A llama.cpp build that cannot run on this CPU, as issue 12 met it: for worker start tests.

It loads any model and decodes a few tokens, then dies of a real SIGSEGV (a NULL dereference in
native code, as llama_decode did with AVX-512 code on a CPU without it) on any longer decode.
Put its parent directory first on PYTHONPATH of the worker; it stands in for the native library
only, which a test cannot break on purpose. Everything else (worker, supervisor, daemon) is real.
"""

from __future__ import annotations

import ctypes
from typing import Any

CRASH_AFTER = 4  # tokens in one decode that still work


def _crash() -> None:
    ctypes.string_at(0)  # reads address 0: the kernel sends SIGSEGV


class Llama:
    def __init__(self, model_path: str, n_ctx: int, **_: Any) -> None:
        self.model = object()
        self.ctx = object()
        self.metadata = {"general.name": "broken build"}
        self.n_tokens = 0
        self.input_ids: list[int] = []

    def n_vocab(self) -> int:
        return 256

    def tokenize(self, text: bytes, add_bos: bool = False, special: bool = False) -> list[int]:
        return [len(word) % 255 + 1 for word in text.split()]  # a token a word, none the end

    def detokenize(self, tokens: list[int]) -> bytes:
        return b" ".join(b"w" * t for t in tokens)

    def reset(self) -> None:
        self.n_tokens = 0

    def eval(self, tokens: list[int]) -> None:
        if len(tokens) > CRASH_AFTER:
            _crash()
        self.input_ids = self.input_ids[: self.n_tokens] + list(tokens)
        self.n_tokens += len(tokens)

    def token_eos(self) -> int:
        return 0

    def close(self) -> None:
        pass


def llama_model_get_vocab(model: Any) -> Any:
    return model


class _Batch:
    def __init__(self, n: int) -> None:
        self.n_tokens = 0
        self.token = [0] * n
        self.pos = [0] * n
        self.n_seq_id = [0] * n
        self.seq_id = [[0] for _ in range(n)]
        self.logits = [False] * n


def llama_batch_init(n: int, embd: int, seqs: int) -> Any:
    return _Batch(n)


def llama_get_memory(ctx: Any) -> Any:
    return ctx


def llama_memory_seq_rm(memory: Any, seq: int, start: int, end: int) -> bool:
    return True


def llama_decode(ctx: Any, batch: _Batch) -> int:
    if batch.n_tokens > CRASH_AFTER:
        _crash()
    return 0


_LOGITS = (ctypes.c_float * 256)()


def llama_get_logits_ith(ctx: Any, i: int) -> Any:
    return ctypes.cast(_LOGITS, ctypes.POINTER(ctypes.c_float))


def llama_batch_free(batch: Any) -> None:
    pass


def llama_sampler_init_grammar(vocab: Any, grammar: bytes, root: bytes) -> Any:
    return object()


def llama_sampler_free(chain: Any) -> None:
    pass


def llama_vocab_is_eog(vocab: Any, token: int) -> bool:
    return token == 0


class llama_token_data(ctypes.Structure):  # llama_cpp's own names
    _fields_ = [("id", ctypes.c_int32), ("logit", ctypes.c_float), ("p", ctypes.c_float)]


class llama_token_data_array(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(llama_token_data)), ("size", ctypes.c_size_t),
                ("selected", ctypes.c_int64), ("sorted", ctypes.c_bool)]


def llama_sampler_apply(sampler: Any, candidates: Any) -> None:
    pass  # a grammar that allows every token


def llama_sampler_accept(sampler: Any, token: int) -> None:
    pass
