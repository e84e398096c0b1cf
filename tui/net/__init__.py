"""Play over SSH: one process serves a Textual app to every SSH session.

`start_server` (in `tui.net.server`) is the entry point; `SSHDriver` binds one app to
one session's channel; `SessionInfo` tells the app who is at the other end.
"""
