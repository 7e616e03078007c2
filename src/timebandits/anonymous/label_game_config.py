"""The label-stream games of Fig. 5 (Wang, Wang & Huang, AAAI 2021, §5.2) as the paper config
gives them: which experiments are games, their checked delays and their labels.

A game's ``environment`` is ``{stream, extend, delays}``: ``stream`` a streams.py spec, ``extend``
what happens when the stream is shorter than the horizon (``stop``: an error; ``cycle``: it
repeats), and ``delays`` ``{adversary: non_oblivious, d}`` (Fig. 5a, b) or ``{adversary:
oblivious, d, low, high}`` (Fig. 5c, d), d the interval bound Theorem 2 and CLW use; the
adversaries are adversarial.py's.
"""

from __future__ import annotations

import numpy as np

from . import adversarial, streams
from .label_stream import LabelStream

ADVERSARIES = {"non_oblivious": adversarial.NON_OBLIVIOUS, "oblivious": adversarial.OBLIVIOUS}


def is_label_game(environment: dict) -> bool:
    """A Fig. 5 label-stream game (``stream`` key), rather than a stochastic instance."""
    return "stream" in environment


def _delays(environment: dict) -> dict:
    """The checked ``delays`` of a label-stream game (module docstring)."""
    delays = environment.get("delays")
    if not isinstance(delays, dict) or delays.get("adversary") not in ADVERSARIES:
        raise ValueError(f"delays.adversary must be one of {tuple(ADVERSARIES)}, got {delays!r}")
    needed = ("adversary", "d") + (("low", "high") if delays["adversary"] == "oblivious" else ())
    if sorted(delays) != sorted(needed):
        raise ValueError(
            f"delays of a {delays['adversary']} adversary take exactly {needed}, "
            f"got {sorted(delays)}"
        )
    for key in needed[1:]:
        if isinstance(delays[key], bool) or not isinstance(delays[key], int):
            raise ValueError(f"delays.{key} must be an integer, got {delays[key]!r}")
    if delays["d"] < 1:
        raise ValueError(f"delays.d must be >= 1, got {delays['d']!r}")
    if (
        delays["adversary"] == "oblivious"
        and not 1 <= delays["low"] <= delays["high"] <= delays["d"]
    ):
        raise ValueError(
            f"oblivious delays need 1 <= low <= high <= d (a delay of z slots, "
            f"z ~ U{{low..high}}), got {delays}"
        )
    return delays


def game_labels(environment: dict, horizon: int) -> tuple[LabelStream, np.ndarray]:
    """The stream of a label-stream game and its first ``horizon`` labels (cached per process:
    every algorithm of a job plays the same stream)."""
    stream = streams.load_stream(environment["stream"])
    return stream, stream.horizon_labels(horizon, environment["extend"])


def label_games(paper: dict):
    """(id, experiment, stream, its first T labels) of every label-stream game of ``paper``."""
    for exp_id, exp in paper["experiments"].items():
        if is_label_game(exp["environment"]):
            yield (exp_id, exp, *game_labels(exp["environment"], int(exp["horizon"])))
