"""Translation check: do the English and French versions of a clause state the same facts?

A clause cites the rulebook lines that state it in every language (`spec/tick.yaml`), so
the clause itself says which English lines and which French lines correspond. For every
clause citing both, this check reads the two passages from the rulebook texts, extracts the
facts each states, and reports where they differ. Lines no clause cites are placed between
the clause citations that bracket them in both languages and compared the same way.

The module keeps three things apart, as `checks/` does everywhere:

- *what is asked* (`translation_findings`): per clause, which facts one language states
  and the other does not;
- *how it is found*: text normalisation (OCR damage in the French, broken hyphenation),
  a small bilingual lexicon, fact extraction (`facts_of`: numbers with what they count,
  negations, conditions, key terms), sentence alignment over the whole rulebook
  (`Book`: English and French sentences that are each other's best match by shared
  concepts) and the comparison of two passages (`compare`);
- *how it is reported* (`_report`): one `Finding` per kind of fact and group of clauses
  showing the same difference.

Precision over recall. A difference is reported when

1. two aligned sentences of the clause's passages state different facts: a quantity the
   other sentence (and those beside it) does not state, or counts with another value; a
   term or condition the other passage states nowhere; a different number of negations
   (a double negative counts two); or
2. one passage states a fact the other does not, the clause's own words (paraphrase,
   readings, assumption, formal content) rely on it, and the sentence's translation where
   the spec places it (its aligned sentence, the other-language lines other clauses cite
   with it) does not state it either. When it does, the clause merely misses a citation:
   the note lists these, they are not differences.

A bare "one"/"un"/"une" is never a difference on its own (the French article reads the
same); an "if" or "when" said in one language with no condition marker in the other is
taken as paraphrase ("for 5 to 8 players").

The rulebook texts are not part of the project: they are found through
`rulings.spec.rulebooks_dir()` (the `RULINGS_RULEBOOKS` variable) or an explicit folder.
Without them the check returns no findings and a note saying what it needs. Findings cite
lines and quote at most five words of a fact.
"""
from __future__ import annotations

import re
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from rulings.spec import RULEBOOKS_ENV, Spec, rulebooks_dir

from .findings import Finding

LANGS = ("en", "fr")
LANG_NAME = {"en": "English", "fr": "French"}
METHOD = ("aligned by clause citations (sentences paired by shared concepts, each the "
          "other's best match); facts extracted by bilingual lexicon rules: numbers and "
          "number words with what they count, negations (double negatives counted), "
          "conditions and key terms, after normalising OCR damage in the French")

# ---------------------------------------------------------------------------------------
# text normalisation


# OCR damage seen in scanned French rulebooks, and hyphenation broken across a space.
# Each rule is (pattern, replacement), applied in order.
_OCR_FIXES: tuple[tuple[str, str], ...] = (
    (r"[’`´]", "'"),
    (r"[–—]", "-"),
    (r"\bI\\n\b", "fin"),                      # lost "fi" ligature
    (r"§", "ç"),
    (r"(?<=[a-zà-ÿ])I(?=[a-zà-ÿ]|\b)", "l"),     # capital I inside a lower-case word: meId, méIange
    (r"\bI(?=orsqu|égal|'\w)", "l"),            # Iorsqu, Iégalement, I'exigence
    (r"\bII\b", "Il"),
    (r"\bIe\b", "Le"),
    (r"\bie\b", "le"),
    (r"\blejeu\b", "le jeu"),
    (r"\bdedeux\b", "de deux"),
    (r"\bunset\b", "un set"),
    (r"\buGlisez\b", "utilisez"),
    (r"\bties\b", "tics"),
    (r"(?<=[\s(])â(?=\s)", "à"),
    (r"^â(?=\s)", "à"),
    (r"(?<=')â\b", "à"),
    (r"(?<=QU')A\b", "À"),
    (r"([a-zà-ÿ])- ([a-zà-ÿ])", r"\1\2"),       # na- turelles, Bo- nus, ch- aque
)
# rules that would damage English
_FRENCH_ONLY = {r"\bII\b", r"\bIe\b", r"\bie\b", r"(?<=[\s(])â(?=\s)", r"^â(?=\s)", r"(?<=')â\b", r"(?<=QU')A\b",
                r"\bI(?=orsqu|égal|'\w)"}


def normalise(text: str, lang: str) -> str:
    """Undo OCR damage and broken hyphenation; the rules are written for French but are
    harmless on English (the English text has the same broken hyphenation)."""
    for pat, rep in _OCR_FIXES:
        if lang != "fr" and pat in _FRENCH_ONLY:
            continue
        text = re.sub(pat, rep, text)
    return text


def fold(word: str) -> str:
    """Lower case without accents, for matching."""
    return "".join(c for c in unicodedata.normalize("NFD", word.lower()) if unicodedata.category(c) != "Mn")


_ELISIONS = {"n": "ne", "s": "se", "l": "le", "d": "de", "qu": "que", "lorsqu": "lorsque",
             "jusqu": "jusque", "puisqu": "puisque", "j": "je", "c": "ce", "m": "me", "t": "te"}


@dataclass(frozen=True)
class Tok:
    word: str        # folded form used for matching
    raw: str         # as written (after OCR fixes), for quoting
    pos: int


def tokens(text: str, lang: str) -> list[Tok]:
    """Words, numbers and punctuation, folded; French elisions expanded (n' -> ne),
    English "cannot"/"n't" split into "can not"."""
    out: list[Tok] = []
    for m in re.finditer(r"\d+|[^\W\d_]+'?|[#°%]|[-–—]|[.,;:!?()\"“”=+]", text):
        raw, w = m.group(), fold(m.group())
        if w.endswith("'"):                   # French elision (n', qu'), English possessive
            w = _ELISIONS.get(w[:-1], w[:-1]) if lang == "fr" else w[:-1]
        if lang == "en" and w == "s" and out and out[-1].raw.endswith("'"):
            continue
        if lang == "en" and w in ("cannot", "can't", "cant"):
            out.append(Tok("can", raw, m.start()))
            out.append(Tok("not", raw, m.start()))
            continue
        if lang == "en" and w == "t" and out and out[-1].word.endswith("n"):
            out.append(Tok("not", raw, m.start()))
            continue
        out.append(Tok(w, raw, m.start()))
    # "s'il" is "si il", but "s'agit" is "se agit"
    for i, t in enumerate(out[:-1]):
        if lang == "fr" and t.word == "se" and t.raw.lower().startswith("s'") and out[i + 1].word in ("il", "ils"):
            out[i] = Tok("si", t.raw, t.pos)
    return out


# ---------------------------------------------------------------------------------------
# the lexicon: number words, what numbers count, negations, conditions, key terms


NUMBER_WORDS = {
    "en": {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "fifty": 50, "hundred": 100,
           "both": 2, "twice": 2, "single": 1},
    "fr": {"un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7,
           "huit": 8, "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "vingt": 20, "cinquante": 50,
           "cent": 100},
}
# number words that also serve as an article or a pronoun: never a difference on their own
WEAK_WORDS = {"one", "un", "une", "single"}

