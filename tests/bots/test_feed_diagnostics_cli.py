"""`tests/bench/feed_diagnostics.py` refuses flags that would measure nothing, with a usage
error naming the flag, before it plays a deal (a share of 3, `--blind` without the
judgement, error knobs the judgement does not have)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "feed_diagnostics.py"


def load_script():  # noqa: ANN201
    spec = importlib.util.spec_from_file_location("feed_diagnostics", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("flags", "said"), [
    (["--miss", "3"], "3 is not a share between 0 and 1"),
    (["--false", "-0.1"], "-0.1 is not a share between 0 and 1"),
    (["--blind"], "--blind goes with --judged"),
    (["--judged", "--miss", "0.5"], "--miss and --false make hard's peek err"),
])
def test_flags_that_measure_nothing_are_refused(flags: list[str], said: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    with pytest.raises(SystemExit) as stop:
        script.main(["oracle", "--deals", "1", *flags])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
