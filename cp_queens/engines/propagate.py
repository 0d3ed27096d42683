"""``propagate``: a small constraint solver of our own, to watch propagation at work.

CP-SAT hides how it prunes. This engine solves the design card's model

    q[r] in 0..n-1,  AllDifferent(q),  AllDifferent(q[r] + r),  AllDifferent(q[r] - r)

with a depth-first search in plain Python and lets you choose how much reasoning
happens after each queen is placed (``consistency``):

* ``none`` - *chronological backtracking*: a queen is tried on each square of the
  chosen row and kept if no queen already placed attacks it; a row with no square
  left is found only when the search gets there, and then it backs up to the most
  recent queen. Nothing is removed in advance: this is the reference backtracker
  (same nodes). (Not *generate and test*, which builds whole placements and tests
  them only once complete: all n^n of them, or n! with one queen per column.)
* ``forward`` - *forward checking*: placing a queen crosses out the squares it
  attacks in every row still empty. A row left with no square is a dead end found
  *before* the search walks into it.
* ``arc`` - *arc consistency* (AC-3) on the pairwise "not equal" constraints
  ``q[i] != q[j]``, ``q[i] + i != q[j] + j``, ``q[i] - i != q[j] - j``. A value
  of ``q[i]`` loses its support on such a constraint only when ``q[j]`` has a
  single value left, so AC-3 comes down to this: a row down to one square
  behaves like a queen - it *claims* its column and its two diagonals, every
  other row loses the squares on claimed lines, which may leave more rows with
  one square, and so on to a fixpoint. Forward checking is the first round of it.
* ``alldiff`` - *generalised arc consistency* on each of the three AllDifferent
  constraints, by Régin's matching algorithm (``alldiff_prune``, in ``engines/_alldiff.py``):
  a value stays only if some assignment of *all* the constraint's variables to distinct
  values uses it. This sees Hall sets ("these two rows have only these two
  columns left between them") that pairwise reasoning cannot.

Each level removes at least what the previous one removes, so with a fixed row
order the search trees are nested and the node counts can only fall; what each
level costs per node is the other half of the story (``examples/08_propagation.py``).

Search heuristics: ``variable_order`` picks the next row - ``input`` (top to bottom),
``first-fail`` (the row with the fewest squares left; ties to the top) or
``first-fail-centre`` (ties to the middle rows); ``value_order`` the order of its
columns - ``min`` (left to right) or ``centre`` (middle columns first). Without
propagation no domain ever shrinks, so first-fail has nothing to go on and is a
fixed row order.

How the state is kept (the part a compiled solver does the same way, only faster):

* **Domains are bit sets**: bit ``c`` of ``domains[r]`` is set while column ``c``
  is still possible for row ``r``. The lines taken by queens (and, from ``arc`` on,
  by rows down to one square) are three more bit sets - columns, "/" diagonals
  ``r + c`` and "\\\\" diagonals ``c - r + n - 1`` - so "which squares of row ``r``
  are attacked" is three shifts and two ors (``_Search.attacked``). The two
  diagonal AllDifferents are the column AllDifferent on *shifted* domains
  (``domains[r] << r`` holds the values ``q[r] + r``), so one function serves all
  three.
* **Copying, not trailing**: before a queen is placed the search keeps the
  parent's domains and lines on its stack, and backtracking puts them back. A
  copy of ``n`` small integers is cheaper in Python than a trail of every change.
* **An explicit stack, not recursion**: one stack entry per row with a queen, so
  the depth of the tree (``n``) is not bounded by Python's recursion limit.
* **Régin's filtering, cheap when it finds nothing**: most calls prune nothing,
  and each proves it early - on the diagonals every matched value can be set
  free (step 2 of ``alldiff_prune``), on the columns (as many columns as
  rows) all values form one cycle (step 3); both closures stop as soon as they
  hold everything. The matching is built afresh each time: a queen takes away so
  much of every domain that an earlier matching would mostly need repairing.

Statistics (``answer.stats`` of each call): ``branches`` are the **nodes** of the search tree
(queens placed), ``conflicts`` the **fails** (nodes that turned out to be dead
ends: propagation emptied a row, or no square of the next row could be tried),
``extra["propagations"]`` the values removed by propagation. Pre-placed queens
(the completion problem) are placed before the search and propagated from;
blocked squares are never in a domain.

Search events: pass ``tracer=callback`` and the engine calls
``callback(kind, row, col)`` as it goes (see ``cp_queens.engines.base.Tracer``);
``cp_queens.course.drawing.trace`` draws the tree and animates the board from them.

Examples:
    >>> from cp_queens import Problem, engines
    >>> engine = engines.get("propagate", consistency="alldiff")
    >>> answer = engine.count(Problem(8))
    >>> answer.value, answer.stats.branches, answer.stats.conflicts
    (92, 950, 298)
    >>> backtracker = engines.get("propagate", consistency="none")
    >>> answer = backtracker.count(Problem(8))
    >>> answer.value, answer.stats.branches
    (92, 2056)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from cp_queens.engines import register
from cp_queens.engines._alldiff import alldiff_prune, values_of
from cp_queens.engines.base import Call, Engine, Tracer
from cp_queens.problem import Placement, Problem

#: ``consistency``, weakest first.
CONSISTENCIES = ("none", "forward", "arc", "alldiff")
#: ``variable_order``: rows in order, or the smallest domain first (ties to the middle).
VARIABLE_ORDERS = ("input", "first-fail", "first-fail-centre")
#: ``value_order``: columns left to right, or from the middle out.
VALUE_ORDERS = ("min", "centre")

#: Work (nodes times board size) between two looks at the clock and the progress callback.
CHECK_EVERY = 1 << 13

#: What the search keeps to undo a queen: the domains and the three sets of lines taken.
State = tuple[list[int], int, int, int]


class _TimeUp(Exception):
    pass


class _Search:
    """The state of one search: domains, lines taken, queens, and counters."""

    def __init__(
        self,
        n: int,
        consistency: str,
        variable_order: str,
        value_order: str,
        tracer: Tracer | None,
        call: Call,
        report: bool,
    ) -> None:
        self.n = n
        self.full = (1 << n) - 1
        self.domains = [self.full] * n
        self.queen = [-1] * n  # column of the queen placed in each row, -1 while empty
        # Lines taken by queens (and, from ``arc`` on, by rows down to one square), as bit
        # sets: columns, "/" diagonals (row + col) and "\" diagonals (col - row + n - 1).
        self.columns = self.diagonals = self.antidiagonals = 0
        self.consistency = consistency
        self.first_fail = variable_order != "input"
        middle = (n - 1) / 2
        self.row_order = list(range(n))
        if variable_order == "first-fail-centre":
            self.row_order.sort(key=lambda row: (abs(row - middle), row))
        self.column_order = list(range(n))
        if value_order == "centre":
            self.column_order.sort(key=lambda col: (abs(col - middle), col))
        # alldiff: how each AllDifferent shifts a row's domain (q, q + r, q - r + n - 1).
        self.shifts = ([0] * n, list(range(n)), [n - 1 - row for row in range(n)])
        self.tracer = tracer
        self.call = call
        self.report = report  # progress reports for counts only
        self.check_every = max(1, CHECK_EVERY // n)
        self.nodes = self.fails = self.propagations = self.solutions = 0

    # -- the state -------------------------------------------------------------------

    def attacked(self, row: int) -> int:
        """The squares of ``row`` on a line already taken.

        Square ``(row, c)`` lies on "/" diagonal ``row + c`` and on "\\" diagonal
        ``c - row + n - 1``; shifting the diagonal bit sets by ``row`` and by
        ``n - 1 - row`` lines them up with the columns.
        """
        return (
            self.columns | self.diagonals >> row | self.antidiagonals >> (self.n - 1 - row)
        ) & self.full

    def claim(self, row: int) -> bool:
        """The one square left in ``row`` takes its three lines; False if one is taken."""
        col = self.domains[row].bit_length() - 1
        column = 1 << col
        diagonal = 1 << (row + col)
        antidiagonal = 1 << (col - row + self.n - 1)
        if self.columns & column or self.diagonals & diagonal or self.antidiagonals & antidiagonal:
            return False  # another row already holds one of these lines: they attack
        self.columns |= column
        self.diagonals |= diagonal
        self.antidiagonals |= antidiagonal
        return True

    def remove(self, row: int, values: int) -> bool:
        """Cross ``values`` out of the domain of ``row``; False if nothing is left."""
        before = self.domains[row]
        after = before & ~values
        if after != before:
            self.domains[row] = after
            self.propagations += (before ^ after).bit_count()
            if self.tracer is not None:
                self.trace_removal(row, before ^ after)
        return after != 0

    def trace_removal(self, row: int, lost: int) -> None:
        """Tell the tracer about each square of ``row`` crossed out."""
        assert self.tracer is not None
        for col in values_of(lost):
            self.tracer("remove", row, col)

    def place(self, row: int, col: int) -> None:
        """Put a queen on ``(row, col)``: its domain becomes that square, its lines taken."""
        self.queen[row] = col
        self.domains[row] = 1 << col
        self.claim(row)

    def lift(self, row: int) -> None:
        """Take the queen off ``row`` (the search puts back the state from before it)."""
        col = self.queen[row]
        self.queen[row] = -1
        if self.tracer is not None:
            self.tracer("undo", row, col)

    def save(self) -> State:
        return self.domains.copy(), self.columns, self.diagonals, self.antidiagonals

    def restore(self, saved: State) -> None:
        domains, self.columns, self.diagonals, self.antidiagonals = saved
        self.domains = domains.copy()  # the saved copy stays for the next column

    # -- propagation -----------------------------------------------------------------

    def propagate(self, singles: list[int] | None = None) -> bool:
        """Reason from the queens placed so far; False on a dead end.

        ``singles``: rows down to one square whose lines are not taken yet.
        """
        if self.consistency == "none":
            return True
        if self.consistency == "forward":
            return self.forward_check()
        if not self.arc_consistency(singles or []):
            return False
        if self.consistency == "arc":
            return True
        narrowed = self.filter_alldiffs()
        if narrowed is None:
            return False
        # Régin left these rows with one square and crossed it out of all the others:
        # their lines are free, and taking them keeps ``attacked`` right further down.
        for row in set(narrowed):
            if self.domains[row].bit_count() == 1 and not self.claim(row):
                return False
        return True

    def forward_check(self) -> bool:
        """Every row without a queen loses the squares the queens attack."""
        for row in range(self.n):
            if self.queen[row] < 0 and not self.remove(row, self.attacked(row)):
                return False
        return True

    def arc_consistency(self, singles: list[int]) -> bool:
        """AC-3 on the "not equal" constraints, as rounds of "rows with one square claim".

        The queen just placed has taken its lines. Each round, every row with more
        than one square loses the squares on taken lines; the rows that this leaves
        with one square take their lines in turn (two that attack each other cannot:
        a dead end), and the next round crosses out what they attack.

        This is the innermost loop of every level from ``arc`` up, so it crosses
        squares out itself rather than through ``remove`` (same bookkeeping).
        """
        domains = self.domains
        last = self.n - 1
        while True:
            for row in singles:
                if not self.claim(row):
                    return False
            singles = []
            columns, diagonals, antidiagonals = self.columns, self.diagonals, self.antidiagonals
            for row, domain in enumerate(domains):
                if not domain & (domain - 1):
                    continue  # one square left: its lines are taken already
                lost = domain & (columns | diagonals >> row | antidiagonals >> (last - row))
                if lost:
                    domain ^= lost
                    domains[row] = domain
                    self.propagations += lost.bit_count()
                    if self.tracer is not None:
                        self.trace_removal(row, lost)
                    if not domain & (domain - 1):
                        if not domain:
                            return False
                        singles.append(row)
            if not singles:
                return True

    def filter_alldiffs(self) -> list[int] | None:
        """GAC on AllDifferent(q), (q + r) and (q - r), in turn until none prunes.

        Returns the rows narrowed, or ``None`` on a dead end. Only rows with more
        than one square take part: arc consistency has taken the others' lines.
        A constraint runs again only after another one pruned something.
        """
        domains = self.domains
        rows = [row for row, domain in enumerate(domains) if domain & (domain - 1)]
        narrowed: list[int] = []
        if len(rows) < 3:  # two rows with two squares each always find two different ones
            return narrowed
        quiet = 0  # constraints in a row that pruned nothing
        which = 0
        while quiet < 3:
            shift = self.shifts[which]
            shifted = [domains[row] << shift[row] for row in rows]
            pruned = alldiff_prune(shifted)
            if pruned is None:
                return None
            quiet += 1
            if pruned is not shifted:
                for row, before, after in zip(rows, shifted, pruned, strict=True):
                    if after != before:
                        self.remove(row, (before ^ after) >> shift[row])
                        narrowed.append(row)
                        quiet = 1
            which = (which + 1) % 3
        return narrowed

    # -- search ----------------------------------------------------------------------

    def next_row(self) -> int | None:
        """The row to branch on, or ``None`` when every row has its queen."""
        best = None
        best_size = self.n + 1
        for row in self.row_order:
            if self.queen[row] >= 0:
                continue
            if not self.first_fail:
                return row
            size = self.domains[row].bit_count()
            if size < best_size:
                best, best_size = row, size
                if size == 1:
                    break  # nothing can beat it
        return best

    def columns_to_try(self, row: int) -> Iterator[int] | None:
        """The columns of ``row`` to try, in value order; ``None`` at a dead end."""
        domain = self.domains[row]
        if self.consistency == "none":  # nothing was crossed out in advance: test now
            attacked = self.attacked(row)
            if self.tracer is not None:
                for col in values_of(domain & attacked):
                    self.tracer("reject", row, col)
            domain &= ~attacked
        if not domain:  # no square of this row can be tried: the node above is a dead end
            self.fails += 1
            if self.tracer is not None:
                self.tracer("dead-end", row, -1)
            return None
        return (col for col in self.column_order if domain >> col & 1)

    def start(self, fixed: dict[int, int], blocked: frozenset[tuple[int, int]]) -> bool:
        """Take out the blocked squares, place the given queens and propagate from them.

        False if that already leaves a row without a square.
        """
        for row, col in blocked:
            self.domains[row] &= ~(1 << col)
        for row, col in fixed.items():
            self.place(row, col)
        if not all(self.domains):
            return False
        singles = [
            row
            for row in range(self.n)
            if self.queen[row] < 0 and self.domains[row].bit_count() == 1
        ]
        return self.propagate(singles)

    def search(self) -> Iterator[list[int]]:
        """Depth first; yield the (live) queen list at every solution.

        No recursion: ``stack`` holds one entry per row being branched on - the row,
        its columns still to try, and the state from before its queen, to put back
        when the search comes back up.
        """
        stack: list[tuple[int, Iterator[int], State]] = []
        expand = True  # at a node whose propagation went through: go down from it
        while True:
            if expand:
                row = self.next_row()
                if row is None:
                    self.solutions += 1
                    if self.tracer is not None:
                        self.tracer("solution", -1, -1)
                    yield self.queen
                else:
                    columns = self.columns_to_try(row)
                    if columns is not None:
                        stack.append((row, columns, self.save()))
            if not stack:
                return
            row, columns, saved = stack[-1]
            back = self.queen[row] >= 0  # back from the subtree below this row's queen
            if back:
                self.lift(row)
            col = next(columns, None)
            if col is None:  # every column of this row tried: back up one row
                stack.pop()
                expand = False
                continue
            if back:  # the next column starts from the state before the last one
                self.restore(saved)
            self.nodes += 1
            if self.nodes % self.check_every == 0:
                self.look_at_the_clock()
            if self.tracer is not None:
                self.tracer("place", row, col)
            self.place(row, col)
            expand = self.propagate()
            if not expand:
                self.fails += 1
                if self.tracer is not None:
                    self.tracer("fail", row, col)

    def look_at_the_clock(self) -> None:
        if self.call.expired():
            raise _TimeUp
        if self.report:
            self.call.report(self.solutions)


@register
class PropagateEngine(Engine):
    """A readable constraint solver: choose the consistency level and the heuristics.

    The default is ``arc`` with rows in order and columns left to right: it needs a third
    of the backtracker's nodes at about the same CPU time, and gives first-fail shrinking
    domains to go on; ``alldiff`` saves another 14 % of the nodes (counting n = 12) but
    costs about three times as much per node in Python - 25 us of CPU against 8.6 us,
    most of it in Régin's algorithm, run at most nodes on each of the three
    AllDifferents (``docs/course-propagation.md``).

    Examples:
        >>> from cp_queens import Problem, engines
        >>> engines.get("propagate", consistency="strong")
        Traceback (most recent call last):
        ...
        cp_queens.errors.EngineOptionError: propagate: unknown consistency 'strong' \
