"""Régin's filtering for ``AllDifferent`` on bit-set domains, and what it is built from.

The ``propagate`` engine's strongest consistency level; here on its own because it is
an algorithm on integers that knows nothing of queens or of the search around it (and
so that the engine's module reads as the search). See ``docs/course-propagation.md``.
"""

from __future__ import annotations


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
    pruned domains (the very list passed in when nothing goes), or ``None`` when
    the variables cannot all take distinct values.

    1. Find a maximum matching variable -> value. If some variable stays
       unmatched there is no solution.
    2. A value nobody uses is *free*. A variable may take a free value, and then
       its own value is free in turn: so a variable may take every value that a
       chain of such moves can set free. When every matched value can be set free
       - the usual case when there are more values than variables, as on the
       diagonals - every value of every variable is used by some solution: that
       is the cheap proof that this constraint prunes nothing, and we stop.
    3. The other values can only rotate: ``x`` may take ``y``'s value if ``y`` can
       move on, ..., to ``x``'s value - a cycle of "may take the value of". So
       ``x`` keeps the values of its strongly connected component in that graph:
       the values it reaches ("ahead") that also reach it back ("behind"). When
       the first component is every value - the usual case when there are as many
       values as variables, as on the columns - nothing goes either.
    4. Every other value goes.

    The matching is built afresh at each call: in the search, a queen and its
    propagation take away a good part of every domain, so an earlier matching
    mostly needs repairing anyway, and keeping it (in and out of the call) costs
    more than the greedy start it saves (measured: ``docs/course-propagation.md``).

    Examples:
        >>> [values_of(d) for d in alldiff_prune([0b011, 0b011, 0b111])]
        [[0, 1], [0, 1], [2]]
        >>> alldiff_prune([0b01, 0b01]) is None
        True
    """
    matched = _maximum_matching(domains)
    if matched is None:
        return None
    match, taken, union = matched

    # Step 2: grow the values that can be set free from the free ones: a matched
    # value joins once its owner may take one of them.
    free = union & ~taken
    freeable = _grow(free, match, domains, until=taken) if free else 0
    stuck = taken & ~freeable  # the values that can only rotate
    if not stuck:
        return domains  # every variable may take every value it has

    # Step 3: a stuck variable's values are all stuck (it has no freeable one). Value
    # u leads to every value its owner may take; take components one at a time.
    if stuck == taken:
        values, options = match, domains
    else:
        values = [value for value in match if value & stuck]
        options = [domain for value, domain in zip(match, domains, strict=True) if value & stuck]
    components = []
    rest = stuck
    while rest:
        # "ahead": the values start reaches (a reached value brings its owner's options);
        # "behind": the values that reach start (one joins when its owner may take one
        # behind). Only values ahead can be in start's component: stop once all are behind.
        start = rest & -rest
        ahead = _grow(start, options, values, until=rest)
        behind = _grow(start, values, options, until=ahead)
        component = ahead & behind
        if component == taken:
            return domains  # one cycle through every value: each can rotate anywhere
        components.append(component)
        rest &= ~component

    # Step 4: a free variable keeps its freeable values, a stuck one its component.
    kept = []
    for value, domain in zip(match, domains, strict=True):
        if value & freeable:
            kept.append(domain & freeable)
        else:
            component = next(c for c in components if c & value)
            kept.append(domain & component)
    return kept


def _grow(reached: int, gains: list[int], triggers: list[int], *, until: int) -> int:
    """The bit set ``reached``, grown by ``gains[i]`` for every ``triggers[i]`` it meets.

    Passes over the rules until one adds nothing, or until ``reached`` holds all of
    ``until`` (the answer the caller hopes for: no need for a last pass to confirm
    it). One helper serves the three closures of Régin's filtering: the freeable
    values (gain a matched value when its owner may take a freeable one), "ahead"
    (gain the values the owner of a reached value may take) and "behind" (gain a
    value when its owner may take a reached one).

    Examples:
        >>> bin(_grow(0b001, [0b100, 0b010, 0b1000], [0b010, 0b001, 0b10000], until=0b1111))
        '0b111'
    """
    while True:
        grown = reached
        for gain, trigger in zip(gains, triggers, strict=True):
            if trigger & grown:
                grown |= gain
                if not until & ~grown:
                    return grown
        if grown == reached:
            return reached
        reached = grown


def _maximum_matching(domains: list[int]) -> tuple[list[int], int, int] | None:
    """One value per variable, all different, or ``None`` if there is no such choice.

    Returns the matching (``match[i]`` is the value of variable ``i`` as a one-bit
    set), the bit set of the values taken and the union of the domains. Each
    variable first takes the smallest value nobody has taken yet; the few that find
    none get an augmenting path.
    """
    match = []
    taken = union = 0
    for domain in domains:
        union |= domain
        free = domain & ~taken
        value = free & -free  # the smallest, or 0 when there is none
        taken |= value
        match.append(value)
    if 0 in match:
        owner = {bit: x for x, bit in enumerate(match) if bit}
        for x in [x for x, bit in enumerate(match) if not bit]:
            freed = _augment(x, domains, match, owner)
            if not freed:
                return None
            taken |= freed
    return match, taken, union


def _augment(x: int, domains: list[int], match: list[int], owner: dict[int, int]) -> int:
    """Give ``x`` a value by an augmenting path (breadth first), shifting others along it.

    From ``x`` try every value it may take; a taken value leads on to its owner, who
    might move to another value, and so on until a free value turns up. Then each
    variable on the path takes the value after it. Returns the free value now taken
    (as a one-bit set), ``0`` if there is no path.
    """
    reached_from: dict[int, int] = {}  # value -> the variable on the path that may take it
    seen = 0
    queue = [x]
    for y in queue:  # the queue grows while we walk it
        new = domains[y] & ~seen
        seen |= new
        while new:
            value = new & -new
            new ^= value
            reached_from[value] = y
            if value in owner:
                queue.append(owner[value])
                continue
            freed = value
            while True:  # a free value: shift everybody along the path back to x
                y = reached_from[value]
                previous = match[y]
                match[y] = value
                owner[value] = y
                if y == x:
                    return freed
                value = previous
    return 0
