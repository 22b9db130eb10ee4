"""The loaded model: load, evaluate the prompt prefix once, complete a command under a grammar.

One `Engine` owns one llama.cpp model and context and is used from one thread only (the worker's
engine thread). The prompt prefix (system text, point catalogue, examples) is evaluated once;
a completion evaluates only the tokens after the longest prefix it shares with what the context
already holds, so each command pays for its own words. Text from a request is tokenized with
special tokens disabled: a command cannot smuggle chat markup into the prompt. A grammar that
llama.cpp cannot parse is refused before sampling.
"""

from __future__ import annotations

import ctypes
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

N_BATCH = 512
SCORE_BATCH = 64  # tokens of one option scored in one decode
TOP = 64  # the best tokens the grammar judges first when sampling
#: tokens of a guessed line at most: each keeps a row of logits (n_vocab floats, ~0.6 MB), and
#: two long lines sharing a prefix once held 300 MB; the router's lines are a few tokens
MAX_GUESS = 32
#: llama_token_data as numpy lays it out: the array the grammar sampler marks
TOKEN_DATA = [("id", "<i4"), ("logit", "<f4"), ("p", "<f4")]
#: the warm-up: a command of the length people give, with the chat markup a request carries.
#: A llama.cpp built for another CPU survives loading and a few tokens, then dies in llama_decode
#: (SIGSEGV, SIGILL) on anything longer; this makes it die at start, where it is counted, and
#: not on the first person's request.
WARM_UP = ("what is the temperature of boiler 3 right now, and is feed pump 1 still running at "
           "1500 rpm or did somebody set it back to 1200 rpm this morning? also read the feed "
           "water tank level and the pressure in the main steam header, please")
WARM_UP_TAIL = "<|im_end|>\n<|im_start|>assistant\n"
WARM_UP_GRAMMAR = 'root ::= "respond " ("out_of_scope" | "not_understood")\n'


@dataclass(frozen=True)
class Part:
    """A piece of a prompt: our own chat markup (special tokens allowed) or plain text."""

    text: str
    markup: bool = False

    @classmethod
    def from_dict(cls, obj: dict[str, Any]) -> Part:
        return cls(str(obj["text"]), bool(obj.get("markup", False)))


@dataclass
class Completion:
    text: str
    finish_reason: str  # stop | length | deadline
    prompt_tokens: int  # tokens of prefix + suffix
    evaluated_tokens: int  # of those, evaluated now (the rest was reused)
    generated_tokens: int
    eval_ms: float
    generate_ms: float

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "finish_reason": self.finish_reason,
                "prompt_tokens": self.prompt_tokens, "evaluated_tokens": self.evaluated_tokens,
                "generated_tokens": self.generated_tokens, "eval_ms": round(self.eval_ms, 2),
                "generate_ms": round(self.generate_ms, 2)}


class GrammarError(ValueError):
    """A grammar llama.cpp cannot parse."""


class PrefixTooLong(ValueError):
    """The prompt prefix leaves no room for a command in the context."""