ORDINALS = {
    "en": {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
           "eighth": 8},
    "fr": {"premier": 1, "premiere": 1, "premiers": 1, "premieres": 1, "deuxieme": 2, "second": 2,
           "seconde": 2, "troisieme": 3, "quatrieme": 4, "cinquieme": 5, "sixieme": 6, "septieme": 7,
           "huitieme": 8},
}

# what a number counts: folded word -> unit. Families group units that may stand for
# each other across languages (a "like card" and a "carte similaire" are both cards).
UNITS = {
    "en": {"card": "card", "cards": "card", "chip": "chip", "chips": "chip", "point": "point",
           "points": "point", "player": "player", "players": "player", "person": "player",
           "people": "player", "persons": "player", "level": "level", "levels": "level",
           "set": "set", "sets": "set", "meld": "set", "melds": "set", "deck": "deck",
           "decks": "deck", "pack": "deck", "packs": "deck", "tick": "tick", "ticks": "tick",
           "turn": "turn", "turns": "turn", "wild": "wild card", "wilds": "wild card",
           "opportunity": "chance", "chance": "chance", "times": "times", "round": "round",
           "rounds": "round"},
    "fr": {"carte": "card", "cartes": "card", "jeton": "chip", "jetons": "chip", "point": "point",
           "points": "point", "joueur": "player", "joueurs": "player", "personne": "player",
           "personnes": "player", "niveau": "level", "niveaux": "level", "serie": "set",
           "series": "set", "set": "set", "sets": "set", "ensemble": "set", "ensembles": "set",
           "jeux": "deck", "paquet": "deck", "paquets": "deck", "tick": "tick",
           "ticks": "tick", "tique": "tick", "tiques": "tick", "tic": "tick", "tics": "tick",
           "tour": "turn", "tours": "turn", "joker": "wild card", "jokers": "wild card",
           "possibilite": "chance", "occasion": "chance", "opportunite": "chance", "fois": "times",
           "manche": "round", "manches": "round"},
}
FAMILY = {"face-down card": "card", "face-up card": "card", "natural card": "card", "wild card": "card",
          "like card": "card", "level #": "level", "label #": "label"}
# words that are a number and what it counts at once: four of a kind
KIND_WORDS = {"en": {}, "fr": {"carre": (4, "like card"), "carres": (4, "like card")}}
# words that may stand between a number and what it counts
_BETWEEN = {
    "en": {"like", "more", "other", "face", "up", "down", "natural", "extra", "additional",
           "different", "total", "value", "-", "of", "the", "tick", "number", "low", "high"},
    "fr": {"de", "d", "des", "autres", "supplementaires", "-"},
}
# card qualifiers: English before the noun, French after it
_CARD_KIND = {
    "en": {("face", "down"): "face-down card", ("face", "up"): "face-up card", ("natural",): "natural card",
           ("wild",): "wild card"},
    "fr": {("cachee",): "face-down card", ("cachees",): "face-down card", ("visible",): "face-up card",
           ("visibles",): "face-up card", ("naturelle",): "natural card", ("naturelles",): "natural card",
           ("sauvage",): "wild card", ("sauvages",): "wild card"},
}
# a number right after one of these is a reference (level 3, deck 1, card number 4), not a count
_REFERENCE = {
    "en": {"level": "level", "deck": "label", "decks": "label", "number": "label", "numbers": "label"},
    "fr": {"niveau": "level", "jeu": "label", "jeux": "label", "numero": "label", "numeros": "label",
           "n": "label"},
}

# conditions: class -> patterns over the folded, tokenised text
CONDITIONS = {
    "en": [("if", r"\bif\b"), ("unless", r"\bunless\b"), ("until", r"\buntil\b|\btill\b|\bbefore\b"),
           ("when", r"\bwhen(ever)?\b|(?<!at )\bonce\b(?! (more|again))|\bas soon as\b"),
           ("while", r"\bwhile\b|\bas long as\b")],
    "fr": [("if", r"\bsi\b(?! le souhait)"), ("unless", r"\bsauf si\b|\ba moins que?\b"),
           ("until", r"\bjusque a ce que\b|\bjusque a\b|\bavant que\b|\bavant\b(?! de)"),
           ("when", r"\blorsque\b|\bquand\b|\bune fois que\b|\bdes que\b"),
           ("while", r"\btant que\b")],
}

# key terms whose presence changes what a sentence means: concept -> (label, en, fr)
TERMS: dict[str, tuple[str, str, str]] = {
    "alone": ("laid alone", r"\bon (their|its|his|her) own\b|\bby (themselves|itself)\b|\balone\b",
              r"(?<!\bun )(?<!\bune )\bseul(e)?s\b|\bisolement\b|\bindividuellement\b|\ba eux seuls\b"),
    "this-level": ("scope: that level", r"\b(that|this) level\b|\bper level\b",
                   r"\b(ce|cet) niveau\b|\bpar niveau\b"),
    "exactly": ("exactly", r"\bexact(ly)?\b", r"\bexact(e|ement)?\b"),
    "at-least": ("at least", r"\bat least\b|\bor more\b", r"\bau moins\b|\bou plus\b|\bau minimum\b"),
    "at-most": ("at most", r"\bat most\b|\b(no|not) more\b|\bmaximum\b",
                r"\bau plus\b|\bmaximum\b|\bpas plus\b"),
    "only": ("only", r"\bonly\b(?! difference)",
             r"\bseulement\b|\buniquement\b|\bdifference pres\b"),
    "for-each": ("for each", r"\bfor (each|every)\b", r"\bpour chaque\b"),
    "at-will": ("if they choose", r"\bif (they|you|he|she) (choose|chooses|wish|wishes)\b|\boptional",
                r"\bsi (il|ils|vous|elle) (le|les) (souhait|veu|desir)\w*\b|\bfacultati"),
    "runs": ("runs", r"\bruns\b|\bsequences?\b", r"\bruns\b|\bsuites\b|\bsequences?\b"),
    "bonus": ("bonus", r"\bbonus\b(?! cards?\b)|\bextra points?\b",
              r"(?<!carte )(?<!cartes )\bbonus\b|\bprime\b|\bpoints supplementaires\b"),
    "positive": ("positive value", r"\bpositive\b|\bplus (value|count)\b", r"\bpositi(ve|f)\b"),
    "negative": ("negative value", r"\bnegative\b|\bminus\b", r"\bnegati(ve|f)\b"),
    "legal": ("legally", r"\blegal(ly)?\b", r"\blegal(e|ement)?\b"),
    "left": ("to the left", r"\b(to the|to their|on the|on their|dealers?) left\b|\bleft of\b",
             r"\bgauche\b"),
    "right": ("to the right", r"\b(to the|to their|on the|on their|dealers?) right\b|\bright of\b",
              r"\bdroite\b"),
    "colour": ("colour", r"\bcolou?rs?\b", r"\bcouleurs?\b"),
}
# what kind of term each is, for the verdict
TERM_KIND = {"alone": "a qualifier", "this-level": "a qualifier", "exactly": "a qualifier", "at-least": "a bound",
             "at-most": "a bound", "only": "a restriction", "for-each": "a quantifier", "at-will": "a qualifier",
             "runs": "a key term", "bonus": "a score word", "positive": "a score word", "negative": "a score word",
             "legal": "a qualifier", "left": "a direction", "right": "a direction", "colour": "a key term"}

