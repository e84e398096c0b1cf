"""Messages for a remote player, with the server's own folders taken out.

Error messages (a ruleset that does not load, a file that cannot be written) name files
by their full path; a player connected over SSH has no business seeing where on the
server their files live, or where the server is installed.  Each such folder becomes
its last part's meaning instead: a file in the player's own folder is named alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def server_folders(player_folder: Path | None) -> list[Path]:
    """The folders whose paths a remote player must not see."""
    from tui.engine.ruleset.loader import bundled_rulesets_dir
    from tui.paths import user_cache_dir, user_config_dir, user_data_dir

    folders = [bundled_rulesets_dir(), user_config_dir(), user_data_dir(), user_cache_dir(),
               Path.home()]
    if player_folder is not None:
        folders.insert(0, player_folder)
    return folders


def hide_server_paths(text: str, folders: Iterable[Path]) -> str:
    """`text` with every path under `folders` cut to what lies below the folder."""
    for folder in sorted({str(f) for f in folders if str(f) not in ("", os.sep)},
                         key=len, reverse=True):
        text = text.replace(folder + os.sep, "").replace(folder, "the server's folder")
    return text
