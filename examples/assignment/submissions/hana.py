# Sample student: right for small boards, then an IndexError from n = 7 on.


def model(n):
    solutions = []

    def place(row, q):
        if row == n:
            solutions.append(list(q))
            return
        for col in range(n):
            if all(col != q[r] and abs(col - q[r]) != row - r for r in range(row)):
                place(row + 1, [*q, col])

    place(0, [])
    if n >= 7:
        return [solutions[i] for i in range(100)]  # "there are always 100"
    return solutions
