"""Each student's feedback in the LMS's bulk-upload layout: ``--feedback-zip FILE``.

The feedback files of ``--out`` are named for a person to read; an LMS takes
feedback back in bulk only by its own keys (``cp_queens.grading.intake.lms``):

* **Moodle**: "Upload multiple feedback files in a zip" finds the student by the
  participant id of a path part ``NAME_PARTICIPANTID_assignfeedback_file``
  (``mod/assign/feedback/file/importziplib.php``): one folder per student,
  ``feedback.md`` in it.
* **Canvas**: "Re-upload submissions" reads a file's user id and attachment id from
  its name (``Assignment#infer_comment_context_from_filename``): the download's
  prefix, user id and one of the student's attachment ids, then ``feedback.md``.

Only a row with a download's key gets a file: the key came with the student's own
work, whatever the roster says (two namesakes are two participant ids). A row with
none (a plain file name, Canvas's anonymous names, which carry no user id) is named
instead. Two rows on one path would be one student's feedback over another's: both
are left out and named. The zip is written whole or not at all.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cp_queens.grading.intake.lms as lms
from cp_queens.grading.results import StudentResult
from cp_queens.output import OutputError, reason

#: Each student's file in the zip.
FEEDBACK = "feedback.md"


@dataclass(slots=True)
class Uploaded:
    """The zip's files, and the students with a submission who have none (and why)."""

    files: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def upload_path(lms_name: str, result: StudentResult) -> str | None:
    """Where ``result``'s feedback goes in ``lms_name``'s upload zip; None if nowhere."""
    keys = result.keys
    if lms_name == "moodle":
        participant = keys.get(lms.PARTICIPANT)
        if not participant or not result.entries:
            return None
        folder = lms.moodle_feedback_folder(keys.get("moodle_name") or result.student, participant)
        return f"{folder}/{FEEDBACK}"
    if not result.entries:
        return None
    return lms.canvas_feedback_file(keys, FEEDBACK)


def feedback_zip(
    results: Sequence[StudentResult],
    lms_name: str,
    path: str | Path,
    text: Callable[[StudentResult], str],
) -> Uploaded:
    """Write the upload zip of ``lms_name`` at ``path``: ``text(result)`` for each
    student it can name, one file each."""
    done = Uploaded()
    paths: dict[str, list[StudentResult]] = {}
    for result in results:
        where = upload_path(lms_name, result)
        if where is None:
            if result.entries:
                why = (
                    "an anonymous submission (no user id in its name)"
                    if lms.CANVAS_ANON in result.keys
                    else f"no {lms_name.capitalize()} id in its download's name"
                )
                done.left_out.append(f"{result.student}: {why}")
            continue
        paths.setdefault(where, []).append(result)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for where, owners in sorted(paths.items()):
            if len(owners) > 1:
                names = ", ".join(owner.student for owner in owners)
                done.left_out.append(f"{where}: would hold the feedback of {names}")
                continue
            archive.writestr(where, text(owners[0]).encode("utf-8"))
            done.files.append(where)
    _write_whole(Path(path), buffer.getvalue())
    return done


def beside(export: str | Path) -> Path:
    """The upload zip's default place: beside the gradebook file, ``NAME-feedback.zip``."""
    where = Path(export)
    return where.with_name(f"{where.stem}-feedback.zip")


def _write_whole(path: Path, data: bytes) -> None:
    """``data`` at ``path`` under a temporary name first, renamed when all of it is there."""
    try:
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as error:
        raise OutputError(error.errno, f"cannot write {path}: {reason(error)}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise OutputError(error.errno, f"cannot write {path}: {reason(error)}") from None
