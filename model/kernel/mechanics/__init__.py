"""The kernel's mechanics and zone kinds: importing this package registers every one.

Each module holds one family: its mechanics (`registry.Mechanic`) and zone kinds
(`registry.ZoneKind`), registered by name when the module is imported. The core of the
kernel never imports them; it finds them in `rulings.kernel.registry`.
"""
from . import board, draw, ends, hands, lay, layout, play, table, tricks  # noqa: F401  (each registers what it holds)
