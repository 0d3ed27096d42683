# Sample student (slow): forgets to advance the row for n >= 6, an endless loop.


def model(n):
    solutions = []
    row, q = 0, []
    while n >= 6:
        row = row  # meant: row += 1
    if n < 6:
        from itertools import permutations

        for q in permutations(range(n)):
            if all(abs(q[i] - q[j]) != i - j for i in range(n) for j in range(i)):
                solutions.append(list(q))
    return solutions