# negations
_NEG_EN = {"not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "without"}
_NEG_PREFIXED = {"unable", "impossible", "illegal", "illegally", "invalid", "incapable", "illegalement",
                 "interdit", "forbidden"}
_NEG_FR_FREE = {"pas", "jamais", "aucun", "aucune", "rien", "non", "sans", "nul", "nulle"}
_NE_PARTNERS = {"pas", "plus", "jamais", "rien", "aucun", "aucune", "guere", "que"}
_CLAUSE_END = {".", ",", ";", ":", "!", "?", "(", ")"}

# concepts shared by both languages, for aligning sentences: concept -> (en words, fr words)
_CONCEPTS: dict[str, tuple[str, str]] = {
    "card": ("card cards", "carte cartes"),
    "player": ("player players person people persons", "joueur joueurs personne personnes"),
    "dealer": ("dealer dealers deal deals dealt distribute", "croupier donneur distribue distribuez distribuer"),
    "chip": ("chip chips", "jeton jetons"),
    "tick": ("tick ticks", "tick ticks tique tiques tic tics"),
    "level": ("level levels", "niveau niveaux"),
    "set": ("set sets meld melds", "set sets serie series ensemble ensembles fusion melange melanger carre"),
    "wild": ("wild wilds", "joker jokers sauvage sauvages"),
    "natural": ("natural", "naturelle naturelles naturel"),
    "discard": ("discard discards discarding", "defausse defausser defausses"),
    "lay": ("lay laid laying lays put", "poser pose posee posees posez posent mettre"),
    "face-up": ("up", "visible visibles"),
    "face-down": ("down", "cachee cachees"),
    "pile": ("pile stock", "pile"),
    "point": ("point points", "point points"),
    "value": ("value values", "valeur valeurs"),
    "score": ("score scores", "score pointage"),
    "hand": ("hand hands", "main mains"),
    "turn": ("turn turns", "tour tours"),
    "out": ("out", "sortir sortie"),
    "complete": ("complete completing end", "terminer termine terminee fin"),
    "deck": ("deck decks", "jeux"),
    "colour": ("colour colours color colors", "couleur couleurs"),
    "left": ("left", "gauche"),
    "first": ("first", "premier premiere"),
    "next": ("next subsequent", "suivant suivante suivants prochain"),
    "each": ("each every", "chaque"),
    "all": ("all", "tous toutes tout"),
    "same": ("same", "meme"),
    "minimum": ("minimum", "minimum"),
    "maximum": ("maximum", "maximum"),
    "example": ("example", "exemple"),
    "positive": ("positive plus", "positive positif"),
    "negative": ("negative minus", "negative negatif"),
    "total": ("total totalled totaled", "total totalisent totalisees"),
    "report": ("report reports", "rapporte rapportees communique"),
    "keeper": ("keeper", "gardien"),
    "select": ("select selects selected pick picks take taking draw choose", "choisit choisir choisissez selectionner selectionnees selectionnee prendre tirer"),
    "surrender": ("surrender surrendered", "abandonner abandonne remis cedes"),
    "change": ("change alter altered", "changer modifier modifiees"),
    "like": ("like", "similaires similaire"),
    "runs": ("runs", "runs suites"),
    "legal": ("legally legal", "legalement"),
    "shuffle": ("shuffle mix wash", "melangez"),
    "try": ("try consider", "essayez envisagez"),
    "important": ("important", "importantes important"),
    "needed": ("needed required requires requirement", "necessaires requiert exigence"),
    "object": ("object", "agit"),
    "most": ("most", "grand"),
    "winner": ("winner", "gagnant"),
    "bonus": ("bonus extra", "bonus supplementaires"),
    "center": ("centre center middle circle", "centre cercle"),
    "face": ("face", "face"),
    "back": ("back", "dos"),
    "hand-count": ("count", "nombre"),
    "initials": ("initials", "initiales"),
    "boxes": ("boxes", "cases"),
    "low": ("low", "faible"),
    "high": ("higher", "forte"),
    "discard-pile": ("previous", "precedents"),
}
_CONCEPT_OF = {lang: {w: c for c, pair in _CONCEPTS.items() for w in pair[i].split()}
               for i, lang in enumerate(LANGS)}


# ---------------------------------------------------------------------------------------
# facts


@dataclass(frozen=True)
class Fact:
    kind: str          # "number", "negation", "condition", "term"
    key: tuple         # what is compared: (value, unit), (kind of negation,), (class,), (concept,)
    text: str          # a short quote (at most five words)
    line: int
    weak: bool = False  # a bare "one"/"un"/"une": never a difference on its own

    @property
    def family(self) -> str:
        return FAMILY.get(self.key[1], self.key[1]) if self.kind == "number" else ""

    @property
    def ordinal(self) -> bool:
        return self.kind == "number" and isinstance(self.key[0], tuple) and self.key[0][0] == "ord"


def _quote(toks: list[Tok], i: int, j: int, text: str) -> str:
    """The words toks[i:j] as written, at most five of them."""
    j = min(j, i + 5, len(toks))
    if j <= i:
        return ""
    return text[toks[i].pos:toks[j - 1].pos + len(toks[j - 1].raw)].strip(" ,.;:(")


def _contains(seq: tuple, sub: tuple) -> bool:
    return any(seq[i:i + len(sub)] == sub for i in range(len(seq) - len(sub) + 1))


def _unit_after(toks: list[Tok], k: int, lang: str) -> tuple[str, int]:
    """What the number at toks[k] counts, and the index just past its phrase."""
    units, between, n = UNITS[lang], _BETWEEN[lang], len(toks)
    words = [t.word for t in toks]
    if lang == "en" and words[k + 1:k + 4] == ["of", "a", "kind"]:
        return "like card", k + 4
    j = k + 1
    while j < n and j <= k + 4:
        w = words[j]
        if w in units:
            if lang == "en" and w != "card":      # a compound noun ends with its head: tick chips
                while j + 1 < n and words[j + 1] in units:   # (but "3 card sets" counts cards)
                    j += 1
            unit = units[words[j]]
            end = j + 1
            if unit == "card":
                before, after = tuple(words[k + 1:j]), tuple(words[j + 1:j + 3])
                for kind_words, kind in _CARD_KIND[lang].items():
                    if lang == "en" and _contains(before, kind_words):
                        unit = kind
                    elif lang == "fr" and after[:len(kind_words)] == kind_words:
                        unit, end = kind, j + 1 + len(kind_words)
                if unit == "card" and ("like" in before or after[:1] in (("similaires",), ("similaire",))):
                    unit = "like card"
            return unit, end
        if w not in between:
            break
        j += 1
    return "", k + 1


def _numbers(toks: list[Tok], text: str, line_of, lang: str) -> list[Fact]:
    """Numbers (digits, number words, ordinals, ranges) with what they count."""
    out: list[Fact] = []
    words = [t.word for t in toks]
    nums, ords, refs, kinds = NUMBER_WORDS[lang], ORDINALS[lang], _REFERENCE[lang], KIND_WORDS[lang]
    n, skip_to = len(toks), -1
    for k, w in enumerate(words):
        if k < skip_to:
            continue
        line = line_of(toks[k].pos)
        if w in kinds:
            value, unit = kinds[w]
            out.append(Fact("number", (value, unit), _quote(toks, k, k + 1, text), line))
            continue
        value, weak, ordinal = None, False, False
        if w.isdigit():
            value = int(w)
        elif w in nums:
            value, weak = nums[w], w in WEAK_WORDS
        elif w in ords:
            value, ordinal = ords[w], True
        if value is None:
            continue
        prev = words[k - 1] if k else ""
        # a reference, not a count: level 3, level two, deck #1, jeu n° 2, "number 4"
        if not w.isdigit() and not ordinal and prev in ("level", "niveau"):
            out.append(Fact("number", (value, "level #"), _quote(toks, k - 1, k + 1, text), line))
            continue
        if w.isdigit():
            back = k - 1
            while back >= 0 and words[back] in ("#", "°", "n", "et", "and", "&", ",") and k - back <= 4:
                back -= 1
            ref_word = words[back] if back >= 0 else ""
            if prev in refs or (ref_word in refs and prev in ("#", "°")):
                ref = refs[prev] if prev in refs else refs[ref_word]
                start = k - 1 if prev in refs else back
                if not (lang == "fr" and ref_word == "jeu" and words[k + 1:k + 2] == ["de"]):
                    out.append(Fact("number", (value, f"{ref} #"), _quote(toks, start, k + 1, text), line))
                    continue
        # a range: 1-5, 2- 4, "entre 2 et 4", "de 1 a 10", "from 1-10"
        if w.isdigit() and k + 2 < n and words[k + 2].isdigit() and (
                words[k + 1] == "-" or (words[k + 1] in ("a", "et", "to", "and") and prev in ("entre", "de", "from", "between"))):
            unit, end = _unit_after(toks, k + 2, lang)
            if not unit and prev in UNITS[lang]:
                unit = UNITS[lang][prev]
            out.append(Fact("number", ((value, int(words[k + 2])), unit),
                            _quote(toks, k, max(end, k + 3), text), line))
            skip_to = k + 3
            continue
        if lang == "fr" and w == "deux" and prev == "les":
            weak = False                              # "les deux": both
        unit, end = _unit_after(toks, k, lang)
        if w == "twice" or words[k + 1:k + 2] == ["fois"]:
            unit = "times"
        if ordinal:
            value = ("ord", value)
        out.append(Fact("number", (value, unit), _quote(toks, k, max(end, k + 1), text), line, weak))
    return out


def _negations(toks: list[Tok], text: str, line_of, lang: str) -> tuple[list[Fact], list[tuple[str, int]]]:
    """Negation markers, one Fact each (a double negative is one Fact counting two), and
    the French constructions with "ne" that are no negation: ("only", i) for "ne ... que",
    ("at-most", i) for "ne ... plus de X que", ("until", i) for "tant que ... ne ... pas"."""
    out: list[Fact] = []
    marks: list[tuple[str, int]] = []
    used: set[int] = set()
    words = [t.word for t in toks]
    n = len(words)

    def add(i: int, j: int, what: str = "negation") -> None:
        out.append(Fact("negation", (what,), _quote(toks, i, j, text), line_of(toks[i].pos)))

    if lang == "en":
        for i, w in enumerate(words):
            if i in used:
                continue
            if w in ("no", "not") and words[i + 1:i + 2] == ["more"] and "than" in words[i + 2:i + 7]:
                continue                               # "no more X than Y": at most
            if w in _NEG_EN:
                if i + 1 < n and words[i + 1] in _NEG_PREFIXED:
                    used.add(i + 1)
                    add(i, i + 2, "double negative")
                else:
                    add(i, i + 1)
            elif w in _NEG_PREFIXED:
                add(i, i + 1)
        return out, marks
    until_ne: dict[int, int] = {}
    for i, w in enumerate(words):
        if w == "tant" and words[i + 1:i + 2] == ["que"]:
            for j in range(i + 2, min(n, i + 6)):
                if words[j] == "ne":
                    until_ne[j] = i
                    break
    for i, w in enumerate(words):
        if i in used:
            continue
        if w == "ne":
            found = None
            for j in range(i + 1, min(n, i + 8)):
                if words[j] in _CLAUSE_END:
                    break
                if words[j] in _NE_PARTNERS:
                    found = j
                    break
            if found is None:
                continue                               # expletive "ne", or part of "aucun ... ne"
            used.add(found)
            partner = words[found]
            if partner == "que":
                marks.append(("only", i))
            elif partner == "plus" and words[found + 1:found + 2] in (["de"], ["d"]) and "que" in words[found + 2:found + 8]:
                marks.append(("at-most", i))
            elif i in until_ne:
                marks.append(("until", until_ne[i]))
            elif found + 1 < n and words[found + 1] in _NEG_PREFIXED:
                used.add(found + 1)
                add(i, found + 2, "double negative")
            else:
                add(i, found + 1)
        elif w in _NEG_FR_FREE:
            if w == "pas" and words[i + 1:i + 2] == ["plus"]:
                marks.append(("at-most", i))
                used.add(i + 1)
            else:
                add(i, i + 1)
        elif w in _NEG_PREFIXED:
            add(i, i + 1)
    return out, marks


def _regex_facts(toks: list[Tok], text: str, line_of, lang: str, marks: list[tuple[str, int]]) -> list[Fact]:
    """Conditions and key terms, matched on the folded token stream."""
    words = [t.word for t in toks]
    flat = " ".join(words)
    starts, pos = [], 0
    for w in words:
        starts.append(pos)
        pos += len(w) + 1

    def span(m) -> tuple[int, int]:
        i = max(k for k, s in enumerate(starts) if s <= m.start())
        j = max(k for k, s in enumerate(starts) if s < m.end()) + 1
        return i, j

    out: list[Fact] = []
    until_at = {i for what, i in marks if what == "until"}
    for cls, pat in CONDITIONS[lang]:
        for m in re.finditer(pat, flat):
            i, j = span(m)
            if i in until_at:
                continue
            out.append(Fact("condition", (cls,), _quote(toks, i, j, text), line_of(toks[i].pos)))
    for what, i in marks:
        if what == "until":
            out.append(Fact("condition", ("until",), _quote(toks, i, i + 2, text) + " ... ne pas",
                            line_of(toks[i].pos)))
        else:
            out.append(Fact("term", (what,), "ne ... que" if what == "only" else "ne ... plus de ... que",
                            line_of(toks[i].pos)))
    for concept, (_, en, fr) in TERMS.items():
        for m in re.finditer(en if lang == "en" else fr, flat):
            i, j = span(m)
            out.append(Fact("term", (concept,), _quote(toks, i, j, text), line_of(toks[i].pos)))
    return out


def facts_of(text: str, lang: str, line_of=lambda pos: 0) -> list[Fact]:
    """Every fact a piece of text states."""
    toks = tokens(text, lang)
    negs, marks = _negations(toks, text, line_of, lang)
    return _numbers(toks, text, line_of, lang) + negs + _regex_facts(toks, text, line_of, lang, marks)


def concepts_of(text: str, lang: str, facts: list[Fact]) -> frozenset:
    """What a sentence speaks of, in terms shared by both languages (for alignment)."""
    out = {_CONCEPT_OF[lang][t.word] for t in tokens(text, lang) if t.word in _CONCEPT_OF[lang]}
    for f in facts:
        if f.kind == "number" and not f.weak:
            v = f.key[0]
            out |= {f"#{x}" for x in v} if isinstance(v, tuple) and v[0] != "ord" else {f"#{v}"}
        elif f.kind in ("condition", "term"):
            out.add(f"{f.kind}:{f.key[0]}")
        elif f.kind == "negation":
            out.add("negation")
    return frozenset(out)


# ---------------------------------------------------------------------------------------
# the rulebook: lines by language, sentences, and which sentences translate each other


@dataclass(eq=False)
class Sentence:
    lang: str
    text: str
    lines: tuple[int, ...]
    facts: list[Fact]
    concepts: frozenset
    block: int


def _range(rng: str) -> tuple[int, int]:
    first, _, last = str(rng).partition("-")
    return int(first), int(last or first)


def _runs(lines: Iterable[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for n in sorted(set(lines)):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def cited_lines(source: Iterable[str], book: str) -> list[int]:
    out: set[int] = set()
    for cite in source:
        name, _, rng = cite.rpartition(":")
        if name == book:
            first, last = _range(rng)
            out |= set(range(first, last + 1))
    return sorted(out)


def _continues(line: str, nxt: str) -> bool:
    """Whether a sentence runs on from one line into the next."""
    line, nxt = line.rstrip(), nxt.lstrip()
    if not line or not nxt or line[-1] in ".!?:":
        return False
    if nxt[0].islower():
        return True
    last, first = line.split()[-1], nxt.split()
    caps = lambda w: w.isalpha() and w.isupper()
    return caps(last) and len(last) > 1 and caps(first[0]) and (len(first[0]) > 1 or (len(first) > 1 and caps(first[1])))


def _dice(a: frozenset, b: frozenset) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


ALIGN_MIN = 0.5     # sentences sharing less than this (Dice over concepts) are not paired


class Book:
    """A rulebook: its lines (OCR damage undone), the language of each, its sentences,
    and the English and French sentences that are each other's best match."""

    def __init__(self, name: str, lines: list[str], languages: Mapping[str, list]):
        self.name = name
        self.lang_of: dict[int, str] = {}
        self.blocks: dict[str, list[tuple[int, int]]] = {}
        for lang, ranges in (languages or {}).items():
            for rng in ranges:
                first, last = _range(rng)
                self.blocks.setdefault(lang, []).append((first, last))
                for k in range(first, last + 1):
                    self.lang_of[k] = lang
        self.lines = {i + 1: normalise(text, self.lang_of.get(i + 1, "en")) for i, text in enumerate(lines)}
        self.sentences: dict[str, list[Sentence]] = {}
        for lang in LANGS:
            self.sentences[lang] = [s for b, block in enumerate(self.blocks.get(lang, []))
                                    for s in self._split(lang, block, b)]
        self.partner: dict[int, Sentence] = {}
        self._align()

    def _split(self, lang: str, block: tuple[int, int], b: int) -> list[Sentence]:
        out: list[Sentence] = []
        numbers = [k for k in range(block[0], block[1] + 1) if k in self.lines]
        paragraphs: list[list[int]] = []
        for k in numbers:
            if paragraphs and _continues(self.lines[paragraphs[-1][-1]], self.lines[k]):
                paragraphs[-1].append(k)
            else:
                paragraphs.append([k])
        for para in paragraphs:
            text, offsets = "", []
            for k in para:
                offsets.append((len(text), k))
                text += self.lines[k].strip() + " "

            def line_at(pos: int) -> int:
                return max((k for start, k in offsets if start <= pos), default=para[0])

            for m in re.finditer(r"\S.*?(?:[.!?](?=\s)|$)", text.rstrip(), re.S):
                s, base = m.group(), m.start()
                facts = facts_of(s, lang, lambda p, base=base: line_at(base + p))
                first, last = line_at(base), line_at(base + len(s) - 1)
                out.append(Sentence(lang, s, tuple(range(first, last + 1)), facts, concepts_of(s, lang, facts), b))
        return out

    def _align(self) -> None:
        en, fr = self.sentences["en"], self.sentences["fr"]
        score = {(i, j): _dice(e.concepts, f.concepts) for i, e in enumerate(en) for j, f in enumerate(fr)
                 if e.block == f.block}
        for i, e in enumerate(en):
            row = [(score[(i, j)], j) for j in range(len(fr)) if (i, j) in score]
            if not row:
                continue
            s, j = max(row, key=lambda t: (t[0], -t[1]))
            col = [(score[(k, j)], k) for k in range(len(en)) if (k, j) in score]
            if s >= ALIGN_MIN and max(col, key=lambda t: (t[0], -t[1]))[1] == i:
                self.partner[id(e)] = fr[j]
                self.partner[id(fr[j])] = e

    def passage(self, lang: str, lines: Iterable[int]) -> list[Sentence]:
        """The sentences of this language touching these lines."""
        want = set(lines)
        return [s for s in self.sentences[lang] if want & set(s.lines)]

    def partner_of(self, s: Sentence) -> Sentence | None:
        return self.partner.get(id(s))

    def around(self, s: Sentence) -> list[Sentence]:
        """The sentence and its neighbours in the same block."""
        same = self.sentences[s.lang]
        i = next(k for k, x in enumerate(same) if x is s)
        return [x for x in same[max(0, i - 1):i + 2] if x.block == s.block]


# ---------------------------------------------------------------------------------------
# comparing two passages


def _matches(f: Fact, g: Fact, strict: bool = False) -> bool:
    """Whether fact g (the other language) states what fact f states. Quantities match
    when their numbers are equal and they count the same thing (or either is unknown);
    unless `strict`, any two kinds of card count as the same thing."""
    if f.kind != g.kind:
        return False
    if f.kind != "number":
        return f.key == g.key
    if f.key[0] != g.key[0]:
        return False
    return not f.key[1] or not g.key[1] or f.key[1] == g.key[1] or (not strict and f.family == g.family)


def _clashes(f: Fact, g: Fact) -> bool:
    """Whether g counts the same thing as f with another value."""
    if f.kind != "number" or g.kind != "number" or f.weak or g.weak or f.ordinal or g.ordinal:
        return False
    if not f.key[1] or f.key[1] != g.key[1] or f.family == "label" or f.key[1].endswith("#"):
        return False
    return f.key[0] != g.key[0]


@dataclass
class Difference:
    kind: str                                 # "numbers", "negation", "condition", "terms"
    facts: dict[str, list[Fact]]              # language -> what it states that the other does not
    lines: dict[str, set[int]]                # language -> the lines compared
    aligned: bool = False                     # shown by a pair of aligned sentences
    instead: dict[int, list[Fact]] = field(default_factory=dict)   # id(fact) -> what the other states instead
    counts: list[tuple[int, int]] = field(default_factory=list)     # negations (en, fr) per aligned pair
    where: dict[str, set[int]] = field(default_factory=lambda: {"en": set(), "fr": set()})  # lines showing it

    def add(self, lang: str, fact: Fact) -> None:
        if all((x.key, x.text, x.line) != (fact.key, fact.text, fact.line) for x in self.facts[lang]):
            self.facts[lang].append(fact)


_KIND_OF = {"number": "numbers", "negation": "negation", "condition": "condition", "term": "terms"}


@dataclass
class Comparison:
    differences: list[Difference]
    gaps: list[tuple[str, Fact, Sentence]]     # stated in an other-language line the clause does not cite


def compare(book: Book, en: list[Sentence], fr: list[Sentence], relevant,
            counterparts=lambda s: []) -> Comparison:
    """Differences between an English and a French passage.

    Between aligned sentences, every fact one states that the other passage states nowhere
    (or counts with another value) is a difference, and so is a different number of
    negations. Over the whole passages, a fact one states and the other does not is a
    difference only when `relevant(fact)` (the clause relies on it) and the sentence's own
    translation, where the clause does not cite it, does not state it either: neither its
    aligned sentence nor the other-language lines that other clauses cite with it
    (`counterparts(sentence)`)."""
    side = {"en": en, "fr": fr}
    everything = {lang: [f for s in side[lang] for f in s.facts] for lang in LANGS}
    lines = {lang: {k for s in side[lang] for k in s.lines} for lang in LANGS}
    found: dict[str, Difference] = {}
    gaps: list[tuple[str, Fact, Sentence]] = []

    def diff(kind: str) -> Difference:
        return found.setdefault(kind, Difference(kind, {"en": [], "fr": []}, {l: set(lines[l]) for l in LANGS}))

    shown: set[int] = set()
    in_fr = {id(s) for s in fr}
    weak_conditions = {"if", "when"}      # often said without a marker ("for 5-8 players ...")
    for e in en:
        f = book.partner_of(e)
        if f is None or id(f) not in in_fr:
            continue
        pair = {"en": e, "fr": f}
        for lang, other in (("en", "fr"), ("fr", "en")):
            for fact in pair[lang].facts:
                if fact.kind == "negation" or fact.weak or id(fact) in shown:
                    continue
                if any(_matches(fact, g) for g in pair[other].facts):
                    continue
                if fact.kind == "condition" and fact.key[0] in weak_conditions and not any(
                        g.kind == "condition" for g in pair[other].facts):
                    continue
                clash = [g for g in pair[other].facts if _clashes(fact, g)]
                if fact.kind == "number":     # counts: the partner and the sentences beside it
                    near, strict = [g for x in book.around(pair[other]) for g in x.facts], True
                else:                         # terms and conditions: the whole passage
                    near, strict = everything[other], False
                if clash or not any(_matches(fact, g, strict) for g in near):
                    d = diff(_KIND_OF[fact.kind])
                    d.add(lang, fact)
                    d.aligned = True
                    d.where[lang] |= set(pair[lang].lines)
                    d.where[other] |= set(pair[other].lines)
                    if clash:
                        d.instead[id(fact)] = clash
                        for g in clash:
                            d.add(other, g)
                            shown.add(id(g))
                    shown.add(id(fact))
        count = {l: sum(2 if x.key == ("double negative",) else 1 for x in pair[l].facts if x.kind == "negation")
                 for l in LANGS}
        if count["en"] != count["fr"]:
            d = diff("negation")
            d.aligned = True
            d.counts.append((count["en"], count["fr"]))
            for l in LANGS:
                d.where[l] |= set(pair[l].lines)
            for l in LANGS:
                for x in pair[l].facts:
                    if x.kind == "negation":
                        d.add(l, x)
    for lang, other in (("en", "fr"), ("fr", "en")):
        for s in side[lang]:
            for fact in s.facts:
                if fact.kind in ("negation", "condition") or fact.weak or id(fact) in shown:
                    continue
                if any(_matches(fact, g) for g in everything[other]) or not relevant(fact):
                    continue
                elsewhere = [p for p in [book.partner_of(s)] + list(counterparts(s)) if p is not None]
                p = next((p for p in elsewhere if any(_matches(fact, g) for g in p.facts)), None)
                if p is not None:
                    gaps.append((lang, fact, p))
                    continue
                d = diff(_KIND_OF[fact.kind])
                d.add(lang, fact)
                d.where[lang].add(fact.line)
                d.where[other] |= lines[other]
    return Comparison([d for d in found.values() if d.facts["en"] or d.facts["fr"]], gaps)


# ---------------------------------------------------------------------------------------
# what the clause's own words rely on, and what settles a difference


_WORD_NUMBERS = {w: v for w, v in NUMBER_WORDS["en"].items() if w not in WEAK_WORDS | {"both", "twice"}}


def _clause_text(c) -> str:
    parts = [c.says or "", c.assumption or "", c.because or ""]
    for name, r in c.readings.items():
        parts += [name.replace("-", " "), r.means]
    return " ".join(parts)


def _ints(value) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str) and value.isdigit():
        return {int(value)}
    if isinstance(value, Mapping):
        return set().union(*(_ints(k) | _ints(v) for k, v in value.items())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_ints(v) for v in value)) if value else set()
    return set()


def clause_numbers(c) -> set[int]:
    """Every number the clause's words or formal content state."""
    text = fold(_clause_text(c))
    out = {int(d) for d in re.findall(r"\d+", text)}
    out |= {v for w, v in _WORD_NUMBERS.items() if re.search(rf"\b{w}\b", text)}
    out |= {v for w, v in ORDINALS["en"].items() if v > 1 and re.search(rf"\b{w}\b", text)}
    out |= _ints(dict(c.formal))
    for r in c.readings.values():
        out |= _ints(dict(r.formal))
    return out


def relevant_to(c):
    """Whether the clause relies on a fact: a quantity with a known unit whose number the
    clause states, or a key term its words use."""
    text = fold(_clause_text(c))
    numbers = clause_numbers(c)

    def relevant(fact: Fact) -> bool:
        if fact.kind == "number":
            if fact.ordinal or not fact.key[1] or fact.family == "label" or fact.key[1] == "label #":
                return False
            v = fact.key[0]
            return bool((set(v) if isinstance(v, tuple) else {v}) & numbers)
        if fact.kind == "term":
            return bool(re.search(TERMS[fact.key[0]][1], text))
        return False
    return relevant


def _covers(c, d: Difference) -> str:
    """How this clause settles the difference: an adopted reading or an assumption whose
    words speak of the differing fact. '' when it does not."""
    if not (c.readings and c.adopted) and not c.assumption:
        return ""
    means = c.readings[c.adopted].means if c.readings and c.adopted else ""
    text = fold(" ".join([c.adopted or "", means, c.because or "", c.assumption or ""]).replace("-", " "))
    for f in d.facts["en"] + d.facts["fr"]:
        hit = False
        if f.kind == "term":
            hit = bool(re.search(TERMS[f.key[0]][1], text))
        elif f.ordinal:
            word = next((w for w, v in ORDINALS["en"].items() if v == f.key[0][1]), "")
            hit = bool(word) and bool(re.search(rf"\b{word}\b", text))
        elif f.kind == "negation" and f.key == ("double negative",):
            hit = any(re.search(rf"\b{re.escape(fold(w))}\b", text) for w in f.text.split()[1:])
        elif f.kind == "number" and f.key[1] and not isinstance(f.key[0], tuple):
            hit = str(f.key[0]) in re.findall(r"\d+", text) and ("english" in text or "french" in text)
        if hit:
            if c.readings and c.adopted:
                return f"clause {c.id} adopts reading {c.adopted!r}, because {c.because or means}"
            return f"clause {c.id} rests on an assumption: {c.assumption}"
    return ""


# ---------------------------------------------------------------------------------------
# lines no clause cites: placed between the citations around them in both languages


def _anchor_chain(spec: Spec, book: str, en_block, fr_block) -> list[tuple[int, int]]:
    """The heaviest chain of (English line, French line) pairs cited by the same clauses,
    in reading order in both languages."""
    weight: dict[tuple[int, int], float] = {}
    for c in spec.clauses.values():
        lines = cited_lines(c.source, book)
        en = [k for k in lines if en_block[0] <= k <= en_block[1]]
        fr = [k for k in lines if fr_block[0] <= k <= fr_block[1]]
        for i in en:
            for j in fr:
                weight[(i, j)] = weight.get((i, j), 0.0) + 1.0 / (len(en) * len(fr))
    pairs = sorted(weight)
    if not pairs:
        return []
    best, back = [], []
    for p, (i, j) in enumerate(pairs):
        b, k = weight[(i, j)], -1
        for q in range(p):
            qi, qj = pairs[q]
            if qi <= i and qj <= j and best[q] + weight[(i, j)] > b:
                b, k = best[q] + weight[(i, j)], q
        best.append(b)
        back.append(k)
    p = max(range(len(pairs)), key=lambda p: best[p])
    chain = []
    while p >= 0:
        chain.append(pairs[p])
        p = back[p]
    return chain[::-1]


def uncited_pairs(spec: Spec, book: Book) -> list[tuple[list[int], list[int]]]:
    """(English lines, French lines) no clause cites, lying between the same two clause
    citations in both languages, or filling a pair of language blocks no clause cites.
    Runs of equal length are paired line by line."""
    cited = {k for c in spec.clauses.values() for k in cited_lines(c.source, book.name)}
    out = []
    for en_block, fr_block in zip(book.blocks.get("en", []), book.blocks.get("fr", [])):
        chain = _anchor_chain(spec, book.name, en_block, fr_block)
        bounds = [(en_block[0] - 1, fr_block[0] - 1)] + chain + [(en_block[1] + 1, fr_block[1] + 1)]
        for (a_i, a_j), (b_i, b_j) in zip(bounds, bounds[1:]):
            en, fr = list(range(a_i + 1, b_i)), list(range(a_j + 1, b_j))
            if not en or not fr or any(k in cited for k in en + fr):
                continue
            out += [([i], [j]) for i, j in zip(en, fr)] if len(en) == len(fr) else [(en, fr)]
    return out


# ---------------------------------------------------------------------------------------
# reporting


def _cite(book: str, lines: Iterable[int]) -> str:
    return ", ".join(f"{book}:{r[0]}" if len(r) == 1 else f"{book}:{r[0]}-{r[-1]}" for r in _runs(lines))


def _cites(book: str, lines: Iterable[int]) -> list[str]:
    return [f"{book}:{r[0]}" if len(r) == 1 else f"{book}:{r[0]}-{r[-1]}" for r in _runs(lines)]


def describe(f: Fact) -> str:
    """A fact in a few words: the quote, and what kind of fact it is."""
    if f.kind == "number":
        return f"{f.text} (ordinal)" if f.ordinal else f.text
    if f.kind == "term":
        return f"{f.text} ({TERMS[f.key[0]][0]})" if f.key[0] in TERMS else f.text
    if f.kind == "condition":
        return f"{f.text} ({f.key[0]})"
    if f.key == ("double negative",):
        return f"{f.text} (double negative)"
    return f.text


def _listing(facts: Iterable[Fact]) -> list[str]:
    return list(dict.fromkeys(describe(f) for f in facts))


_WHAT = {"numbers": "numbers", "terms": "terms", "condition": "conditions"}


def _what(kind: str, facts: list[Fact]) -> str:
    if kind == "terms":
        kinds = {TERM_KIND.get(f.key[0], "a key term") for f in facts}
        if len(kinds) == 1 and len(facts) == 1:
            return kinds.pop()
    return _WHAT[kind]


def _verdict(d: Difference, book: str) -> str:
    if d.kind == "negation":
        counts = ", ".join(f"{a} against {b}" for a, b in d.counts)
        dbl = [(l, f) for l in LANGS for f in d.facts[l] if f.key == ("double negative",)]
        if dbl:
            lang, f = dbl[0]
            other = "fr" if lang == "en" else "en"
            single = _listing(x for x in d.facts[other] if x.kind == "negation")
            return (f"negation count differs ({counts}, English against French): the {LANG_NAME[lang]} has a "
                    f"double negative ({f.text}) where the {LANG_NAME[other]} has a plain negative"
                    + (f" ({', '.join(single)})" if single else ""))
        return (f"negation count differs between aligned sentences ({counts}, English against French): "
                f"English negations {', '.join(_listing(d.facts['en'])) or 'none'}; "
                f"French negations {', '.join(_listing(d.facts['fr'])) or 'none'}")
    contrasts = {id(g) for gs in d.instead.values() for g in gs}
    parts = []
    for lang in LANGS:
        other = "fr" if lang == "en" else "en"
        for f in d.facts[lang]:
            if id(f) in d.instead:
                parts.append(f"{LANG_NAME[lang]} states {describe(f)} where the {LANG_NAME[other]} states "
                             + ", ".join(_listing(d.instead[id(f)])))
        alone = [f for f in d.facts[lang] if id(f) not in d.instead and id(f) not in contrasts]
        if alone:
            where = _cite(book, d.where[other]) or "its lines"
            parts.append(f"{LANG_NAME[lang]} states {_what(d.kind, alone)} with no {LANG_NAME[other]} counterpart in "
                         f"{where}: {', '.join(_listing(alone))}")
    return "; ".join(parts)


_QUESTION = {
    "numbers": "do the English ({en}) and French ({fr}) state the same numbers and quantities?",
    "negation": "do the aligned English ({en}) and French ({fr}) sentences negate the same things?",
    "condition": "do the aligned English ({en}) and French ({fr}) sentences state the same conditions?",
    "terms": "do the English ({en}) and French ({fr}) carry the same qualifiers and key terms?",
}


def _report(book: str, clauses: list, d: Difference) -> Finding:
    en_cite, fr_cite = _cite(book, d.where["en"]), _cite(book, d.where["fr"])
    if clauses:
        head = clauses[0].id
        resolution = next((r for r in (_covers(c, d) for c in clauses) if r), "")
        resolved = bool(resolution)
        if not resolved:
            resolution = ("nothing settles it: no adopted reading or assumption of "
                          + ", ".join(c.id for c in clauses) + " speaks to this point")
    else:
        head = "lines-" + "-".join(str(min(d.where[l])) for l in LANGS if d.where[l])
        resolved, resolution = False, "nothing settles it: no clause cites these lines"
    method = METHOD
    if not d.aligned:
        method += ("; no aligned sentence shows it: reported because the clause's own words rely "
                   "on the fact and the other language's lines state it nowhere")
    return Finding(
        id=f"translation:{head}:{d.kind}",
        kind="translation",
        clauses=[c.id for c in clauses],
        sources=_cites(book, d.where["en"]) + _cites(book, d.where["fr"]),
        question=_QUESTION[d.kind].format(en=en_cite, fr=fr_cite),
        verdict=_verdict(d, book),
        resolved=resolved,
        resolution=resolution,
        witness={lang: {"lines": _cite(book, d.where[lang]), "facts": _listing(d.facts[lang])} for lang in LANGS},
        method=method,
        extra={"aligned": d.aligned,
               "compared": {lang: _cite(book, d.lines[lang]) for lang in LANGS}},
    )


# ---------------------------------------------------------------------------------------
# the check


def _cocited(spec: Spec, book: Book, s: Sentence) -> list[Sentence]:
    """The other language's sentences in lines that some clause cites together with this
    sentence's lines: where the spec itself places its translation."""
    other = "fr" if s.lang == "en" else "en"
    lines: set[int] = set()
    for c in spec.clauses.values():
        cited = cited_lines(c.source, book.name)
        if set(s.lines) & set(cited):
            lines |= {k for k in cited if book.lang_of.get(k) == other}
    return book.passage(other, lines)


def load_book(folder: Path, name: str, info: Mapping) -> Book | None:
    f = Path(folder) / name
    if not f.is_file():
        return None
    return Book(name, f.read_text(encoding="utf-8", errors="replace").splitlines(), info.get("languages") or {})


def _signature(d: Difference) -> tuple:
    return (d.kind, tuple(sorted((l, f.kind, str(f.key), f.text, f.line) for l in LANGS for f in d.facts[l])))


def _lead(spec: Spec, book: Book, d: Difference):
    """Sort key putting first the clause whose words speak most of the difference: the
    facts it relies on, then how many concepts its paraphrase shares with the sentences."""
    shown = frozenset().union(*([s.concepts for s in book.sentences["en"] if d.where["en"] & set(s.lines)]
                                or [frozenset()]))
    order = {cid: i for i, cid in enumerate(spec.clauses)}

    def key(c):
        relied = sum(relevant_to(c)(f) for l in LANGS for f in d.facts[l])
        return (-relied, -_dice(concepts_of(c.says or "", "en", facts_of(c.says or "", "en")), shown), order[c.id])
    return key


def translation_findings(spec: Spec, books: Path | None = None) -> tuple[list[Finding], str]:
    """Where the English and French versions of the spec's clauses state different facts.

    `books` is the folder of rulebook texts (default `rulebooks_dir()`: the
    RULINGS_RULEBOOKS variable). Returns the findings and a note saying what was compared,
    or, without the texts, no findings and a note saying what the check needs."""
    t0 = time.perf_counter()
    folder = Path(books) if books is not None else rulebooks_dir()
    multi = {name: info for name, info in (spec.rulebooks or {}).items()
             if all(l in (info.get("languages") or {}) for l in LANGS)}
    if not multi:
        return [], f"translation check: no rulebook of {spec.game} is given in both English and French"
    if folder is None or not folder.is_dir():
        where = (f"the folder {str(folder)!r} does not exist" if folder is not None
                 else f"none was given (set {RULEBOOKS_ENV} to their folder, or pass it)")
        return [], (f"translation check not run: it needs the rulebook texts ({', '.join(multi)}) to "
                    f"compare the English and French lines the clauses cite, and {where}")
    findings: list[Finding] = []
    compared, missing, uncited, gaps = 0, [], 0, []
    for name, info in multi.items():
        book = load_book(folder, name, info)
        if book is None:
            missing.append(name)
            continue
        groups: dict[tuple, tuple[Difference, list]] = {}
        for c in spec.clauses.values():
            lines = cited_lines(c.source, name)
            by_lang = {l: [k for k in lines if book.lang_of.get(k) == l] for l in LANGS}
            if not by_lang["en"] or not by_lang["fr"]:
                continue
            compared += 1
            en, fr = (book.passage(l, by_lang[l]) for l in LANGS)
            result = compare(book, en, fr, relevant_to(c), lambda s: _cocited(spec, book, s))
            gaps += [(c.id, f, p) for _, f, p in result.gaps]
            for d in result.differences:
                key = _signature(d)
                if key in groups:          # the same difference, seen through another clause
                    groups[key][1].append(c)
                    for l in LANGS:
                        groups[key][0].lines[l] |= d.lines[l]
                        groups[key][0].where[l] |= d.where[l]
                else:
                    groups[key] = (d, [c])
        for d, clauses in groups.values():
            clauses.sort(key=_lead(spec, book, d))
            findings.append(_report(name, clauses, d))
        for en_lines, fr_lines in uncited_pairs(spec, book):
            uncited += 1
            en, fr = book.passage("en", en_lines), book.passage("fr", fr_lines)
            for d in compare(book, en, fr, lambda f: False).differences:
                findings.append(_report(name, [], d))
    seen: dict[str, int] = {}
    for f in findings:
        seen[f.id] = seen.get(f.id, 0) + 1
        if seen[f.id] > 1:
            f.id = f"{f.id}-{seen[f.id]}"
    seconds = time.perf_counter() - t0
    for f in findings:
        f.seconds = round(seconds / len(findings), 4)
    read = [n for n in multi if n not in missing]
    note = (f"translation check: compared {compared} clauses citing English and French lines, and "
            f"{uncited} pairs of lines no clause cites, in {', '.join(read) or 'no rulebook'}: "
            f"{len(findings)} differences, {sum(not f.resolved for f in findings)} unresolved "
            f"({seconds:.2f} s)")
    if gaps:
        shown = list(dict.fromkeys(f"{cid}: {describe(f)} is at {_cite(name, p.lines)}" for cid, f, p in gaps))
        note += ("; not counted as differences, facts the other language states in lines the clause "
                 "does not cite: " + "; ".join(shown[:8]) + (f" and {len(shown) - 8} more" if len(shown) > 8 else ""))
    if missing:
        note += f"; the check needs {', '.join(missing)}, not found in {folder}"
    return findings, note
