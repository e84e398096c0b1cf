"""One deal: the draw, melding and laying off, joker swaps, the discard and going out."""

from .moves import Deal
from .turns import schedule_position

__all__ = ["Deal", "schedule_position"]
