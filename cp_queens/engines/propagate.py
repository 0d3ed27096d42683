"""``propagate``: a small constraint solver of our own, to watch propagation at work.

CP-SAT hides how it prunes. This engine solves the design card's model

    q[r] in 0..n-1,  AllDifferent(q),  AllDifferent(q[r] + r),  AllDifferent(q[r] - r)

with a depth-first search in plain Python and lets you choose how much reasoning
happens after each queen is placed (``consistency``):

* ``none`` - *generate and test*: a queen is tried on each square of the chosen row
  and kept if no queen already placed attacks it. Nothing is removed in advance:
  this is the reference backtracker (same nodes).
* ``forward`` - *forward checking*: placing a queen crosses out the squares it
  attacks in every row still empty. A row left with no square is a dead end found
  *before* the search walks into it.
* ``arc`` - *arc consistency* (AC-3) on the pairwise "not equal" constraints
  ``q[i] != q[j]``, ``q[i] + i != q[j] + j``, ``q[i] - i != q[j] - j``. A value
  of ``q[i]`` loses its support on such a constraint only when ``q[j]`` has a
  single value left, so AC-3's queue reduces to a queue of rows whose domain
  became a single square: each one crosses out what it attacks, which may leave
  other rows with one square, and so on to a fixpoint. Forward checking is the
  first step of it.
* ``alldiff`` - *generalised arc consistency* on each of the three AllDifferent
  constraints, by Régin's matching algorithm (:func:`alldiff_prune`): a value
  stays only if some assignment of *all* the constraint's variables to distinct
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

Domains are Python integers used as bit sets: bit ``c`` of ``domains[r]`` is set
while column ``c`` is still possible for row ``r``. The two diagonal
AllDifferents are then the column AllDifferent on *shifted* domains
(``domains[r] << r`` holds the values ``q[r] + r``), so one function serves all
three. Every change to a domain is recorded on a trail and undone on
backtracking.

Statistics (``engine.stats``): ``branches`` are the **nodes** of the search tree
(queens placed), ``conflicts`` the **fails** (nodes that turned out to be dead
ends: propagation emptied a row, or no square of the next row could be tried),
``extra["propagations"]`` the values removed by propagation. Pre-placed queens
(the completion problem) are placed before the search and propagated from;
blocked squares are never in a domain.

Search events: pass ``tracer=callback`` and the engine calls
``callback(kind, row, col)`` as it goes (see :data:`cp_queens.engines.base.Tracer`);
:mod:`cp_queens.course.trace` draws the tree and animates the board from them.

Examples:
    >>> from cp_queens import Problem, engines
    >>> engine = engines.get("propagate", consistency="alldiff")
    >>> engine.count(Problem(8))
    92
    >>> engine.stats.branches, engine.stats.conflicts, engine.stats.extra["propagations"]
    (950, 298, 4512)
    >>> backtracker = engines.get("propagate", consistency="none")
    >>> backtracker.count(Problem(8)), backtracker.stats.branches
    (92, 2056)
"""

from __future__ import annotations

from collections.abc import Iterator

from cp_queens.engines import register
from cp_queens.engines.base import Call, Engine, Tracer
from cp_queens.errors import CpQueensError
from cp_queens.problem import Placement, Problem

CONSISTENCIES = ("none", "forward", "arc", "alldiff")
VARIABLE_ORDERS = ("input", "first-fail", "first-fail-centre")
VALUE_ORDERS = ("min", "centre")

#: Nodes between two looks at the clock and the progress callback.
CHECK_EVERY = 1 << 10


class _TimeUp(Exception):
    pass


def values_of(mask: int) -> list[int]:
    """The members of a bit set, smallest first.

    Examples:
        >>> values_of(0b10110)
        [1, 2, 4]
    """
    found = []
    while mask:
        lowest = mask & -mask
        found.append(lowest.bit_length() - 1)
        mask ^= lowest
    return found


