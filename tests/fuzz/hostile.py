"""What the fuzz suite throws at rulings: Hypothesis strategies for argument lists, card
tokens and hostile YAML, and the one check every answer must pass."""
from __future__ import annotations

import traceback
from functools import lru_cache
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import strategies as st

from rulings.cli import EXIT_BUG, EXIT_CODES, EXIT_INTERRUPTED, main
from rulings.spec import load, packaged_games, spec_path
from rulings.specfile import MAX_NUMBER

GAMES = packaged_games()
ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).parent / "corpus"


def invoke(args: list[str]):
    """Run rulings in-process; fail on anything but an answer with a documented exit code."""
    result = CliRunner().invoke(main, args)
    shown = f"rulings {' '.join(map(repr, args))[:500]}"
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        trace = "".join(traceback.format_exception(exc))
        raise AssertionError(f"{shown} let {exc!r} escape:\n{trace}")
    assert result.exit_code in EXIT_CODES, f"{shown}: exit {result.exit_code}, not a documented code"
    assert result.exit_code != EXIT_BUG, f"{shown}: the guard caught a bug:\n{result.stderr}"
    assert result.exit_code != EXIT_INTERRUPTED, f"{shown}: exit 130 (interrupted), and nothing interrupted it"
    assert "Traceback" not in result.output, f"{shown}:\n{result.output}"
    return result


# ---- words -------------------------------------------------------------------------------------

# text in a file: every plane, control characters and NUL included
any_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
# an argument as a shell can pass it: no NUL (the kernel's argv is C strings), and bytes
# that are not UTF-8 arrive as lone surrogates U+DC80-U+DCFF (Python's surrogateescape)
argument = st.text(st.one_of(st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\0"),
                             st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF)), max_size=30)
numbers = st.one_of(st.integers(-3, 12), st.integers(), st.just(10 ** 40)).map(str)
words = st.one_of(argument, numbers, st.sampled_from(["-", "--", "-h", "--help", "=", "a=b", "x" * 300,
                                                      "tick.yaml", "/", ".", "", " ", "\udcff"]))


@lru_cache(maxsize=None)
def tokens_of(game: str) -> tuple[str, ...]:
    return tuple(sorted(load(game).cards.by_token()))


@lru_cache(maxsize=None)
def contracts_of(game: str) -> tuple[str, ...]:
    return tuple(load(game).contracts) if game in GAMES else ()


@lru_cache(maxsize=None)
def readings_of(game: str) -> tuple[str, ...]:
    return tuple(f"{c}={r}" for c, rs in load(game).reading_choices().items() for r in rs)


@st.composite
def card_tokens(draw, game: str, most: int = 14) -> list[str]:
    """A hand: the game's own tokens in any case, and one time in ten a hand with
    something that is no token at all."""
    if game not in GAMES or draw(st.randoms(use_true_random=True)).random() < 0.1:
        return draw(st.lists(st.one_of(st.sampled_from(tokens_of(GAMES[0])), words), max_size=most))
    token = st.sampled_from(tokens_of(game))
    cased = token.flatmap(lambda t: st.sampled_from([t, t.lower(), t.upper()]))
    return draw(st.lists(cased, max_size=most))


@st.composite
def meld_or_lay(draw) -> list[str]:
    """`meld` or `lay`, mostly well formed (so that the deciders are reached), with a bad
    game, option, value or card now and then. (The odds come from a random.Random that
    Hypothesis seeds: its own draws favour the simplest value, which would make the rare
    cases common.)"""
    rnd = draw(st.randoms(use_true_random=True))

    def sometimes(good, bad, odds=0.1):
        return draw(bad if rnd.random() < odds else good)

    command = draw(st.sampled_from(["meld", "lay"]))
    game = sometimes(st.sampled_from(GAMES), words)
    cards = draw(card_tokens(game))
    small = len(cards) <= 8   # the z3 engine on large Rummikub hands takes seconds (issue 11)
    engine = sometimes(st.sampled_from(["reference", "z3"] if small else ["reference"]),
                       words.filter(lambda w: w != "z3"))
    args = [command, game, "--engine", engine]
    levels = [c.split()[1] for c in contracts_of(game) if c.startswith("level ")]
    if rnd.random() < (0.5 if "initial" in contracts_of(game) else 0.05):
        args += ["--initial"]
    elif rnd.random() < (0.9 if levels else 0.05):
        args += ["--level", sometimes(st.sampled_from(levels or ["1"]), st.one_of(numbers, words))]
    if game in GAMES and rnd.random() < 0.25:
        choices = readings_of(game)       # a game without readings is asked for a made-up one
        args += ["--reading", sometimes(st.sampled_from(choices), words) if choices else draw(words)]
    if rnd.random() < 0.5:
        args += ["--json"]
    if rnd.random() < 0.05:
        args += [draw(st.sampled_from(["--bogus", "--level", "--engine", "--reading"]))]
    # cards that look like options need "--" before them (as in a shell); now and then it is missing
    dashes = any(c.startswith("-") for c in cards) and rnd.random() < 0.9
    return args + ["--"] * dashes + cards