class Engine:
    def __init__(self, path: Path, *, threads: int, context: int) -> None:
        import llama_cpp

        self._lib = llama_cpp
        self.llm = llama_cpp.Llama(
            model_path=str(path), n_ctx=context, n_batch=N_BATCH, n_threads=threads,
            n_threads_batch=threads, use_mmap=False, verbose=False)
        self.vocab = llama_cpp.llama_model_get_vocab(self.llm.model)
        self.name = str(self.llm.metadata.get("general.name", path.name))
        self.context = context
        self.prefix: list[int] = []
        self.n_vocab = int(self.llm.n_vocab())
        self.warmed = False  # warm_up() has decoded a realistic prompt on this engine
        #: tokens the context holds from the last completion (prefix, suffix and more), which
        #: a completion of the same command may reuse (`complete(reuse_tail=True)`); 0 when
        #: anything else has used the context since
        self._held = 0
        self._batch = llama_cpp.llama_batch_init(SCORE_BATCH, 0, 1)
        self._gen_batch = llama_cpp.llama_batch_init(N_BATCH, 0, 1)

    def close(self) -> None:
        self._lib.llama_batch_free(self._batch)
        self._lib.llama_batch_free(self._gen_batch)
        self.llm.close()

    # -- prompts -----------------------------------------------------------------------------

    def tokens(self, parts: Sequence[Part]) -> list[int]:
        out: list[int] = []
        for part in parts:
            out.extend(self.llm.tokenize(part.text.encode(), add_bos=False, special=part.markup))
        return out

    def prepare(self, parts: Sequence[Part]) -> int:
        """Evaluate the stable prefix now, so every completion starts from it."""
        tokens = self.tokens(parts)
        if len(tokens) >= self.context - 64:
            raise PrefixTooLong(f"the prompt prefix is {len(tokens)} tokens; the context "
                                f"holds {self.context} (raise llm.context or shorten names)")
        self.llm.reset()  # type: ignore[no-untyped-call]
        self._held = 0
        self.llm.eval(tokens)
        self.prefix = tokens
        return len(tokens)

    def warm_up(self) -> int:
        """Decode a realistic prompt and a few tokens under a grammar, as a request would, then
        forget them (the next command starts from the prefix). Returns the tokens decoded."""
        room = self.context - len(self.prefix) - 16  # _evaluate keeps 8 spare; 2 generated
        words = WARM_UP.split()
        while words:
            parts = [Part(" ".join(words)), Part(WARM_UP_TAIL, markup=True)]
            if len(self.tokens(parts)) <= room:
                break
            words = words[: len(words) * 3 // 4]  # a small context: a shorter command
        if not words:  # prepare() refuses a prefix that leaves no room: unreachable
            raise ValueError(f"no room in a context of {self.context} tokens to warm up")
        done = self.complete(parts, grammar=WARM_UP_GRAMMAR, max_tokens=2,
                             deadline=time.monotonic() + 120)
        self.llm.n_tokens = len(self.prefix)
        self._held = 0
        self.warmed = True
        return done.evaluated_tokens + done.generated_tokens

    def _evaluate(self, suffix: list[int], *, reuse: bool) -> tuple[int, int]:
        """Bring the context to prefix + suffix; returns (prompt tokens, tokens evaluated)."""
        self._held = 0
        full = self.prefix + suffix
        if len(full) + 8 > self.context:
            raise ValueError(f"the prompt is {len(full)} tokens; the context holds {self.context}")
        if reuse:
            same = self._reused(full)
        else:
            same = 0
            self.llm.reset()  # type: ignore[no-untyped-call]
        self.llm.n_tokens = same
        self.llm.eval(full[same:])
        return len(full), len(full) - same

    # -- completion --------------------------------------------------------------------------

    def complete(self, suffix: Sequence[Part], *, grammar: str | None, max_tokens: int,
                 deadline: float, reuse: bool = True, reuse_tail: bool = False,
                 choices: Sequence[str] = ()) -> Completion:
        """Greedy completion under `grammar`. With `choices` (the lines the grammar admits, the
        likeliest first), generation stops as soon as only one of them is still possible (its
        remaining tokens are forced, so decoding them would only cost time), and the first
        line's tokens up to that point are guessed: decoded in the same batch as the command,
        then checked token by token against what the model picks. A right guess saves a decode
        per token (a decode of one token costs about as much as a batch of three); a wrong one
        costs its batch rows, and generation goes on from the first token that differed. The
        answer is the model's greedy choice either way. `reuse_tail`: the same command asked
        again (another grammar): what the last completion decoded of it is reused too, and only
        its last token is decoded again for fresh logits."""
        rule = None
        if grammar:
            rule = self._lib.llama_sampler_init_grammar(self.vocab, grammar.encode(), b"root")
            if not rule:
                raise GrammarError("llama.cpp could not parse the grammar")
        try:
            started = time.perf_counter()
            guess = self._guess(choices, max_tokens) if choices else []
            prompt_tokens, evaluated, rows = self._evaluate_then(self.tokens(suffix), guess,
                                                                 reuse=reuse, tail=reuse_tail)
            answer = prompt_tokens  # the position of the answer's first token
            evaluated_at = time.perf_counter()
            out: list[int] = []
            finish = "length"
            decided: str | None = None
            while len(out) < max_tokens:
                token = self._pick(rows[len(out)], rule)
                if self._lib.llama_vocab_is_eog(self.vocab, token):
                    finish = "stop"
                    break
                out.append(token)
                if choices:
                    so_far = self.llm.detokenize(out).decode("utf-8", errors="replace")
                    left = [c for c in choices if c.startswith(so_far)]
                    if len(left) == 1:
                        decided = left[0]
                        finish = "stop"
                        break
                if time.monotonic() > deadline:
                    finish = "deadline"
                    break
                if len(out) < len(rows):
                    if token == guess[len(out) - 1]:
                        continue  # guessed right: its logits are already there
                    rows = rows[:len(out)]  # the rest of the guess is not what the model says
                rows.append(self._decode_one(token, answer + len(out) - 1))
            done = time.perf_counter()
        finally:
            if rule is not None:
                self._lib.llama_sampler_free(rule)
            # the next command starts from the prefix (if the context still holds it); the
            # same command asked again may start from all of it
            self._held = int(self.llm.n_tokens)
            self.llm.n_tokens = min(self.llm.n_tokens, len(self.prefix))
        text = decided if decided is not None else \
            self.llm.detokenize(out).decode("utf-8", errors="replace")
        return Completion(text, finish, prompt_tokens, evaluated, len(out),
                          (evaluated_at - started) * 1000, (done - evaluated_at) * 1000)

    def _guess(self, choices: Sequence[str], max_tokens: int) -> list[int]:
        """The tokens of the first (likeliest) choice that would have to be decoded to reach
        the token that tells it from every other choice (that one is sampled, not decoded)."""
        toks = self.llm.tokenize(choices[0].encode(), add_bos=False, special=False)
        toks = toks[:min(max_tokens - 1, MAX_GUESS)]  # each guessed token keeps a logits row
        for n in range(1, len(toks) + 1):
            said = self.llm.detokenize(toks[:n]).decode("utf-8", errors="replace")
            if sum(c.startswith(said) for c in choices) == 1:
                return toks[:n - 1]
        return toks  # a prefix of another choice: up to its end

    def _evaluate_then(self, suffix: list[int], guess: list[int], *, reuse: bool,
                       tail: bool = False) -> tuple[int, int, list[Any]]:
        """Bring the context to prefix + suffix + guess, in one decode when it is under
        `N_BATCH` tokens; (prompt tokens, tokens evaluated, the logits after the suffix and
        after each guessed token)."""
        full = self.prefix + suffix
        if len(full) + len(guess) + 8 > self.context:
            raise ValueError(f"the prompt is {len(full)} tokens; the context holds {self.context}")
        same = self._reused(full, tail=tail) if reuse else 0
        self._held = 0
        todo = full[same:] + guess
        lib = self._lib
        lib.llama_memory_seq_rm(lib.llama_get_memory(self.llm.ctx), -1, same, -1)
        self.llm.n_tokens = same
        want = len(guess) + 1  # rows with logits: the last suffix token and every guess
        cut = max(0, len(todo) - N_BATCH)  # the last batch holds every row wanted
        for start in range(0, cut, N_BATCH):
            self._decode(todo[start:min(start + N_BATCH, cut)], N_BATCH)
        last = todo[cut:]
        self._decode(last, len(last) - want)
        return len(full), len(full) - same, [self._row(len(last) - want + i)
                                             for i in range(want)]

    def _reused(self, full: list[int], *, tail: bool = False) -> int:
        """How many tokens of the prepared prefix the context still holds. Only the prefix is
        reused, never the tail of the previous command: a command then costs the same whether
        or not it repeats the last one, and at least one token is evaluated for fresh logits.
        With `tail` (the same command asked again) all that the last completion left matching
        is reused, up to the suffix's last token."""
        ids = self.llm.input_ids
        limit = min(self._held, len(full) - 1) if tail and self._held else \
            min(self.llm.n_tokens, len(self.prefix), len(full) - 1)
        same = 0
        while same < limit and ids[same] == full[same]:
            same += 1
        return same

    def _decode(self, toks: list[int], first_row: int) -> None:
        """Decode `toks` after what the context holds; logits for the rows from `first_row`."""
        pos = self.llm.n_tokens
        batch = _filled(self._gen_batch, toks, pos, first_row)
        if self._lib.llama_decode(self.llm.ctx, batch) != 0:
            raise RuntimeError("llama_decode failed")
        self.llm.input_ids[pos:pos + len(toks)] = toks
        self.llm.n_tokens = pos + len(toks)

    def _decode_one(self, token: int, pos: int) -> Any:
        """Decode one generated token at `pos` (dropping what the context held from there);
        the logits after it."""
        lib = self._lib
        lib.llama_memory_seq_rm(lib.llama_get_memory(self.llm.ctx), -1, pos, -1)
        self.llm.n_tokens = pos
        self._decode([token], 0)
        return self._row(0)

    def _row(self, i: int) -> Any:
        import numpy as np

        return np.ctypeslib.as_array(self._lib.llama_get_logits_ith(self.llm.ctx, i),
                                     shape=(self.n_vocab,)).copy()

    def _pick(self, logits: Any, rule: Any) -> int:
        """The greedy token under `rule` (a grammar sampler), as llama.cpp's grammar + greedy
        chain picks it, but the grammar judges only the best `TOP` tokens first: the best of
        those it allows is the best of all it allows. Only when it allows none of them does it
        judge the whole vocabulary (which is what costs: ~150k tokens against the grammar)."""
        import numpy as np

        if rule is None:
            return int(np.argmax(logits))
        top = np.sort(np.argpartition(logits, -TOP)[-TOP:])  # id order: ties go to the lowest
        token = self._allowed_best(top, logits[top], rule)
        if token is None:
            token = self._allowed_best(np.arange(self.n_vocab), logits, rule)
        if token is None:
            raise RuntimeError("the grammar allows no token")
        if not self._lib.llama_vocab_is_eog(self.vocab, token):
            self._lib.llama_sampler_accept(rule, token)
        return token

    def _allowed_best(self, ids: Any, logits: Any, rule: Any) -> int | None:
        import numpy as np

        lib = self._lib
        data = np.empty(len(ids), dtype=TOKEN_DATA)
        data["id"] = ids
        data["logit"] = logits
        data["p"] = 0.0
        array = lib.llama_token_data_array(
            data.ctypes.data_as(ctypes.POINTER(lib.llama_token_data)), len(ids), -1, False)
        lib.llama_sampler_apply(rule, ctypes.byref(array))
        kept = data["logit"]
        if not np.isfinite(kept).any():
            return None
        return int(data["id"][int(np.argmax(np.where(np.isfinite(kept), kept, -np.inf)))])

    def score(self, suffix: Sequence[Part], options: Sequence[str], *,
              reuse: bool = True) -> tuple[list[float | None], Completion]:
        """Log-likelihood of each option as the whole answer after prefix + suffix.

        The sum of the log-probabilities of its tokens and of the end of turn; None for an
        option that cannot be scored (no tokens, or more than one batch of them: JSON has no
        -inf). Each option is decoded as one batch from the shared prompt (the context is
        rewound between them).
        """
        import numpy as np

        started = time.perf_counter()
        prompt_tokens, evaluated = self._evaluate(self.tokens(suffix), reuse=reuse)
        evaluated_at = time.perf_counter()
        base = self.llm.n_tokens
        first = _logsoftmax(np.ctypeslib.as_array(
            self._lib.llama_get_logits_ith(self.llm.ctx, -1), shape=(self.n_vocab,)).copy())
        eot = int(self.llm.token_eos())
        scores: list[float | None] = []
        decoded = 0
        for option in options:
            toks = self.llm.tokenize(option.encode(), add_bos=False, special=False)
            if not toks or len(toks) > SCORE_BATCH:
                scores.append(None)
                continue
            rows = self._decode_rows(toks, base)
            decoded += len(toks)
            total = float(first[toks[0]])
            for j in range(len(toks)):
                nxt = toks[j + 1] if j + 1 < len(toks) else eot
                total += float(_logsoftmax(rows[j])[nxt])
            scores.append(total)
        self.llm.n_tokens = base
        self._lib.llama_memory_seq_rm(self._lib.llama_get_memory(self.llm.ctx), 0, base, -1)
        done = time.perf_counter()
        return scores, Completion("", "stop", prompt_tokens, evaluated, decoded,
                                  (evaluated_at - started) * 1000, (done - evaluated_at) * 1000)

    def _decode_rows(self, toks: list[int], pos: int) -> Any:
        """Decode `toks` at positions pos.. in one batch; the logits after each token."""
        import numpy as np

        lib = self._lib
        lib.llama_memory_seq_rm(lib.llama_get_memory(self.llm.ctx), 0, pos, -1)
        batch = _filled(self._batch, toks, pos, 0)
        if lib.llama_decode(self.llm.ctx, batch) != 0:
            raise RuntimeError("llama_decode failed while scoring")
        return np.stack([np.ctypeslib.as_array(lib.llama_get_logits_ith(self.llm.ctx, i),
                                               shape=(self.n_vocab,)) for i in range(len(toks))])


def _logsoftmax(logits: Any) -> Any:
    import numpy as np

    shifted = logits - np.max(logits)
    return shifted - np.log(np.sum(np.exp(shifted)))


def _filled(batch: Any, toks: list[int], pos: int, first_row: int) -> Any:
    """`batch` holding `toks` at positions pos.. of the one sequence, with logits for the rows
    from `first_row`."""
    batch.n_tokens = len(toks)
    for i, tok in enumerate(toks):
        batch.token[i] = tok
        batch.pos[i] = pos + i
        batch.n_seq_id[i] = 1
        batch.seq_id[i][0] = 0
        batch.logits[i] = i >= first_row
    return batch