def alldiff_prune(domains: list[int]) -> list[int] | None:
    """Régin's filtering for ``AllDifferent``: keep exactly the values some solution uses.

    ``domains[i]`` is a bit set of the values variable ``i`` may take. Returns the
    pruned domains, or ``None`` when the variables cannot all take distinct values.

    1. Find a maximum matching variable -> value (augmenting paths). If some
       variable stays unmatched there is no solution.
    2. Every other solution differs from this one by swapping values along
       alternating cycles, or by shifting along a path that ends in a value
       nobody uses. Orient the graph: ``x -> M(x)`` for matched edges, ``v -> x``
       for the others. An edge ``(x, v)`` is used by some solution iff it is
       matched, or ``v`` and ``x`` lie on a cycle (same strongly connected
       component), or ``v`` can be reached from a free value.
    3. Remove every other value.

    Examples:
        >>> [values_of(d) for d in alldiff_prune([0b011, 0b011, 0b111])]
        [[0, 1], [0, 1], [2]]
        >>> alldiff_prune([0b01, 0b01]) is None
        True
    """
    if not _may_prune(domains):
        return domains
    matched = _maximum_matching(domains)
    if matched is None:
        return None
    used = union = 0
    for x, domain in enumerate(domains):
        used |= 1 << matched[x]
        union |= domain

    # Paths from a free value: free -> x (x may take it) -> M(x) -> y (y may take M(x)) ...
    # Every value met on the way can be used, by shifting values along the path.
    reachable = union & ~used
    unreached = list(range(len(domains)))
    grew = True
    while grew and unreached:
        before = len(unreached)
        for x in unreached:
            if domains[x] & reachable:
                reachable |= 1 << matched[x]
        unreached = [x for x in unreached if not reachable >> matched[x] & 1]
        grew = len(unreached) < before
    kept = [domain & reachable for domain in domains]

    # Cycles among the others (a path from the free values never leads back to them):
    # x -> M(x) -> y whenever y may take M(x); values can rotate around any cycle.
    successors = {
        x: [y for y in unreached if y != x and domains[y] >> matched[x] & 1] for x in unreached
    }
    for component in _strongly_connected_components(successors):
        values = 0
        for x in component:
            values |= 1 << matched[x]
        for x in component:
            kept[x] = domains[x] & values
    return kept


def _may_prune(domains: list[int]) -> bool:
    """False when no Hall set can exist, so :func:`alldiff_prune` would change nothing.

    Régin's algorithm removes a value only because of a *Hall set*: ``k`` variables
    whose domains hold just ``k`` values between them (no other variable can take
    those), and it fails only when ``k`` variables have fewer than ``k`` values. Every
    domain in such a set has at most ``k`` values. So for each ``k`` below the number
    of variables, look at the variables with at most ``k`` values: fewer than ``k`` of
    them, no Hall set of size ``k``; exactly ``k`` with more than ``k`` values between
    them, none either. This settles most calls near the top of the tree without a
    matching.
    """
    by_size = sorted(domains, key=int.bit_count)
    union = 0
    for k, domain in enumerate(by_size, start=1):
        union |= domain
        if k == len(by_size):
            return union.bit_count() < k  # all of them: only a failure is possible
        if domain.bit_count() > k:
            continue  # fewer than k variables have at most k values
        if by_size[k].bit_count() <= k or union.bit_count() <= k:
            return True  # more than k candidates, or exactly k sharing k values
    return False


def _maximum_matching(domains: list[int]) -> list[int] | None:
    """One value per variable, all distinct (Kuhn's augmenting paths), or ``None``."""
    value_of = [-1] * len(domains)
    owner: dict[int, int] = {}

    def augment(x: int, visited: set[int]) -> bool:
        for value in values_of(domains[x]):
            if value in visited:
                continue
            visited.add(value)
            if value not in owner or augment(owner[value], visited):
                owner[value] = x
                value_of[x] = value
                return True
        return False

    taken = 0
    for x, domain in enumerate(domains):  # a greedy pass matches most variables at once
        free = domain & ~taken
        if free:
            value = (free & -free).bit_length() - 1
            owner[value] = x
            value_of[x] = value
            taken |= 1 << value
    for x in range(len(domains)):
        if value_of[x] < 0 and not augment(x, set()):
            return None
    return value_of


