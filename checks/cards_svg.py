"""Card pictures, drawn as inline SVG from the spec's cards (no images, no fonts fetched).

A card shows its token in the top corner and large in the middle, with its point value
at the foot; wilds and special cards are filled so they stand out, and carry
their display name (the spec's `notation.names`). A wild in a meld can show the card it
stands for under the picture. Everything is taken from `spec.cards`: token, value,
whether it is wild, and its name.
"""
from __future__ import annotations

from html import escape

from rulings.cards import CardType, Cards

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
# ink by point value, lowest first: purely a reading aid (the cards' colours play no part)
INKS = ("#1d4ed8", "#047857", "#b45309", "#7c3aed", "#be123c")
WILD_FILLS = ("#0f766e", "#7c2d12", "#4338ca", "#9d174d")


def _ink(cards: Cards, card: CardType) -> str:
    values = sorted({t.value for t in cards.naturals})
    return INKS[values.index(card.value) % len(INKS)] if card.value in values else INKS[0]


def card_svg(cards: Cards, token: str, stands_for: str | None = None) -> str:
    """One card as an inline <svg class="card">, 50 x 70 units."""
    card = cards.parse([token])[0]
    name = cards.describe(card)
    label = f"{card.token}" + (f" ({name})" if name != card.token else "") + f", {card.value} points"
    if stands_for:
        label += f", standing for {stands_for}"
    tok = escape(card.token)
    corner = 10 if len(card.token) <= 2 else 8
    middle = 25 if len(card.token) == 1 else (19 if len(card.token) == 2 else 13)
    if card.natural:
        ink, fill = _ink(cards, card), "#ffffff"
        word = name if name != card.token else ""
    else:
        others = [t.token for t in cards.types if not t.natural]
        fill = WILD_FILLS[others.index(card.token) % len(WILD_FILLS)]
        ink = "#ffffff"
        word = name if name != card.token else ("wild" if card.wild else "")
    parts = [
        f'<svg class="card" role="img" aria-label="{escape(label)}" viewBox="0 0 50 70" width="50" height="70" '
        f'xmlns="http://www.w3.org/2000/svg" data-card="{tok}">',
        f"<title>{escape(label)}</title>",
        f'<rect x="1" y="1" width="48" height="68" rx="5" ry="5" fill="{fill}" stroke="#374151" stroke-width="1.2"/>',
        f'<g fill="{ink}" font-family="{FONT}" font-weight="700" text-anchor="middle">',
        f'<text x="5" y="{3 + corner}" font-size="{corner}" text-anchor="start">{tok}</text>',
        f'<text x="25" y="{34 + middle * 0.36:.1f}" font-size="{middle}">{tok}</text>',
    ]
    if word:
        size = 6 if len(word) <= 6 else 5.2
        parts.append(f'<text x="25" y="52" font-size="{size}" font-weight="600">{escape(word.upper())}</text>')
    parts.append(f'<text x="25" y="63" font-size="7" font-weight="400" opacity="0.85">{card.value} pts</text>')
    parts.append("</g></svg>")
    return "".join(parts)


def figure(cards: Cards, token: str, stands_for: str | None = None, count: int | None = None) -> str:
    """A card with, written under it, the card it stands for (a wild in a meld) or how
    many of it there are."""
    svg = card_svg(cards, token, stands_for)
    cap = f"= {escape(stands_for)}" if stands_for else (f"× {count}" if count is not None else "")
    cap = f"<figcaption>{cap}</figcaption>" if cap else ""
    return f'<figure class="c{" wild" if stands_for else ""}">{svg}{cap}</figure>'
