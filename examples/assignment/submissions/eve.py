# Sample student: counts columns from 1, as on a chess board.


def model(n):
    solutions = []

    def place(row, q):
        if row == n:
            solutions.append([c + 1 for c in q])
            return
        for col in range(n):
            if all(col != q[r] and abs(col - q[r]) != row - r for r in range(row)):
                place(row + 1, [*q, col])

    place(0, [])
    return solutions
