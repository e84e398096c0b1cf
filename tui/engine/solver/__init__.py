"""The solver: how a hand is best arranged into melds, whether it can go out, and
whether it holds a contract.

This is its face: the rest of the code base (bots, app, commands, the deal) imports only
these names; the modules behind them are the solver's own business.
"""

from .api import Arrangement, best_arrangement, find_contract, going_out
from .context import Context, context_for
from .contract_check import contract_melds_ok
from .core import solve

__all__ = [
    "Arrangement",
    "Context",
    "best_arrangement",
    "context_for",
    "contract_melds_ok",
    "find_contract",
    "going_out",
    "solve",
]
