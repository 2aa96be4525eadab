"""A question's scenario, judged: the document, the kernel's judgement, and the situation
before each move (what a refusal is explained against)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping


from rulings import kernel
from rulings import scenario as sc
from rulings.spec import Spec


@dataclass
class Judged:
    doc: dict                 # the scenario document as judged
    scen: object              # rulings.scenario.Scenario
    j: object                 # rulings.scenario.Judgement
    befores: list             # the state before each move judged

    @property
    def spec(self) -> Spec:
        return self.scen.spec

    @property
    def start(self):
        return self.scen.state

    @property
    def mover(self) -> int:
        return self.scen.state.current

    @property
    def step_k(self) -> int | None:
        """The first move not allowed (refused or undecided), or None."""
        return next((i for i, s in enumerate(self.j.steps) if s.legal is not True), None)


def document(spec: Spec, raw: Mapping, over: Mapping | None = None) -> dict:
    """A question's scenario as a document: format and game filled in; a field set to null
    is dropped (it unsets a field a YAML merge brought in); `over` (a contrast) replaces
    fields, a move replacing the moves and the other way round."""
    doc = {"format": sc.FORMAT, "game": spec.game}
    doc.update({k: v for k, v in raw.items() if k not in ("format", "game") and v is not None})
    if over:
        if "move" in over or "moves" in over:
            doc.pop("move", None)
            doc.pop("moves", None)
        doc.update({k: v for k, v in over.items() if v is not None})
        for k, v in over.items():
            if v is None:
                doc.pop(k, None)
    return doc


def judge(spec: Spec, doc: Mapping, readings: Mapping | None = None) -> Judged:
    """Judge a scenario (ScenarioError when it cannot be read), under other readings if
    given (those the scenario names come first)."""
    if readings:
        readings = {**(doc.get("readings") or {}), **readings}
    scen = sc.load(dict(doc), spec, readings)
    j = sc.judge(scen)
    befores, state = [], scen.state
    for move in scen.moves[:len(j.steps)]:
        befores.append(state)
        try:
            out = kernel.apply(state, move)
        except kernel.Undecided:
            break
        if isinstance(out, kernel.Refusal):
            break
        state = out
    return Judged(dict(doc), scen, j, befores)
