"""Play over SSH: one process serves a Textual app to every SSH session.

`start_server` (in `tui.net.startup`) is the entry point; `SSHDriver` binds one app to
one session's channel; `SessionInfo` tells the app who is at the other end.
"""

import warnings

# asyncssh imports cryptography's DSA support, and newer cryptography warns about that at
# import; a host starting `rummy serve` can do nothing about it, so it is not printed.
warnings.filterwarnings("ignore", message="DSA is deprecated", module=r"asyncssh\.")
