# Sample student: right. A backtracker over q[r], the column of the queen in row r.


def model(n):
    solutions = []

    def place(row, q):
        if row == n:
            solutions.append(list(q))
            return
        for col in range(n):
            if all(col != q[r] and abs(col - q[r]) != row - r for r in range(row)):
                q.append(col)
                place(row + 1, q)
                q.pop()

    place(0, [])
    return solutions