@st.composite
def any_command(draw) -> list[str]:
    """A command of the fuzzed set, then anything at all."""
    vocabulary = st.one_of(words, st.sampled_from(GAMES), st.sampled_from(
        ["--json", "--readings", "--rulebooks", "--level", "--initial", "--engine", "--reading", "z3",
         "reference", "1", "3", "SW", "5", "J", "r10", str(spec_path("tick"))]))
    head = draw(st.sampled_from(["games", "validate", "meld", "lay", "--debug", "--version"]))
    return [head] + draw(st.lists(vocabulary, max_size=8))


# ---- hostile YAML --------------------------------------------------------------------------------

RAW = "zzrawzz"   # a value (dumped plain) replaced in the dumped text by raw YAML no dumper writes


@lru_cache(maxsize=None)
def spec_data(game: str) -> dict:
    from rulings.specfile import Loader

    return yaml.load(spec_path(game).read_text(encoding="utf-8"), Loader=Loader)


def paths(data, prefix=()) -> list[tuple]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += paths(v, prefix + (i,))
    return out


@lru_cache(maxsize=None)
def all_paths(game: str) -> tuple[tuple, ...]:
    return tuple(p for p in paths(spec_data(game)) if p)


# a value of the wrong type, size or kind for any field of the schema
wrong_values = st.one_of(
    st.none(), st.booleans(), st.integers(), st.sampled_from([0, -1, 10 ** 18, 10 ** 400, 2 ** 63]),
    st.floats(allow_nan=True, allow_infinity=True), any_text, st.just("\0"), st.just("x" * 5000),
    st.lists(st.one_of(st.integers(), any_text), max_size=3), st.dictionaries(any_text, st.integers(), max_size=3),
    st.just([[[]]]), st.just({"a": {"b": None}}), st.just(RAW),
)

raw_yaml = st.one_of(
    st.integers(2, 3000).map(lambda n: "[" * n + "]" * n),                # deep nesting
    st.integers(1, 2000).map(lambda n: "{a: " * n + "1" + "}" * n),
    st.just("*bomb"),                                                      # an alias of the bomb below
    st.just("&self [*self]"),
    st.just("*nowhere"),
    st.sampled_from(["\0", "\x07", "\t", "'unclosed", "[unclosed", "{a: 1", "!!python/object:os.system 'x'",
                     "!!binary AAAA", "<<: *bomb", "? [a]\n  : b", "|\n\0", "1e99999", "9" * 5000,
                     "2020-01-01", "0x1F", "010", ".nan", "~", "--- \n---", "...", "\ufeff", "é😀\u202e"]),
)


def bomb(levels: int) -> str:
    lines = ['_a: &_a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"_{chr(97 + i)}: &_{chr(97 + i)} [" + ", ".join([f"*_{chr(96 + i)}"] * 9) + "]")
    last = f"*_{chr(96 + levels)}"
    return "\n".join(lines) + f"\n_bomb: &bomb [{last}, {last}]\n"


def get_at(data, path: tuple):
    for key in path:
        data = data[key]
    return data


def same_type(old) -> st.SearchStrategy:
    """Another value of the type `old` has: other numbers (0, negative, huge), other
    text (other names, unicode, empty), a list or mapping with an item dropped or doubled."""
    if isinstance(old, bool):
        return st.booleans()
    if isinstance(old, int):
        # (up to 1000: a count of a million is accepted, and the z3 decider then takes minutes
        # to build a level's melds; past MAX_NUMBER the loader refuses it)
        return st.one_of(st.integers(-2, 20), st.sampled_from([old - 1, old + 1, 1000, MAX_NUMBER + 1, 10 ** 18,
                                                               10 ** 400]))
    if isinstance(old, str):
        return st.one_of(st.just(old + old), st.just(old.upper()), st.just(""), any_text,
                         st.sampled_from(["set", "run", "wild", "rank", "level", "players", "tick", "x"]))
    if isinstance(old, list):
        return st.sampled_from([old[:-1], old + old[-1:], list(reversed(old)), []]) if old else st.just([])
    if isinstance(old, dict) and old:
        keys = list(old)
        return st.sampled_from(keys).map(lambda k: {x: v for x, v in old.items() if x != k})
    return st.just(old)


def set_at(data, path: tuple, value):
    if len(path) == 1:
        data[path[0]] = value
        return
    set_at(data[path[0]], path[1:], value)


def mutated_text(draw, data, places) -> str:
    """`data` (changed in place) with one to three of `places` given another value of
    their type or a wrong one, dumped as YAML with raw YAML spliced in."""
    import copy

    for path in draw(st.lists(st.sampled_from(places), min_size=1, max_size=3, unique=True)):
        try:
            old = get_at(data, path)
            # a value of the same type half the time: the schema takes it, and what is
            # behind the schema (cross-references, the deciders) meets it
            value = draw(st.one_of(same_type(old), wrong_values))
            set_at(data, path, copy.deepcopy(value))   # st.just gives one object: a later path must not change it
        except (KeyError, IndexError, TypeError):
            pass   # an earlier change removed the place
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10 ** 6)
    while RAW in text:
        text = text.replace(RAW, draw(raw_yaml), 1)
    if "*bomb" in text:
        text = bomb(draw(st.integers(2, 12))) + text
    return text


