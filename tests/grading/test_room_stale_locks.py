"""A stale entry where a room uid's lock file belongs (issue 44): a link or a folder under
``/run/cp-queens/rooms`` stopped every grading with "Too many levels of symbolic links",
exit 74, naming neither the folder nor what to do. Now one line names the path and the
fix, before any student runs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cp_queens.grading.sandbox import users

as_root = pytest.mark.skipif(not users.dropping(), reason="room uids are handed out as root")


@as_root
@pytest.mark.parametrize("kind", ["link", "folder"])
def test_a_stale_entry_is_one_line_naming_the_path_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    run = tmp_path / "run"
    run.mkdir(mode=0o755)
    folder = run / "rooms"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(users, "LOCKS", folder)
    stale = folder / str(users.BASE)  # where the first uid's lock file belongs
    if kind == "link":
        stale.symlink_to(tmp_path / "elsewhere")
    else:
        stale.mkdir()
    expected = f"{stale} is a {'symbolic link' if kind == 'link' else 'folder'}"
    for ask in (users.check_locks, users.acquire):  # before the class, and at a run
        with pytest.raises(users.UserError) as raised:
            ask()
        said = str(raised.value)
        assert "\n" not in said and expected in said, said
        assert f"remove it (rm -r {stale}) and grade again" in said
    assert not users._TAKEN or users.BASE not in users._TAKEN
    os.close(users.lock_folder())  # the folder itself is still fine to use
