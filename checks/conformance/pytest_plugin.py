"""pytest plugin: one test per conformance vector, for an implementation's own test suite.

    pytest --rulings-game tick --rulings-adapter mypkg.tick:factory
    pytest --rulings-game tick --rulings-cmd "node mytick.js" --rulings-vectors vectors/tick

Each test is named after its vector and the clauses it exercises,
`move:lay 1 1 1 2 2 2 3 3 3 3:41d2876fcbf2[go-out,go-out-timing]`, and carries each clause
id (and `boundary-AXIS` for a vector on a boundary) as a keyword, so `-k go-out` selects
the going-out vectors. `--rulings-search N` adds the differential search, one test per
question, N random cases each.

Registered through the `pytest11` entry point. Without `--rulings-game` it only registers
its options: it imports nothing of rulings, adds no tests and changes nothing else.
"""
from __future__ import annotations

import pytest


def pytest_addoption(parser):
    group = parser.getgroup("rulings", "conformance vectors of a game's rules (rulings conform)")
    group.addoption("--rulings-game", default=None, metavar="GAME",
                    help="Add one test per conformance vector of GAME (a packaged game or a spec file), asked of the implementation "
                         "named by --rulings-adapter or --rulings-cmd.")
    group.addoption("--rulings-adapter", default=None, metavar="MODULE:FACTORY",
                    help="The implementation under test as a Python object: package.module:factory or file.py:factory.")
    group.addoption("--rulings-cmd", default=None, metavar="COMMAND",
                    help='The implementation under test as a program speaking JSON lines, e.g. "node mygame.js".')
    group.addoption("--rulings-vectors", default=None, metavar="DIR",
                    help="Vectors written by `rulings vectors` (default: generated at collection).")
    group.addoption("--rulings-timeout", default=10.0, type=float, metavar="SECONDS",
                    help="Seconds a --rulings-cmd program may take to answer one request (default 10).")
    group.addoption("--rulings-reading", action="append", default=[], metavar="CLAUSE=READING",
                    help="Judge under another reading of a clause (repeatable; not with --rulings-vectors).")
    group.addoption("--rulings-search", default=0, type=int, metavar="N",
                    help="Also run the differential search: one test per question, N random cases each (default 0: "
                         "vectors only).")
    group.addoption("--rulings-seed", default=0, type=int, metavar="SEED", help="Seed of --rulings-search (default 0).")


class _Conformance:
    """What the tests share: the spec, the vectors and the adapter (started once)."""

    def __init__(self, config):
        from rulings.spec import load

        from . import adapters, vectors

        opt = config.getoption
        game = opt("rulings_game")
        choices = {}
        for r in opt("rulings_reading"):
            clause, eq, name = r.partition("=")
            if not eq:
                raise pytest.UsageError(f"--rulings-reading takes CLAUSE=READING, got {r!r}")
            choices[clause] = name
        self.adapter = None
        try:
            self.adapter = adapters.load(opt("rulings_adapter"), opt("rulings_cmd"),
                                         timeout=opt("rulings_timeout"), game=load(game).game)
            self.adapter.start()
            if opt("rulings_vectors"):
                self.docs = vectors.read(opt("rulings_vectors"))
                self.spec = vectors.spec_of(self.docs)
                if self.spec.game != load(game).game:
                    raise pytest.UsageError(f"--rulings-vectors holds vectors of {self.spec.game}, not {game}")
            else:
                self.spec = load(game, choices)
                self.docs = vectors.generate(self.spec)
        except Exception as e:   # AdapterError, VectorError, an unknown game or reading
            self.close()
            if isinstance(e, pytest.UsageError):
                raise
            raise pytest.UsageError(f"rulings conformance: {e}") from None

    def close(self):
        if self.adapter is not None:
            self.adapter.close()


class VectorFailure(Exception):
    def __init__(self, outcome):
        super().__init__(outcome.id)
        self.outcome = outcome


