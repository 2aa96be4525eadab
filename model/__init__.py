"""rulings: card-game rules as declarative specifications, checked with Z3 and a reference engine."""

__version__ = "0.1.0"
