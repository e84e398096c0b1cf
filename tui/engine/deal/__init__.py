"""One deal: the draw, melding and laying off, joker swaps, the discard and going out."""

from .moves import Deal

__all__ = ["Deal"]