(choose from none, forward, arc, alldiff)
    """

    name = "propagate"
    #: Domains of every row as bit sets and their trail: 58 MB at n = 800.
    bytes_per_square = 100
    seconds_per_solution = 1e-4
    #: 2.6 s of CPU for n = 14 with one queen given (a plain tree of 2.0 million nodes;
    #: forward checking visits 0.6 million of them).
    seconds_per_node = 1.5e-6
    #: Rows in order (the default): n = 29 in 4 s, n = 30 not within 60 s. With a
    #: first-fail row order there is no such wall (n = 800 in 0.9 s): see ``__init__``.
    first_reach: ClassVar[int | None] = 29
    #: The values each option takes (the command line offers them, and checks them).
    option_choices: ClassVar[dict[str, tuple[str, ...]]] = {
        "consistency": CONSISTENCIES,
        "variable_order": VARIABLE_ORDERS,
        "value_order": VALUE_ORDERS,
    }
    description = (
        "our own small constraint solver in Python: consistency none/forward/arc/alldiff, "
        "first-fail and centre heuristics"
    )

    def __init__(
        self,
        *,
        consistency: str = "arc",
        variable_order: str = "input",
        value_order: str = "min",
        tracer: Tracer | None = None,
    ) -> None:
        super().__init__()
        self.check_options(
            consistency=consistency, variable_order=variable_order, value_order=value_order
        )
        self.consistency = consistency
        self.variable_order = variable_order
        self.value_order = value_order
        self.tracer = tracer
        # Without propagation this is the plain backtracker with other orders; a
        # comparison must not call it CP with propagation (lesson 08's plot).
        self.family = "backtracking" if consistency == "none" else "CP with propagation"
        if variable_order != "input":
            self.first_reach = None  # type: ignore[misc]

    def _solutions(self, problem: Problem, call: Call) -> Iterator[Placement]:
        for queens in self._search(problem, call, report=False):
            yield Placement(tuple(queens))

    def _count(self, problem: Problem, call: Call) -> int:
        return sum(1 for _ in self._search(problem, call, report=True))

    def _search(self, problem: Problem, call: Call, *, report: bool) -> Iterator[list[int]]:
        search = _Search(
            problem.n,
            self.consistency,
            self.variable_order,
            self.value_order,
            self.tracer,
            call,
            report,
        )
        stats = call.stats
        stats.extra.update(
            consistency=self.consistency,
            variable_order=self.variable_order,
            value_order=self.value_order,
        )
        try:
            if search.start(dict(problem.fixed), problem.blocked):
                yield from search.search()
            elif self.tracer is not None:
                self.tracer("fail", -1, -1)
        except _TimeUp:
            call.stop_for_time()
        finally:
            stats.branches = search.nodes
            stats.conflicts = search.fails
            stats.extra["propagations"] = search.propagations
