"""The solver: how a hand is best arranged into melds, whether it can go out, and
whether it holds a contract."""

from .api import Arrangement, best_arrangement, find_contract, going_out

__all__ = ["Arrangement", "best_arrangement", "find_contract", "going_out"]
