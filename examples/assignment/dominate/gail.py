# Sample student (lesson 11): greedy. Again and again, put a queen on the square that
# dominates the most squares not yet dominated. Always valid, not always the fewest.


def model(n):
    def covers(queen, square):
        (r1, c1), (r2, c2) = queen, square
        return r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)

    squares = [(r, c) for r in range(n) for c in range(n)]
    left = set(squares)
    queens = []
    while left:
        best = max(squares, key=lambda q: sum(covers(q, s) for s in left))
        queens.append(best)
        left = {s for s in left if not covers(best, s)}
    return queens