class VectorItem(pytest.Item):
    def __init__(self, *, family, vector, **kw):
        super().__init__(**kw)
        self.family, self.vector = family, vector

    def runtest(self):
        from .conform import run_vector

        shared: _Conformance = self.config.stash[_key]
        out = run_vector(shared.spec, shared.adapter, self.family, self.vector)
        if out.status == "skipped":
            pytest.skip(f"the implementation does not support {self.family} (it answered unsupported)")
        if out.status in ("fail", "error"):
            raise VectorFailure(out)
        if out.extra.get("not_reported"):      # as a declined question: not answered in full
            pytest.skip("the implementation's answer does not report " + ", ".join(out.extra["not_reported"]))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, VectorFailure):
            from .report import outcome_text

            o = excinfo.value.outcome
            return "\n".join([f"{o.id} [{o.family}]", *outcome_text(o)])
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"rulings vector {self.name}"


class SearchFailure(Exception):
    def __init__(self, text):
        super().__init__(text)
        self.text = text


class SearchItem(pytest.Item):
    """The differential search of one question (`--rulings-search N`)."""

    def __init__(self, *, family, cases, seed, **kw):
        super().__init__(**kw)
        self.family, self.cases, self.seed = family, cases, seed

    def runtest(self):
        from .conform import Report, explain, search
        from .report import outcome_text

        shared: _Conformance = self.config.stash[_key]
        report = Report(shared.spec.game, shared.adapter.name, dict(shared.spec.chosen),
                        protocol=shared.adapter.protocol)
        search(shared.spec, shared.adapter, self.cases, self.seed, report, (self.family,))
        explain(shared.spec, shared.adapter, report)
        if report.divergences:
            lines = []
            for d in report.divergences:
                lines += [f"{d.signature}", *outcome_text(d.outcome)]
            raise SearchFailure("\n".join(lines))
        stats = report.search.get(self.family)
        if stats is not None and stats.cases and stats.cases == stats.skipped_by_adapter:
            pytest.skip(f"the implementation does not support {self.family} (it answered unsupported)")

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, SearchFailure):
            return excinfo.value.text
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"rulings search {self.name}"


def vector_name(vec: dict) -> str:
    """A vector's test name: its id and the clauses it exercises."""
    clauses = list(dict.fromkeys(list(vec.get("clauses", [])) + list(vec.get("reading", {}))))
    return f"{vec['id']}[{','.join(clauses)}]" if clauses else vec["id"]


def vector_keywords(vec: dict) -> list[str]:
    """What `-k` can select a vector by beyond its name: each clause, its boundary."""
    out = list(dict.fromkeys(list(vec.get("clauses", [])) + list(vec.get("reading", {}))))
    if vec.get("boundary"):
        out.append(f"boundary-{vec['boundary']['axis']}")
    return out


class VectorsCollector(pytest.Collector):
    def collect(self):
        from .conform import FAMILIES
        from .vectors import FILES

        shared: _Conformance = self.config.stash[_key]
        for family, name in FILES.items():
            for vec in shared.docs[name]["cases"]:
                item = VectorItem.from_parent(self, name=vector_name(vec), family=family, vector=vec)
                for k in vector_keywords(vec):
                    item.keywords[k] = True
                yield item
        n = self.config.getoption("rulings_search")
        if n and n > 0:
            for family in FAMILIES:
                yield SearchItem.from_parent(self, name=f"search:{family}", family=family, cases=n,
                                             seed=self.config.getoption("rulings_seed"))


_key = pytest.StashKey[_Conformance]()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    if not config.getoption("rulings_game"):
        return
    if bool(config.getoption("rulings_adapter")) == bool(config.getoption("rulings_cmd")):
        raise pytest.UsageError("--rulings-game needs exactly one of --rulings-adapter and --rulings-cmd")
    if config.getoption("rulings_vectors") and config.getoption("rulings_reading"):
        raise pytest.UsageError("--rulings-reading does not go with --rulings-vectors: the vectors carry their readings")
    config.stash[_key] = _Conformance(config)
    game = config.getoption("rulings_game")
    collector = VectorsCollector.from_parent(session, name=f"rulings-{game}", nodeid=f"rulings::{game}")
    items.extend(collector.collect())


def pytest_unconfigure(config):
    shared = config.stash.get(_key, None)
    if shared is not None:
        shared.close()
