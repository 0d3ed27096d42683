# Sample student: checks the columns and one diagonal (q[r] + r), forgets the other
# (q[r] - r): boards whose queens attack each other along that diagonal slip through.


def model(n):
    solutions = []

    def place(row, q):
        if row == n:
            solutions.append(list(q))
            return
        for col in range(n):
            if all(col != q[r] and col + row != q[r] + r for r in range(row)):
                place(row + 1, [*q, col])

    place(0, [])
    return solutions
