# A student's model for their own boards: every completion of the queens given, around
# the blocked squares (q[r] is the column of the queen in row r).


def model(n, queens=None, blocked=()):
    queens, blocked = dict(queens or {}), set(map(tuple, blocked))
    solutions = []

    def place(q):
        row = len(q)
        if row == n:
            solutions.append(list(q))
            return
        columns = [queens[row]] if row in queens else range(n)
        for col in columns:
            if (row, col) not in blocked and all(
                col != c and abs(col - c) != row - r for r, c in enumerate(q)
            ):
                place([*q, col])

    place([])
    return solutions
