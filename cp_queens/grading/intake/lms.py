"""How Moodle and Canvas name a student's work, and how each takes feedback files back.

The download of a class carries each LMS's own key for the student, which a name
never is (two students called Wei Zhang are one name, two keys):

* **Moodle 4**, "Download all submissions" (``mod/assign/classes/downloader.php``):
  a folder ``Full Name_PARTICIPANTID_assignsubmission_file`` per student (``_``
  after it before Moodle 4.1), or, with "download submissions in folders" off,
  that prefix and ``_`` before each file's name. The full name has any ``_``
  turned into a blank; with blind marking it is ``Participant``. The participant
  id is the assignment's own number for the student, the one the grading
  worksheet's ``Identifier`` says ("Participant 1234501").
* **Canvas**, "Download Submissions" (``lib/content_zipper.rb``):
  ``sortablename[_LATE]_USERID_ATTACHMENTID_file.py``, the sortable name
  ("Zhang, Wei") lower-cased with everything but letters, digits and ``_``
  dropped (``zhangwei``, ``fernándezgarcíamaríalucía``); with anonymous grading
  ``anon_ANONYMOUSID`` instead of the name and the user id.

Feedback goes back by the same keys: Moodle's "Upload multiple feedback files in
a zip" (``mod/assign/feedback/file/importziplib.php``) reads the participant id
from a path part ``NAME_PARTICIPANTID_assignfeedback_file``; Canvas's
"Re-upload submissions" reads the first two all-digit parts of a file's name as
the user id and one of that submission's attachment ids, so a feedback file is
named as the download named the student's file.

Examples:
    >>> found = parse_download("zhangwei_LATE_48213_700180_queens.py", folder=False)
    >>> (found.lms, found.name, found.key, found.value, found.attachment, found.late)
    ('canvas', 'zhangwei', 'canvas_user', '48213', '700180', True)
    >>> parse_download("anon_xK9pQ_700181_model.py", folder=False).key
    'canvas_anon'
    >>> parse_download("Wei Zhang_1234501_assignsubmission_file", folder=True).value
    '1234501'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

#: Moodle's download: the prefix (the full name, ``_``, the participant id), then
#: ``_assignsubmission_PLUGIN``, then (files not in folders) ``_`` and the file's name.
MOODLE = re.compile(
    r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)(?:_(?P<file>.*))?$"
)

#: Canvas's download, a named student: the sanitised sortable name, ``_LATE`` for a late
#: one, the user id, the attachment id, the file's name.
CANVAS = re.compile(
    r"^(?P<name>[^_\s]+)(?P<late>_late)?_(?P<id>\d+)_(?P<attachment>\d+)_(?P<file>.+)$",
    re.IGNORECASE,
)

#: Canvas's download with anonymous grading: ``[LATE_]anon_ID_ATTACHMENTID_file``.
CANVAS_ANONYMOUS = re.compile(
    r"^(?P<late>late_)?anon_(?P<id>[A-Za-z0-9]+)_(?P<attachment>\d+)_(?P<file>.+)$",
    re.IGNORECASE,
)

#: Keys a row may carry: Moodle's participant id, Canvas's user id, Canvas's anonymous id.
PARTICIPANT = "participant"
CANVAS_USER = "canvas_user"
CANVAS_ANON = "canvas_anon"


@dataclass(frozen=True, slots=True)
class DownloadName:
    """What an LMS download's entry says of its student: the LMS, the name as it wrote
    it, its key (``participant``, ``canvas_user``, ``canvas_anon``) and value, the
    student's own file name (empty for a Moodle folder), and for Canvas the attachment
    id and whether it was late."""

    lms: str
    name: str
    key: str
    value: str
    file: str
    attachment: str = ""
    late: bool = False

    def keys(self) -> dict[str, str]:
        """The row's LMS keys, with what a feedback upload needs to name its file."""
        found = {self.key: self.value}
        if self.lms == "moodle":
            found["moodle_name"] = self.name
        else:
            found["canvas_attachment"] = self.attachment
            if self.key == CANVAS_USER:
                found["canvas_name"] = self.name + ("_LATE" if self.late else "")
        return found


def parse_download(name: str, folder: bool) -> DownloadName | None:
    """The student behind a download's entry ``name``; None for a name no LMS gave.
    Canvas names only files (its download has no folders)."""
    moodle = MOODLE.match(name)
    if moodle is not None:
        return DownloadName(
            "moodle", moodle["name"].strip(), PARTICIPANT, moodle["id"], moodle["file"] or ""
        )
    if folder:
        return None
    anonymous = CANVAS_ANONYMOUS.match(name)
    if anonymous is not None:
        return DownloadName(
            "canvas",
            f"anon_{anonymous['id']}",
            CANVAS_ANON,
            anonymous["id"],
            anonymous["file"],
            anonymous["attachment"],
            anonymous["late"] is not None,
        )
    canvas = CANVAS.match(name)
    if canvas is not None:
        return DownloadName(
            "canvas",
            canvas["name"],
            CANVAS_USER,
            canvas["id"],
            canvas["file"],
            canvas["attachment"],
            canvas["late"] is not None,
        )
    return None


#: Letters NFKD does not take apart, written as their base letters (Vietnamese đ,
#: Polish ł, Danish ø ...), so that a download's ASCII spelling finds them.
_BASE = str.maketrans({"đ": "d", "ð": "d", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "\u0131": "i"})


def name_tokens(text: str) -> list[str]:
    """A name's words without case, accents or punctuation: "María-José O'Neil" ->
    ``['maria', 'jose', 'oneil']``... as letters and digits runs (``o``, ``neil``)."""
    plain = unicodedata.normalize("NFKD", text.casefold().translate(_BASE))
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return re.findall(r"[^\W_]+", plain)


def name_keys(name: str) -> set[str]:
    """A name as a download may spell it: its words run together in every rotation, so
    that any split into given names and family names, either first, is one key
    (Canvas's ``fernándezgarcíamaríalucía`` is "María Lucía Fernández García";
    Moodle's "Wei Zhang" is "Zhang, Wei")."""
    tokens = name_tokens(name)
    return {"".join(tokens[k:] + tokens[:k]) for k in range(len(tokens))}


def moodle_feedback_folder(name: str, participant: str) -> str:
    """The folder of a student's feedback files in Moodle's feedback zip: the full name
    (no ``_`` or path characters in it, as the downloader writes it), the participant
    id, ``assignfeedback_file``."""
    clean = re.sub(r"[_/\\:*?\"<>|\x00-\x1f]+", " ", name).strip() or "Participant"
    return f"{clean}_{participant}_assignfeedback_file"


def canvas_feedback_file(keys: Mapping[str, str], suffix: str = "feedback.md") -> str | None:
    """A student's feedback file as Canvas's re-upload reads it (their download's prefix,
    user id and one of their attachment ids), or None where the keys cannot name one
    (an anonymous submission carries no user id; no attachment, nothing handed in)."""
    user, attachment = keys.get(CANVAS_USER), keys.get("canvas_attachment")
    if not user or not attachment:
        return None
    prefix = keys.get("canvas_name") or "student"
    return f"{prefix}_{user}_{attachment}_{suffix}"