@st.composite
def hostile_specs(draw) -> bytes:
    """A spec file: a packaged spec with fields replaced by wrong values and raw YAML
    (deep nesting, aliases, NUL bytes, huge numbers, unicode), or text and bytes with no
    spec in them at all."""
    kind = draw(st.sampled_from(["mutated", "mutated", "mutated", "yaml-ish", "bytes"]))
    if kind == "yaml-ish":
        alphabet = st.one_of(st.sampled_from(list("[]{}:-&*!|>'\"\n #,?%@`\t\\~.0123456789abc")),
                             st.characters(codec="utf-8", exclude_categories=("Cs",)))
        return draw(st.text(alphabet, max_size=300)).encode("utf-8")
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    game = draw(st.sampled_from(GAMES))
    import copy

    return mutated_text(draw, copy.deepcopy(spec_data(game)), all_paths(game)).encode("utf-8")


# ---- hostile scenarios and FAQ questions -----------------------------------------------------------

SCENARIOS = tuple(sorted((ROOT / "docs" / "scenarios").glob("*/*.yaml")))


@lru_cache(maxsize=None)
def yaml_file(path: Path) -> dict:
    from rulings.specfile import Loader

    return yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)


@st.composite
def hostile_scenarios(draw, game: str | None = None) -> tuple[str, bytes]:
    """(game, file content): a worked scenario of docs/scenarios/ (of `game`, if given)
    with fields replaced by wrong values and raw YAML, or its first lines followed by
    YAML-ish text, or bytes."""
    import copy

    path = draw(st.sampled_from([p for p in SCENARIOS if game is None or p.parent.name == game]))
    game = path.parent.name
    kind = draw(st.sampled_from(["mutated", "mutated", "mutated", "mutated", "tail", "bytes"]))
    if kind == "bytes":
        return game, draw(st.binary(max_size=300))
    if kind == "tail":
        head = "\n".join(path.read_text(encoding="utf-8").splitlines()[:draw(st.integers(0, 12))])
        alphabet = st.one_of(st.sampled_from(list("[]{}:-&*!|>'\"\n #,?%@`\t\\~.0123456789abc")),
                             st.characters(codec="utf-8", exclude_categories=("Cs",)))
        return game, (head + "\n" + draw(st.text(alphabet, max_size=200))).encode("utf-8")
    data = copy.deepcopy(yaml_file(path))
    places = tuple(p for p in paths(data) if p)
    return game, mutated_text(draw, data, places).encode("utf-8")


@lru_cache(maxsize=None)
def questions_of(game: str) -> dict:
    from rulings.checks.faq.questions import questions_path

    return yaml_file(questions_path(game))


FAQ_GAMES = tuple(g for g in GAMES if (ROOT / "spec" / "faq" / f"{g}.yaml").is_file())


@st.composite
def hostile_questions(draw) -> tuple[str, bytes]:
    """(game, file content): one or two questions of a game's FAQ (spec/faq/), with fields
    replaced by wrong values and raw YAML; or text and bytes with no questions in them."""
    import copy

    game = draw(st.sampled_from(FAQ_GAMES))
    kind = draw(st.sampled_from(["mutated", "mutated", "mutated", "mutated", "yaml-ish", "bytes"]))
    if kind == "bytes":
        return game, draw(st.binary(max_size=300))
    if kind == "yaml-ish":
        alphabet = st.one_of(st.sampled_from(list("[]{}:-&*!|>'\"\n #,?%@`\t\\~.0123456789abc")),
                             st.characters(codec="utf-8", exclude_categories=("Cs",)))
        return game, ("format: 1\ngame: " + game + "\n" + draw(st.text(alphabet, max_size=200))).encode("utf-8")
    data = copy.deepcopy(questions_of(game))
    asked = data["questions"]
    keep = draw(st.lists(st.integers(0, len(asked) - 1), min_size=1, max_size=2, unique=True))
    data["questions"] = [asked[i] for i in keep]
    places = tuple(p for p in paths(data) if p)
    return game, mutated_text(draw, data, places).encode("utf-8")
