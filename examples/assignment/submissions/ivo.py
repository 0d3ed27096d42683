# Sample student (hostile): ends the program when it finds no solution.
import sys


def model(n):
    if n in (2, 3):
        sys.exit("no solution!")
    solutions = []

    def place(row, q):
        if row == n:
            solutions.append(list(q))
            return
        for col in range(n):
            if all(col != q[r] and abs(col - q[r]) != row - r for r in range(row)):
                place(row + 1, [*q, col])

    place(0, [])
    return solutions
