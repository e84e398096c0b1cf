"""`rummy serve`'s options in seconds take finite numbers only: `nan` or `inf` is a
usage error, never a server whose timers never fire (or fire at once)."""

from __future__ import annotations

import pytest

from tui.cli import main

OPTIONS = ["--idle-timeout", "--turn-timeout", "--keepalive", "--login-grace", "--grace",
           "--bot-delay"]


@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "Infinity"])
def test_nan_and_inf_are_usage_errors(option, value, capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", f"{option}={value}"])
    assert stopped.value.code == 2  # argparse's usage error
    err = capsys.readouterr().err
    assert "finite number" in err and option in err and "Traceback" not in err