def _strongly_connected_components(successors: dict[int, list[int]]) -> list[list[int]]:
    """Tarjan's algorithm on a small graph given as successor lists."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    components: list[list[int]] = []

    def visit(x: int) -> None:
        index[x] = low[x] = len(index)
        stack.append(x)
        on_stack.add(x)
        for y in successors[x]:
            if y not in index:
                visit(y)
                low[x] = min(low[x], low[y])
            elif y in on_stack:
                low[x] = min(low[x], index[y])
        if low[x] == index[x]:
            component = []
            while True:
                y = stack.pop()
                on_stack.discard(y)
                component.append(y)
                if y == x:
                    break
            components.append(component)

    for x in successors:
        if x not in index:
            visit(x)
    return components


class _Search:
    """The state of one search: domains, queens, trail and counters."""

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
        self.distances = [[abs(other - row) for other in range(n)] for row in range(n)]
        self.domains = [self.full] * n
        self.queen = [-1] * n  # column of the queen placed in each row, -1 while empty
        self.trail: list[tuple[int, int]] = []  # (row, domain before a change)
        self.consistency = consistency
        self.first_fail = variable_order != "input"
        middle = (n - 1) / 2
        self.row_order = list(range(n))
        if variable_order == "first-fail-centre":
            self.row_order.sort(key=lambda row: (abs(row - middle), row))
        self.column_order = list(range(n))
        if value_order == "centre":
            self.column_order.sort(key=lambda col: (abs(col - middle), col))
        self.tracer = tracer
        self.call = call
        self.report = report  # progress reports for counts only
        # the "test" of generate and test: attacked columns and diagonals, as bit sets
        self.columns_used = self.diagonals_used = self.antidiagonals_used = 0
        self.nodes = self.fails = self.propagations = self.solutions = 0

    # -- domains ----------------------------------------------------------------

    def remove(self, row: int, values: int) -> bool:
        """Cross ``values`` out of the domain of ``row``; False if nothing is left."""
        before = self.domains[row]
        after = before & ~values
        if after != before:
            self.trail.append((row, before))
            self.domains[row] = after
            self.propagations += (before ^ after).bit_count()
            if self.tracer is not None:
                for col in values_of(before ^ after):
                    self.tracer("remove", row, col)
        return after != 0

    def undo(self, mark: int) -> None:
        """Restore every domain changed since the trail had length ``mark``."""
        trail = self.trail
        while len(trail) > mark:
            row, before = trail.pop()
            self.domains[row] = before

    # -- propagation --------------------------------------------------------------

    def propagate(self, placed: list[int]) -> bool:
        """Reason from the queens just placed in rows ``placed``; False on a dead end."""
        if self.consistency == "none":
            return True
        if self.consistency == "forward":
            return all(self.forward_check(row) for row in placed)
        return self.arc_consistency(placed)

    def forward_check(self, row: int) -> bool:
        """Cross out what the queen of ``row`` attacks in every row still empty."""
        square = 1 << self.queen[row]
        for other, distance in enumerate(self.distances[row]):
            attacked = square | square << distance | square >> distance
            if (
                self.queen[other] < 0
                and self.domains[other] & attacked
                and not self.remove(other, attacked)
            ):
                return False
        return True

    def arc_consistency(self, queue: list[int]) -> bool:
        """AC-3 on the "not equal" constraints, then (``alldiff``) GAC on the AllDifferents.

        ``queue`` holds rows whose domain is down to one square; each crosses out what
        it attacks in every other row, and any row left with one square joins the queue.
        """
        done = set()
        while True:
            while queue:
                row = queue.pop()
                if row in done:
                    continue
                done.add(row)
                square = self.domains[row]  # the one square left, as a bit set
                for other, distance in enumerate(self.distances[row]):
                    attacked = square | square << distance | square >> distance
                    before = self.domains[other]
                    if other == row or not before & attacked:
                        continue
                    if not self.remove(other, attacked):
                        return False
                    if self.domains[other].bit_count() == 1:
                        queue.append(other)
            if self.consistency != "alldiff":
                return True
            # At the fixpoint every row down to one square has crossed it out of all the
            # others, so it stands apart in all three AllDifferents: filter the rest.
            rows = [row for row in range(self.n) if self.domains[row].bit_count() > 1]
            if len(rows) < 2:  # one variable alone cannot clash with anybody
                return True
            narrowed = self.filter_alldiffs(rows)
            if narrowed is None:
                return False
            if not narrowed:
                return True
            queue = [row for row in narrowed if self.domains[row].bit_count() == 1]
            if not queue:
                return True

    def filter_alldiffs(self, rows: list[int]) -> list[int] | None:
        """GAC on AllDifferent(q), (q + r) and (q - r) until none prunes; rows narrowed."""
        n = self.n
        shifts = (
            lambda row: 0,  # q[r]: the columns themselves
            lambda row: row,  # q[r] + r
            lambda row: n - 1 - row,  # q[r] - r, shifted up by n - 1 to stay >= 0
        )
        narrowed: list[int] = []
        quiet = 0  # constraints in a row that pruned nothing
        which = 0
        while quiet < len(shifts):
            shift = shifts[which]
            shifted = [self.domains[row] << shift(row) for row in rows]
            pruned = alldiff_prune(shifted)
            if pruned is None:
                return None
            quiet += 1
            for row, before, after in zip(rows, shifted, pruned, strict=True):
                if after != before:
                    self.remove(row, (before ^ after) >> shift(row))
                    narrowed.append(row)
                    quiet = 1
            which = (which + 1) % len(shifts)
        return narrowed

    # -- search --------------------------------------------------------------------

    def place(self, row: int, col: int) -> None:
        """Put a queen on ``(row, col)``: its domain becomes that square alone."""
        self.queen[row] = col
        self.trail.append((row, self.domains[row]))
        self.domains[row] = 1 << col
        self.columns_used |= 1 << col
        self.diagonals_used |= 1 << (row + col)
        self.antidiagonals_used |= 1 << (col - row + self.n - 1)

    def lift(self, row: int, col: int) -> None:
        """Take the queen off ``(row, col)`` again (the trail restores its domain)."""
        self.queen[row] = -1
        self.columns_used &= ~(1 << col)
        self.diagonals_used &= ~(1 << (row + col))
        self.antidiagonals_used &= ~(1 << (col - row + self.n - 1))

    def attacked(self, row: int) -> int:
        """The test of generate and test, for a whole row: the squares placed queens attack.

        Square ``(row, c)`` lies on "/" diagonal ``row + c`` and on "\\" diagonal
        ``c - row + n - 1``; shifting the diagonal bit sets by ``row`` and by
        ``n - 1 - row`` lines them up with the columns.
        """
        return (
            self.columns_used
            | self.diagonals_used >> row
            | self.antidiagonals_used >> (self.n - 1 - row)
        ) & self.full

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
        return best

    def start(self, fixed: dict[int, int], blocked: frozenset[tuple[int, int]]) -> bool:
        """Take out the blocked squares, place the given queens and propagate from them.

        False if that already leaves a row without a square.
        """
        for row, col in blocked:
            self.domains[row] &= ~(1 << col)
        for row, col in fixed.items():
            self.place(row, col)
        return all(self.domains) and self.propagate(list(fixed))

    def search(self) -> Iterator[list[int]]:
        """Yield the (live) queen list at every solution below the current node."""
        row = self.next_row()
        if row is None:
            self.solutions += 1
            if self.tracer is not None:
                self.tracer("solution", -1, -1)
            yield self.queen
            return
        domain = self.domains[row]
        tracer = self.tracer
        if self.consistency == "none":  # nothing was crossed out in advance: test now
            attacked = self.attacked(row)
            if tracer is not None:
                for col in values_of(domain & attacked):
                    tracer("reject", row, col)
            domain &= ~attacked
        if not domain:  # no square of this row can be tried: the node above is a dead end
            self.fails += 1
            if tracer is not None:
                tracer("dead-end", row, -1)
            return
        for col in self.column_order:
            if not domain >> col & 1:
                continue
            self.nodes += 1
            if self.nodes % CHECK_EVERY == 0:
                self.look_at_the_clock()
            if tracer is not None:
                tracer("place", row, col)
            mark = len(self.trail)
            self.place(row, col)
            if self.propagate([row]):
                yield from self.search()
            else:
                self.fails += 1
                if tracer is not None:
                    tracer("fail", row, col)
            self.undo(mark)
            self.lift(row, col)
            if tracer is not None:
                tracer("undo", row, col)

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
    domains to go on; ``alldiff`` saves a few more nodes but costs far more per node in
    Python (``docs/course-propagation.md``).

    Examples:
        >>> from cp_queens import Problem, engines
        >>> engines.get("propagate", consistency="strong")
        Traceback (most recent call last):
        ...
        cp_queens.errors.CpQueensError: propagate: unknown consistency 'strong' \
(choose from none, forward, arc, alldiff)
    """

    name = "propagate"
    description = (
        "our own small constraint solver in Python: consistency none/forward/arc/alldiff, "
        "first-fail and centre heuristics"
    )

    def __init__(
        self,
        *,
        time_limit: float | None = None,
        consistency: str = "arc",
        variable_order: str = "input",
        value_order: str = "min",
        tracer: Tracer | None = None,
    ) -> None:
        super().__init__(time_limit=time_limit)
        for option, value, choices in (
            ("consistency", consistency, CONSISTENCIES),
            ("variable_order", variable_order, VARIABLE_ORDERS),
            ("value_order", value_order, VALUE_ORDERS),
        ):
            if value not in choices:
                raise CpQueensError(
                    f"propagate: unknown {option} '{value}' (choose from {', '.join(choices)})"
                )
        self.consistency = consistency
        self.variable_order = variable_order
        self.value_order = value_order
        self.tracer = tracer

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
