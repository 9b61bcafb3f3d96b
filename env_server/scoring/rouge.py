"""Our ROUGE-L implementations.

Two flavours, because the two WildToolBench scorers used two different libraries:

* :func:`summary_rouge_l` reproduces the *behaviour* of the summary-level ROUGE-L that the
  current argument checker calls (doc 5.2): the text is cut into "sentences" on every ``.``,
  sentences into words on single spaces, words are compared case-sensitively with punctuation
  attached, and unique LCS tokens are unioned across sentences. Each quirk sits behind a flag so
  the lenient variant can be compared.
* :func:`token_rouge_l` is plain token-level ROUGE-L F1 (one LCS over token lists), used by the
  paper-era soft grader (doc 6.2) and by UniToolCall's semantic fallback.

CJK text: the official code segments Chinese with jieba before scoring. We have no segmenter and
treat every CJK character as its own word instead; this is a documented deviation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

CJK = re.compile(r"[\u4e00-\u9fa5]")
_TOKEN = re.compile(r"[\u4e00-\u9fa5]|[^\W\u4e00-\u9fa5]+|[^\w\s]", re.UNICODE)


class RougeError(ValueError):
    """ROUGE is undefined for the input (an empty side), mirroring the reference's exception."""


@dataclass(frozen=True, kw_only=True)
class RougeQuirks:
    """Switches for the reference behaviour; all True reproduces the official checker."""

    split_sentences_on_dots: bool = True
    case_sensitive: bool = True


def has_cjk(text: str) -> bool:
    return CJK.search(text) is not None


def segment_cjk(text: str) -> str:
    """Space-separate CJK characters (our stand-in for jieba), leaving other text as it is."""
    return " ".join(CJK.sub(lambda m: f" {m.group(0)} ", text).split())


def lcs_table(x: Sequence[str], y: Sequence[str]) -> list[list[int]]:
    table = [[0] * (len(y) + 1) for _ in range(len(x) + 1)]
    for i in range(1, len(x) + 1):
        for j in range(1, len(y) + 1):
            if x[i - 1] == y[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table


def lcs_tokens(x: Sequence[str], y: Sequence[str]) -> list[str]:
    """One longest common subsequence, reconstructed from the end (ties move along ``y``)."""
    table = lcs_table(x, y)
    i, j, out = len(x), len(y), []
    while i > 0 and j > 0:
        if x[i - 1] == y[j - 1]:
            out.append(x[i - 1])
            i, j = i - 1, j - 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return out[::-1]


def _sentences(text: str, quirks: RougeQuirks) -> list[list[str]]:
    if not quirks.case_sensitive:
        text = text.lower()
    parts = text.split(".") if quirks.split_sentences_on_dots else [text]
    return [" ".join(p.split()).split(" ") for p in parts if len(p) > 0]


def summary_rouge_l(prediction: str, reference: str, quirks: RougeQuirks | None = None) -> float:
    """Summary-level ROUGE-L F with unique-token union LCS (the current checker's metric).

    Raises :class:`RougeError` when either side has no sentence (for example an empty string).
    """
    quirks = quirks or RougeQuirks()
    hyp = _sentences(prediction, quirks)
    ref = _sentences(reference, quirks)
    if not hyp or not ref:
        raise RougeError("both texts need at least one sentence")
    m = len({w for s in ref for w in s})
    n = len({w for s in hyp for w in s})
    union: set[str] = set()
    hits = 0
    for ref_words in ref:
        before = len(union)
        for hyp_words in hyp:
            union |= set(lcs_tokens(ref_words, hyp_words))
        hits += len(union) - before
    recall, precision = hits / m, hits / n
    return 2.0 * (precision * recall) / (precision + recall + 1e-8)


def tokenize(text: str, *, lowercase: bool = False) -> list[str]:
    """Word tokens: runs of letters/digits, single CJK characters, single punctuation marks."""
    if lowercase:
        text = text.lower()
    return _TOKEN.findall(text)


def token_rouge_l(prediction: str, reference: str, *, lowercase: bool = False) -> float:
    """Token-level ROUGE-L F1 (0.0 when either side has no tokens)."""
    hyp, ref = tokenize(prediction, lowercase=lowercase), tokenize(reference, lowercase=lowercase)
    if not hyp or not ref:
        return 0.0
    lcs = lcs_table(ref, hyp)[len(ref)][len(hyp)]
    if lcs == 0:
        return 0.0
    precision, recall = lcs / len(hyp), lcs / len(ref)
    return 2 * precision * recall / (precision + recall)
