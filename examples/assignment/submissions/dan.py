# Sample student: right solutions, but each one twice (the search is run twice).


def model(n):
    found = []

    def place(row, q):
        if row == n:
            found.append(tuple(q))
            return
        for col in range(n):
            if all(col != q[r] and abs(col - q[r]) != row - r for r in range(row)):
                place(row + 1, [*q, col])

    place(0, [])
    place(0, [])  # "just to be sure"
    return found
