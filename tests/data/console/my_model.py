# A student's model: model(n) returns every solution (q[r] is the column of the queen in
# row r); run as a script, it prints the solutions of n = 8, one JSON list a line.
import json


def model(n):
    solutions = []

    def place(q):
        if len(q) == n:
            solutions.append(list(q))
            return
        row = len(q)
        for col in range(n):
            if all(col != c and abs(col - c) != row - r for r, c in enumerate(q)):
                place([*q, col])

    place([])
    return solutions


if __name__ == "__main__":
    for solution in model(8):
        print(json.dumps(solution))
